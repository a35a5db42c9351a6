// What a URL must look like before a job is created for it; addresses are checked again (after DNS)
// by the fetcher, on every redirect hop.
import { literalAddress, type AddressPolicy } from "../../lib/fetch/address-policy";

export const MAX_URL_LENGTH = 2048;

/**
 * Why the URL is refused, or null; `allowWith` names the setting that would allow a refused
 * address.
 */
export function urlProblem(
  raw: string,
  policy: AddressPolicy,
  allowWith = "INGEST_FETCH_ALLOW_CIDRS",
): string | null {
  if (raw.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "is not an absolute URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `scheme ${url.protocol.replace(/:$/, "")} is not allowed; use http or https`;
  if (url.username || url.password) return "must not carry credentials";
  if (!url.hostname) return "has no host";
  const literal = literalAddress(url.hostname);
  if (literal) {
    const verdict = policy.check(literal);
    if (!verdict.allowed) return `is refused: ${verdict.reason} (allow it with ${allowWith})`;
  }
  return null;
}
