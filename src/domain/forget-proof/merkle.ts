// RFC 9162 §2.1.1 Merkle tree hash: leaf = SHA-256(0x00 ‖ d), node = SHA-256(0x01 ‖ left ‖ right),
// split at the largest power of two smaller than n. The empty tree hashes to SHA-256 of nothing.
import { sha256 } from "@noble/hashes/sha2.js";

function prefixed(prefix: number, ...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(1 + parts.reduce((n, p) => n + p.length, 0));
  out[0] = prefix;
  let at = 1;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const leafHash = (data: Uint8Array) => sha256(prefixed(0x00, data));
export const nodeHash = (left: Uint8Array, right: Uint8Array) =>
  sha256(prefixed(0x01, left, right));

export function merkleRoot(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return sha256(new Uint8Array(0));
  if (leaves.length === 1) return leafHash(leaves[0]!);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return nodeHash(merkleRoot(leaves.slice(0, k)), merkleRoot(leaves.slice(k)));
}
