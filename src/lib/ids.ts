// Prefixed, time-ordered identifiers: prefix + 10 chars of millisecond time + 16 random chars
// (Crockford base32).
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export type IdPrefix =
  | "org"
  | "key"
  | "mem"
  | "req"
  | "job"
  | "cert"
  | "conv"
  | "ses"
  | "ds"
  | "memo"
  | "edge"
  | "batch"
  | "fb"
  | "src"
  | "wh"
  | "evt";

/** The last id's time and random digits: a process's ids sort in the order they were made. */
let last = { time: -1, digits: [] as number[] };

/** The random digits plus one (base 32, carry to the left); wraps only after 32^16 ids in a ms. */
function increment(digits: number[]): number[] {
  const next = [...digits];
  for (let i = next.length - 1; i >= 0; i--) {
    next[i] = (next[i]! + 1) % 32;
    if (next[i] !== 0) break;
  }
  return next;
}

/**
 * ULID's monotonic rule: an id made in the same millisecond as the last (or with an earlier time)
 * keeps the last id's time and increments its random part, so storage order is id order even inside
 * one batch (recall's loose neighbours, sql/0560, read it so).
 */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  if (now > last.time) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    last = { time: now, digits: [...bytes].map((b) => b % 32) };
  } else {
    last = { time: last.time, digits: increment(last.digits) };
  }
  let time = "";
  let t = last.time;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return `${prefix}_${time}${last.digits.map((d) => ALPHABET[d]).join("")}`;
}

/** Shape check used before touching the database, so junk ids answer 404 without a query. */
export function looksLikeId(prefix: IdPrefix, value: string): boolean {
  return (
    value.length === prefix.length + 27 &&
    value.startsWith(`${prefix}_`) &&
    /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value.slice(prefix.length + 1))
  );
}

/** Every well-formed id with this prefix inside `text` (a stored answer), once each. */
export function idsIn(prefix: IdPrefix, text: string): string[] {
  return [...new Set(text.match(new RegExp(`\\b${prefix}_[0-9A-HJKMNP-TV-Z]{26}\\b`, "g")) ?? [])];
}
