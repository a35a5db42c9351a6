// Shared pieces of every recall query: the selected columns, the candidate filter, per-transaction
// limits, cancellation, and the one batched access update per recall.
import type { ResultGraphLink } from "../../graph-evidence";
import type { Tx } from "../../pools";

export type RecallFilterInput = {
  orgId: string;
  agentId: string;
  memoryTypes?: string[];
  metadata?: Record<string, unknown>;
  datasetId?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  /** Event-time range: occurred_at >= occurredAfter and occurred_at < occurredBefore. */
  occurredAfter?: Date;
  occurredBefore?: Date;
};

export type RecallRow = {
  memory_id: string;
  version: number;
  agent_id: string;
  content: string;
  memory_type: string;
  metadata: Record<string, unknown>;
  importance: number;
  dataset_id: string | null;
  created_at: Date;
  occurred_at: Date;
  valid_from: Date;
  expires_at: Date | null;
  score: number;
  /** Graph strategies: the edges (and path) that led to this memory. */
  graph?: ResultGraphLink;
};

export const recallColumns = (
  tx: Tx,
) => tx`memory_id, version, agent_id, content, memory_type, metadata, importance,
  dataset_id, created_at, occurred_at, valid_from, expires_at`;

/** Current, unexpired versions of one agent's memories that pass the caller's filters. */
export function candidateFilter(tx: Tx, f: RecallFilterInput) {
  return tx`org_id = ${f.orgId} AND agent_id = ${f.agentId} AND valid_to IS NULL
    AND (expires_at IS NULL OR expires_at > now())
    ${f.memoryTypes?.length ? tx`AND memory_type = ANY(${f.memoryTypes}::text[])` : tx``}
    ${f.metadata ? tx`AND metadata @> ${tx.json(f.metadata as never)}::jsonb` : tx``}
    ${f.datasetId ? tx`AND dataset_id = ${f.datasetId}` : tx``}
    ${f.createdAfter ? tx`AND created_at >= ${f.createdAfter}` : tx``}
    ${f.createdBefore ? tx`AND created_at < ${f.createdBefore}` : tx``}
    ${f.occurredAfter ? tx`AND occurred_at >= ${f.occurredAfter}` : tx``}
    ${f.occurredBefore ? tx`AND occurred_at < ${f.occurredBefore}` : tx``}`;
}

/**
 * Whether the filter keeps fewer than the agent's current, unexpired memories (beyond agent and
 * expiry).
 */
export function narrowsCandidates(f: RecallFilterInput): boolean {
  return Boolean(
    f.memoryTypes?.length ||
      f.metadata ||
      f.datasetId ||
      f.createdAfter ||
      f.createdBefore ||
      f.occurredAfter ||
      f.occurredBefore,
  );
}

/**
 * Bounds the rest of the transaction: a recall never runs longer than its budget. Custom plans by
 * default: for most strategies the better path depends on the arguments (how many memories this
 * agent has, how selective a filter is), which a cached generic plan cannot know; "generic" for a
 * strategy whose queries fix their own shape (RecallStrategy.genericPlans). Not awaited: the driver
 * sends the strategy's query right behind it on the same connection, and a failure fails the
 * transaction.
 */
export function limitRecallTransaction(
  tx: Tx,
  timeoutMs: number,
  plans: "custom" | "generic" = "custom",
): void {
  const mode = plans === "generic" ? "force_generic_plan" : "force_custom_plan";
  // The transaction's next statement fails if this one did; its own rejection is not left
  // unobserved.
  tx`SELECT set_config('statement_timeout', ${String(timeoutMs)}, true), set_config('plan_cache_mode', ${mode}, true)`
    .execute()
    .catch(() => undefined);
}

/**
 * Sent without a round trip of its own: the next statement follows it on the connection, and fails
 * if it did. Nothing awaits it, so its own rejection is absorbed here.
 */
export function pipelined(tx: Tx, statement: ReturnType<Tx>): void {
  statement.execute().catch(() => undefined);
}

/**
 * Lets this transaction's next statements run on generic plans, around statements that fix their
 * own shape in a transaction opened with custom plans (VECTOR, which fusion may run beside other
 * strategies): no per-call planning, which costs as much as the search at 1k memories.
 * restoreCustomPlans puts back limitRecallTransaction's custom plans for whatever runs next.
 */
export function allowGenericPlans(tx: Tx): void {
  pipelined(tx, tx`SELECT set_config('plan_cache_mode', 'auto', true)`);
}

export function restoreCustomPlans(tx: Tx): void {
  pipelined(tx, tx`SELECT set_config('plan_cache_mode', 'force_custom_plan', true)`);
}

type CancellableQuery<T> = PromiseLike<T> & { cancel(): unknown };

/** Runs a query that the signal can cancel server-side (a client that hangs up stops its query). */
export async function cancellable<T>(
  query: CancellableQuery<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  if (!signal) return query;
  if (signal.aborted) {
    // The cancelled query rejects with 57014; nobody awaits it any more, so its rejection is
    // absorbed here.
    query.then(undefined, () => {});
    query.cancel();
    throw new RecallCancelledError();
  }
  const onAbort = () => void query.cancel();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    return await query;
  } catch (error) {
    if (signal.aborted) throw new RecallCancelledError();
    throw error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

export class RecallCancelledError extends Error {
  constructor() {
    super("recall cancelled by the client");
  }
}
