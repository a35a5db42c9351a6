// Prefixed, time-ordered identifiers: prefix + 10 chars of millisecond time + 16 random chars (Crockford base32).
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export type IdPrefix = "org" | "key" | "mem" | "req" | "job" | "cert" | "conv" | "ses" | "ds" | "memo" | "edge" | "batch" | "fb" | "src" | "wh" | "evt";

export function newId(prefix: IdPrefix, now = Date.now()): string {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let rand = "";
  for (const b of bytes) rand += ALPHABET[b % 32];
  return `${prefix}_${time}${rand}`;
}

/** Shape check used before touching the database, so junk ids answer 404 without a query. */
export function looksLikeId(prefix: IdPrefix, value: string): boolean {
  return value.length === prefix.length + 27 && value.startsWith(`${prefix}_`) && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value.slice(prefix.length + 1));
}

/** Every well-formed id with this prefix inside `text` (a stored answer), once each. */
export function idsIn(prefix: IdPrefix, text: string): string[] {
  return [...new Set(text.match(new RegExp(`\\b${prefix}_[0-9A-HJKMNP-TV-Z]{26}\\b`, "g")) ?? [])];
}
