// reweight: drains pending feedback in batches and blends it into edge weights and memory
// importance (blend.ts), in the transaction that marks the signals applied, so a crash loses or
// repeats none. A memory's signal also nudges the current edges grounded in it, at half the step
// (α/2).
import type { Tx } from "../../../data/pools";
import { lockMemories } from "../../../data/queries/memories/memories";
import {
  currentEdgeWeights,
  currentImportance,
  drainFeedback,
  edgesDerivedFrom,
  peekFeedback,
  reportedValues,
  writeEdgeWeights,
  writeImportance,
  type PendingFeedback,
} from "../../../data/queries/forge/refine/reweight";
import { blend, type Signal, type WeightedSignal } from "./blend";
import type { BatchResult, PassChange, PassContext } from "./context";

type Event = WeightedSignal & { feedbackId: string; via: "direct" | "memory" };

const SIGN = { "-1": "−1", "0": "0", "1": "+1" } as const;

function describe(events: Event[], alpha: number): string {
  const tally = new Map<string, number>();
  for (const e of events)
    tally.set(
      SIGN[String(e.signal) as keyof typeof SIGN],
      (tally.get(SIGN[String(e.signal) as keyof typeof SIGN]) ?? 0) + 1,
    );
  const parts = [...tally].map(([s, n]) => `${n} × ${s}`).join(", ");
  const via = events.some((e) => e.via === "memory")
    ? ` (α/2 = ${alpha / 2} for signals on its source memories)`
    : "";
  return `feedback ${parts}, moving average with α = ${alpha}${via}`;
}

function push<K>(map: Map<K, Event[]>, key: K, event: Event): void {
  const list = map.get(key);
  if (list) list.push(event);
  else map.set(key, [event]);
}

async function applySignals(
  tx: Tx,
  ctx: PassContext,
  signals: PendingFeedback[],
): Promise<Omit<BatchResult, "cursor">> {
  const alpha = ctx.deps.config.REFINE_FEEDBACK_ALPHA;
  const onEdges = new Map<string, Event[]>();
  const onMemories = new Map<string, Event[]>();
  for (const s of signals) {
    const event: Event = {
      signal: s.signal as Signal,
      alpha,
      feedbackId: s.feedback_id,
      via: "direct",
    };
    push(s.target_kind === "edge" ? onEdges : onMemories, s.target_id, event);
  }
  const memoryIds = [...onMemories.keys()];
  if (!ctx.dryRun) await lockMemories(tx, memoryIds);
  for (const { memory_id, edge_id } of memoryIds.length
    ? await edgesDerivedFrom(tx, memoryIds)
    : []) {
    for (const e of onMemories.get(memory_id)!)
      push(onEdges, edge_id, { ...e, alpha: alpha / 2, via: "memory" });
  }
  const edgeIds = [...onEdges.keys()];
  const weights = await currentEdgeWeights(tx, edgeIds);
  const importance = await currentImportance(tx, memoryIds);
  if (ctx.dryRun) {
    for (const [id, v] of await reportedValues(tx, ctx.jobId, "reweight", [
      ...edgeIds,
      ...memoryIds,
    ])) {
      if (weights.has(id)) weights.set(id, v);
      else if (importance.has(id)) importance.set(id, v);
    }
  }

  const changes: PassChange[] = [];
  const edgeRows = [];
  for (const [edgeId, events] of onEdges) {
    const from = weights.get(edgeId);
    if (from === undefined) continue;
    events.sort((a, b) => (a.feedbackId < b.feedbackId ? -1 : 1));
    const to = blend(from, events);
    const direct = events.filter((e) => e.via === "direct").length;
    edgeRows.push({
      edge_id: edgeId,
      weight: to,
      signals: direct,
      reinforced: events.some((e) => e.signal === 1),
    });
    changes.push({
      action: "reweight",
      target_kind: "edge",
      target_id: edgeId,
      detail: {
        reason: describe(events, alpha),
        from,
        to,
        signals: direct,
        via_memory: events.length - direct,
      },
    });
  }
  const memoryRows = [];
  for (const [memoryId, events] of onMemories) {
    const from = importance.get(memoryId);
    if (from === undefined) continue;
    const to = blend(from, events);
    memoryRows.push({ memory_id: memoryId, importance: to });
    changes.push({
      action: "reweight",
      target_kind: "memory",
      target_id: memoryId,
      detail: {
        reason: `importance: ${describe(events, alpha)}`,
        from,
        to,
        signals: events.length,
      },
    });
  }
  if (!ctx.dryRun) {
    await writeEdgeWeights(tx, edgeRows);
    await writeImportance(tx, memoryRows);
  }
  const directEdgeTargets = signals.filter(
    (s) => s.target_kind === "edge" && weights.has(s.target_id),
  ).length;
  const memoryTargets = signals.filter(
    (s) => s.target_kind === "memory" && importance.has(s.target_id),
  ).length;
  return {
    changes,
    counts: {
      signals: signals.length,
      edges_reweighted: edgeRows.length,
      memories_reweighted: memoryRows.length,
      signals_without_target: signals.length - directEdgeTargets - memoryTargets,
    },
  };
}

export async function runReweight(ctx: PassContext): Promise<void> {
  const limit = ctx.deps.config.REFINE_BATCH_SIZE;
  let after = (ctx.cursor as { after: string | null } | null)?.after ?? null;
  for (let taken = limit; taken === limit; ) {
    await ctx.commit(async (tx) => {
      const signals = ctx.dryRun
        ? await peekFeedback(tx, ctx.scope, after, limit)
        : await drainFeedback(tx, ctx.scope, ctx.jobId, limit);
      taken = signals.length;
      if (signals.length > 0) after = signals[signals.length - 1]!.feedback_id;
      return { ...(await applySignals(tx, ctx, signals)), cursor: { after } };
    });
  }
}
