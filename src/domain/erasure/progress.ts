// What an erasure job row carries: the request (jobs.payload) and how far it got (jobs.progress,
// written in each chunk's transaction, so a killed worker resumes where the last chunk committed).
import type { DerivedRow } from "../forget-proof/certificate";

export type ErasurePayload = {
  agent_id: string;
  /** The value is replaced by its digest when the erasure finishes (docs/erasure.md). */
  subject: { key: string; value: string } | { key: string; value_sha256: string } | null;
  key_id: string | null;
  request_id: string | null;
};

export type ErasureProgress = {
  /** Row class → rows touched so far. */
  counts: Record<string, number>;
  /** Graph rows retired so far, with their digests taken before their text was emptied. */
  derived: DerivedRow[];
};

export const EMPTY_PROGRESS: ErasureProgress = { counts: {}, derived: [] };

export function progressOf(raw: Record<string, unknown>): ErasureProgress {
  const p = raw as Partial<ErasureProgress>;
  return { counts: p.counts ?? {}, derived: p.derived ?? [] };
}

export function addCounts(
  into: Record<string, number>,
  more: Record<string, number>,
): Record<string, number> {
  const sum = { ...into };
  for (const [k, n] of Object.entries(more)) if (n > 0) sum[k] = (sum[k] ?? 0) + n;
  return sum;
}
