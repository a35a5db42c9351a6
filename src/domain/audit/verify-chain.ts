// Offline chain verification: feed rows in seq order, then compare the end with the recorded head.
// Names the first broken row; used by `svc audit verify` and the tamper tests.
import { chainHash, GENESIS_HASH_HEX, type ChainRow } from "./canonical";

export type StoredChainRow = ChainRow & { prev_hash: string; hash: string };
export type ChainHead = { seq: number; hash: string } | null;
export type ChainBreak = { seq: number; reason: string };
export type ChainVerdict =
  | { ok: true; rows: number }
  | { ok: false; rows: number; firstBroken: ChainBreak };

export function createChainVerifier(orgId: string) {
  let expectedSeq = 1;
  let prevHash = GENESIS_HASH_HEX;
  let rows = 0;
  let broken: ChainBreak | null = null;

  function check(row: StoredChainRow): string | null {
    if (row.org_id !== orgId) return `belongs to org ${row.org_id}`;
    if (row.seq !== expectedSeq) return `expected seq ${expectedSeq}, found ${row.seq}`;
    if (row.prev_hash !== prevHash) return "prev_hash does not match the previous row's hash";
    if (chainHash(row.prev_hash, row) !== row.hash) return "hash does not match the row's content";
    return null;
  }

  return {
    push(row: StoredChainRow): boolean {
      if (broken) return false;
      rows++;
      const reason = check(row);
      if (reason) {
        broken = { seq: row.seq, reason };
        return false;
      }
      expectedSeq++;
      prevHash = row.hash;
      return true;
    },
    finish(head: ChainHead): ChainVerdict {
      if (!broken) {
        const lastSeq = expectedSeq - 1;
        if (head === null && lastSeq > 0)
          broken = { seq: 1, reason: "rows exist but no chain head is recorded" };
        else if (head !== null && head.seq !== lastSeq)
          broken = {
            seq: Math.min(head.seq, lastSeq) + 1,
            reason: `the head is at seq ${head.seq} but the chain ends at seq ${lastSeq}`,
          };
        else if (head !== null && head.hash !== prevHash)
          broken = { seq: lastSeq, reason: "the last row's hash differs from the recorded head" };
      }
      return broken ? { ok: false, rows, firstBroken: broken } : { ok: true, rows };
    },
  };
}

export function verifyChain(orgId: string, rows: StoredChainRow[], head: ChainHead): ChainVerdict {
  const verifier = createChainVerifier(orgId);
  for (const row of rows) if (!verifier.push(row)) break;
  return verifier.finish(head);
}
