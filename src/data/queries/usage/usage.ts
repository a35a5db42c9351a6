// usage_counters: one row per org and UTC period ('d:YYYY-MM-DD', 'm:YYYY-MM'). Tenant transactions
// only.
import type { Tx } from "../../pools";

export type CounterRow = {
  period: string;
  tokens: number;
  reserved_tokens: number;
  embedding_calls: number;
  llm_calls: number;
};
export type UsageDelta = {
  tokens: number;
  embeddingCalls: number;
  llmCalls: number;
  releaseReserved: number;
};

type RawCounter = {
  period: string;
  tokens: string;
  reserved_tokens: string;
  embedding_calls: string;
  llm_calls: string;
};
const toCounter = (r: RawCounter): CounterRow => ({
  period: r.period,
  tokens: Number(r.tokens),
  reserved_tokens: Number(r.reserved_tokens),
  embedding_calls: Number(r.embedding_calls),
  llm_calls: Number(r.llm_calls),
});
const COLUMNS =
  "period, tokens::text, reserved_tokens::text, embedding_calls::text, llm_calls::text";

/**
 * Counter writes need not wait for the WAL flush: a crash loses at most the last few milliseconds
 * of counts, while every provider call would otherwise pay a disk sync on its path.
 */
export async function skipCommitFlush(tx: Tx): Promise<void> {
  await tx`SET LOCAL synchronous_commit = off`;
}

export async function readCounters(tx: Tx, periods: string[]): Promise<CounterRow[]> {
  const rows = await tx<
    RawCounter[]
  >`SELECT ${tx.unsafe(COLUMNS)} FROM usage_counters WHERE period = ANY(${periods}::text[])`;
  return rows.map(toCounter);
}

/**
 * Creates missing rows, then locks them in a fixed order so concurrent reservations serialise per
 * org.
 */
export async function lockCounters(
  tx: Tx,
  orgId: string,
  periods: string[],
): Promise<CounterRow[]> {
  await tx`INSERT INTO usage_counters (org_id, period) SELECT ${orgId}, p FROM unnest(${periods}::text[]) AS p ON CONFLICT DO NOTHING`;
  const rows = await tx<RawCounter[]>`
    SELECT ${tx.unsafe(COLUMNS)} FROM usage_counters WHERE period = ANY(${periods}::text[]) ORDER BY usage_counters.period FOR UPDATE`;
  return rows.map(toCounter);
}

export async function addReserved(tx: Tx, periods: string[], tokens: number): Promise<void> {
  await tx`UPDATE usage_counters SET reserved_tokens = reserved_tokens + ${tokens}, updated_at = now() WHERE period = ANY(${periods}::text[])`;
}

export async function applyUsage(
  tx: Tx,
  orgId: string,
  periods: string[],
  d: UsageDelta,
): Promise<void> {
  await tx`
    INSERT INTO usage_counters (org_id, period, tokens, embedding_calls, llm_calls)
    SELECT ${orgId}, p, ${d.tokens}, ${d.embeddingCalls}, ${d.llmCalls} FROM unnest(${periods}::text[]) AS p
    ON CONFLICT (org_id, period) DO UPDATE SET
      tokens = usage_counters.tokens + EXCLUDED.tokens,
      embedding_calls = usage_counters.embedding_calls + EXCLUDED.embedding_calls,
      llm_calls = usage_counters.llm_calls + EXCLUDED.llm_calls,
      reserved_tokens = greatest(usage_counters.reserved_tokens - ${d.releaseReserved}, 0),
      updated_at = now()`;
}

/**
 * Adds an in-process call's spend to the day's and month's counters (creating them) and returns
 * them as they are now, row-locked until the transaction ends: the caller checks its caps against
 * the values before this spend and rolls back when they were already reached.
 */
export async function chargeCounters(
  tx: Tx,
  orgId: string,
  periods: string[],
  tokens: number,
  embeddingCalls: number,
): Promise<CounterRow[]> {
  const rows = await tx<RawCounter[]>`
    INSERT INTO usage_counters AS c (org_id, period, tokens, embedding_calls)
    SELECT ${orgId}, p, ${tokens}, ${embeddingCalls} FROM unnest(${periods}::text[]) AS p
    ON CONFLICT (org_id, period) DO UPDATE SET
      tokens = c.tokens + EXCLUDED.tokens, embedding_calls = c.embedding_calls + EXCLUDED.embedding_calls, updated_at = now()
    RETURNING ${tx.unsafe(COLUMNS)}`;
  return rows.map(toCounter);
}
