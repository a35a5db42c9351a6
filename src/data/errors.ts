// Classifies driver errors: connection loss and overload become 503, never a 500.
const UNAVAILABLE_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "53300",
  "53400",
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && UNAVAILABLE_CODES.has(code);
}

/** 57014: statement_timeout fired. */
export function isQueryTimeout(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "57014";
}
