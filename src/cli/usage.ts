// CLI usage text, per-subcommand help, and the exit code for a bad invocation.
import pkg from "../../package.json";
import { SCOPES } from "../lib/scopes";

export const VERSION = `svc ${pkg.version}`;

export const USAGE = `svc — memory service for agents

Usage:
  svc serve                                  run the HTTP API (port PORT, default 8080)
  svc worker                                 run background task processors
  svc beat                                   register periodic schedules (run exactly one)
  svc migrate                                apply database migrations
  svc keys create --org <name> [--scopes …]  create an org if needed and mint an API key
  svc keys create --superadmin               mint a value for SUPERADMIN_API_KEY (not stored)
  svc audit verify [--org <id>]              verify audit hash chains offline; exit 1 naming the first broken row
  svc refine schedule --org <name> [--off]   opt an org in to (out of) scheduled refine runs
  svc forget verify <file> --public-key <hex> verify a saved forget certificate offline
  svc mcp [--key <api key>]                  serve the MCP tools over stdio (key also from SVC_MCP_API_KEY)
  svc export --org <id|name> [--out <file>] write a tenant's data as a chained NDJSON stream (default: stdout)
  svc import --org <name> [<file>]           load such a stream (default: stdin); idempotent, all-or-nothing
  svc help | --help | -h                     this text;  svc <command> --help  one command's help
  svc --version | -V                         the version

Configuration comes from environment variables; see README.md and docs/configuration.md.`;

const MODE =
  "With DATABASE_URL (and VALKEY_URL) it uses PostgreSQL (and Valkey); without, the embedded database in SVC_DATA_DIR.";

/** One entry per subcommand: what `svc <command> --help` prints. */
export const COMMAND_HELP: Record<string, string> = {
  serve: `Usage: svc serve

Runs the HTTP API on HOST:PORT (default 127.0.0.1:8080): applies pending migrations under a lock, then listens.
${MODE}
Without VALKEY_URL this one process is also the worker and the beat. On loopback with no API key yet it seeds
a development key, saved to SVC_DATA_DIR/dev-api-key (owner-only). SIGTERM/SIGINT stop it cleanly.`,
  worker: `Usage: svc worker

Runs the background task processors (needs VALKEY_URL). Scale it out freely; WORKER_METRICS_PORT > 0 serves /metrics.`,
  beat: `Usage: svc beat

Registers the periodic schedules (needs VALKEY_URL). Run exactly one.`,
  migrate: `Usage: svc migrate

Applies pending migrations (serve also does, under a lock). ${MODE}`,
  keys: `Usage: svc keys create --org <name> [--name <label>] [--scopes <scope,scope,…>]
       svc keys create --superadmin

Creates the org if needed and mints an API key; prints one JSON line {"org_id","key_id","key","scopes"}.
--scopes limits the key to the listed scopes (${SCOPES.join(", ")}); without it the key holds all of them.
--superadmin mints a value for SUPERADMIN_API_KEY (not stored anywhere).`,
  audit: `Usage: svc audit verify [--org <id>]

Verifies the audit hash chains (all orgs, or one); exit 1 naming the first broken row.`,
  refine: `Usage: svc refine schedule --org <name> [--off]

Opts an org in to (with --off: out of) scheduled refine runs.`,
  forget: `Usage: svc forget verify <file> --public-key <hex>

Verifies a saved forget certificate offline against the service's public key (GET /v1/forget/keys).`,
  mcp: `Usage: svc mcp [--key <api key>]

Serves the MCP tools and resources over stdio (docs/mcp.md) as the tenant of the key (--key, or SVC_MCP_API_KEY).
Logs go to stderr. ${MODE}`,
  export: `Usage: svc export --org <name> [--out <file>]

Writes the org's data (memories with every version, conversations, sessions, datasets, graph, feedback, the
audit chain head) as a chained NDJSON stream to --out or stdout (docs/export.md).`,
  import: `Usage: svc import --org <name> [<file>]

Loads an export stream (a file, or stdin) into the org, creating it if needed: one transaction, ids and versions
kept, rows already present skipped; a truncated or altered stream is refused naming the line (docs/export.md).`,
  help: USAGE,
};

export const isHelpFlag = (arg: string | undefined) => arg === "--help" || arg === "-h";
export const isVersionFlag = (arg: string | undefined) =>
  arg === "--version" || arg === "-V" || arg === "version";

export class UsageError extends Error {}

export function exitWithUsage(message?: string): never {
  if (message) console.error(`svc: ${message}\n`);
  console.error(USAGE);
  process.exit(2);
}
