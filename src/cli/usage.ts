// CLI usage text and the exit code for a bad invocation.
export const USAGE = `svc — memory service for agents

Usage:
  svc serve                                  run the HTTP API (port PORT, default 8080)
  svc worker                                 run background task processors
  svc beat                                   register periodic schedules (run exactly one)
  svc migrate                                apply database migrations
  svc keys create --org <name>               create an org if needed and mint an API key
  svc keys create --superadmin               mint a value for SUPERADMIN_API_KEY (not stored)
  svc audit verify [--org <id>]              verify audit hash chains offline; exit 1 naming the first broken row
  svc refine schedule --org <name> [--off]   opt an org in to (out of) scheduled refine runs
  svc forget verify <file> --public-key <hex> verify a saved forget certificate offline
  svc help                                   this text

Configuration comes from environment variables; see README.md.`;

export class UsageError extends Error {}

export function exitWithUsage(message?: string): never {
  if (message) console.error(`svc: ${message}\n`);
  console.error(USAGE);
  process.exit(2);
}
