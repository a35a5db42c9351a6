// API key format: svc_sk_ + base62(32 random bytes) + 6-char base62 CRC32 of what precedes it.
// The checksum lets us reject typos and random strings without touching the database.
import { sha256Bytes } from "../../lib/hash";

export const KEY_PREFIX = "svc_sk_";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_SHAPE = /^svc_sk_[A-Za-z0-9]{24,200}$/;

function toBase62(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = "";
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

function checksum(body: string): string {
  let n = Bun.hash.crc32(body);
  let out = "";
  for (let i = 0; i < 6; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export type MintedKey = { plaintext: string; hash: Uint8Array; start: string };

export function mintKey(): MintedKey {
  const body = KEY_PREFIX + toBase62(crypto.getRandomValues(new Uint8Array(32))).padStart(43, "0");
  const plaintext = body + checksum(body);
  return { plaintext, hash: hashKey(plaintext), start: keyStart(plaintext) };
}

export const hashKey = (plaintext: string): Uint8Array => sha256Bytes(plaintext);
export const keyStart = (plaintext: string): string => plaintext.slice(0, 12);

export function hasKeyShape(candidate: string): boolean {
  return KEY_SHAPE.test(candidate);
}

/** True for keys this service minted; configured bootstrap keys are checked by hash instead. */
export function hasValidChecksum(candidate: string): boolean {
  return candidate.length > 6 && checksum(candidate.slice(0, -6)) === candidate.slice(-6);
}
