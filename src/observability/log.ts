// Structured JSON logging (pino): one object per line on stdout. Secrets are redacted by path.
import pino from "pino";

export type Logger = pino.Logger;

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "svc" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: [
          "authorization",
          "*.authorization",
          "headers.authorization",
          'headers["x-api-key"]',
          "key",
          "*.key",
          "plaintext",
        ],
        censor: "[redacted]",
      },
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}

/**
 * How long an exit waits for the last lines before it goes anyway (a reader that stopped reading).
 */
const EXIT_FLUSH_LIMIT_MS = 2_000;

/**
 * Exits once every line logged so far is written. The destination is asynchronous, and its
 * flush(cb) calls back at once even while a write is still in flight, so exiting there lost the
 * last line (seen as a worker's "worker stopped" missing from its output). Ending the stream waits
 * for that write and writes the rest first.
 */
export function exitAfterLogs(log: Logger, code: number): void {
  const stream = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as
    | { end?: () => void; once?: (event: string, listener: () => void) => void }
    | undefined;
  if (typeof stream?.end !== "function" || typeof stream.once !== "function") {
    process.exit(code);
  }
  stream.once("close", () => process.exit(code));
  setTimeout(() => process.exit(code), EXIT_FLUSH_LIMIT_MS).unref();
  try {
    stream.end();
  } catch {
    process.exit(code); // already ended (a second exit on the way out): nothing left to write
  }
}
