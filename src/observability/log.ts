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
      redact: { paths: ["authorization", "*.authorization", "headers.authorization", "headers[\"x-api-key\"]", "key", "*.key", "plaintext"], censor: "[redacted]" },
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
