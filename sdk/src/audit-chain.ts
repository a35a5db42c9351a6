// Recomputes the audit hash chain exactly as docs/audit.md publishes it (SHA-256 over the previous
// hash's bytes and the row's canonical JSON), with WebCrypto: no dependency.
import type { AuditRow } from "./types.js";

export const GENESIS_HASH = "0".repeat(64);

export type ChainVerdict =
  | { ok: true; rows: number; head: { seq: number; hash: string } | null }
  | { ok: false; rowsChecked: number; firstBrokenSeq: number; reason: string };

export function canonicalJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const hex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (text: string) =>
  Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16));

export async function rowHash(prevHash: string, orgId: string, row: AuditRow): Promise<string> {
  const body = new TextEncoder().encode(
    canonicalJson({
      agent_id: row.agent_id,
      detail: row.detail,
      key_id: row.key_id,
      occurred_at: Number(row.occurred_at_us),
      operation: row.operation,
      org_id: orgId,
      request_id: row.request_id,
      seq: Number(row.seq),
      target_ids: row.target_ids,
    }),
  );
  const prev = fromHex(prevHash);
  const input = new Uint8Array(prev.length + body.length);
  input.set(prev);
  input.set(body, prev.length);
  return hex(await crypto.subtle.digest("SHA-256", input));
}

/** Checks seq continuity from 1, prev_hash links and every hash, over rows in seq order. */
export async function verifyRows(
  orgId: string,
  rows: AsyncIterable<AuditRow>,
): Promise<ChainVerdict> {
  let prev = GENESIS_HASH;
  let expected = 1;
  let head: { seq: number; hash: string } | null = null;
  for await (const row of rows) {
    const seq = Number(row.seq);
    const broken = (reason: string): ChainVerdict => ({
      ok: false,
      rowsChecked: expected - 1,
      firstBrokenSeq: seq,
      reason,
    });
    if (seq !== expected) return broken(`expected seq ${expected}, got ${seq}`);
    if (row.prev_hash !== prev) return broken("prev_hash does not match the previous row's hash");
    if ((await rowHash(prev, orgId, row)) !== row.hash)
      return broken("hash does not match the row's content");
    prev = row.hash;
    head = { seq, hash: row.hash };
    expected++;
  }
  return { ok: true, rows: expected - 1, head };
}
