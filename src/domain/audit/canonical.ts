// The canonical JSON of an audit row and its chain hash: the exact rule docs/audit.md publishes, so
// any client can recompute a hash from what GET /v1/audit returns.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";

export const GENESIS_HASH_HEX = "0".repeat(64);

/** The fields covered by the hash, in the form the hash sees them. */
export type ChainRow = {
  org_id: string;
  seq: number;
  /** Microseconds since the Unix epoch (UTC). */
  occurred_at: number;
  operation: string;
  agent_id: string | null;
  key_id: string | null;
  request_id: string | null;
  target_ids: string[];
  detail: unknown;
};

/**
 * RFC 8785 style: keys sorted by UTF-16 code units, no whitespace, numbers as ECMAScript prints
 * them.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "string":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new Error("non-finite number in canonical JSON");
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
    }
    default:
      throw new Error(`cannot canonicalise a ${typeof value}`);
  }
}

export function canonicalRow(row: ChainRow): string {
  return canonicalJson({
    agent_id: row.agent_id,
    detail: row.detail,
    key_id: row.key_id,
    occurred_at: row.occurred_at,
    operation: row.operation,
    org_id: row.org_id,
    request_id: row.request_id,
    seq: row.seq,
    target_ids: row.target_ids,
  });
}

/** hash = SHA-256(prev_hash bytes ‖ UTF-8 bytes of canonicalRow(row)), hex encoded. */
export function chainHash(prevHashHex: string, row: ChainRow): string {
  const prev = hexToBytes(prevHashHex);
  const body = utf8ToBytes(canonicalRow(row));
  const input = new Uint8Array(prev.length + body.length);
  input.set(prev, 0);
  input.set(body, prev.length);
  return bytesToHex(sha256(input));
}
