// prune: decays every unreinforced edge in scope by REFINE_EDGE_HALF_LIFE_DAYS, expires (never
// deletes) those left under REFINE_PRUNE_THRESHOLD with reason `pruned` — past the grace period, or
// at once when feedback judged them — then retires memos left with no live edge and no source.
// Expired edges stay readable (TRACE, graph/data with include_expired).
import {
  applyDecayAndPrune,
  decayCandidates,
  orphanMemos,
  retireMemos,
  type PruneSettings,
} from "../../../data/queries/forge/refine/prune";
import type { PassContext } from "./context";

type Cursor = { phase: "edges" | "memos"; after: string | null };

export async function runPrune(ctx: PassContext): Promise<void> {
  const c = ctx.deps.config;
  const settings: PruneSettings = {
    halfLifeSeconds: c.REFINE_EDGE_HALF_LIFE_DAYS * 86400,
    threshold: c.REFINE_PRUNE_THRESHOLD,
    graceSeconds: c.REFINE_PRUNE_GRACE_HOURS * 3600,
  };
  const limit = c.REFINE_BATCH_SIZE;
  const cursor: Cursor = (ctx.cursor as Cursor | null) ?? { phase: "edges", after: null };

  for (let taken = limit; cursor.phase === "edges" && taken === limit; ) {
    await ctx.commit(async (tx) => {
      const rows = await decayCandidates(
        tx,
        ctx.scope,
        settings,
        cursor.after,
        limit,
        ctx.dryRun ? ctx.jobId : null,
      );
      taken = rows.length;
      if (!ctx.dryRun) await applyDecayAndPrune(tx, rows);
      const pruned = rows.filter((r) => r.prunable);
      if (rows.length > 0) cursor.after = rows[rows.length - 1]!.edge_id;
      if (taken < limit) Object.assign(cursor, { phase: "memos", after: null });
      return {
        cursor: { ...cursor },
        counts: {
          edges_decayed: rows.filter((r) => r.decayed < r.weight).length,
          edges_pruned: pruned.length,
        },
        changes: pruned.map((r) => ({
          action: "prune",
          target_kind: "edge" as const,
          target_id: r.edge_id,
          detail: {
            reason: `weight ${r.decayed.toFixed(4)} (decayed from ${r.weight.toFixed(4)}) is below REFINE_PRUNE_THRESHOLD ${settings.threshold}`,
            from: r.weight,
            to: r.decayed,
            relation: r.relation,
            fact: r.fact,
          },
        })),
      };
    });
  }

  for (let taken = limit; taken === limit; ) {
    await ctx.commit(async (tx) => {
      const memos = await orphanMemos(
        tx,
        ctx.scope,
        cursor.after,
        limit,
        ctx.dryRun ? ctx.jobId : null,
      );
      taken = memos.length;
      if (!ctx.dryRun)
        await retireMemos(
          tx,
          memos.map((m) => m.memo_id),
          "pruned",
        );
      if (memos.length > 0) cursor.after = memos[memos.length - 1]!.memo_id;
      return {
        cursor: { ...cursor },
        counts: { memos_retired: memos.length },
        changes: memos.map((m) => ({
          action: "retire",
          target_kind: "memo" as const,
          target_id: m.memo_id,
          detail: {
            reason: "no live edge and no source memory left",
            name: m.name,
            memo_type: m.memo_type,
          },
        })),
      };
    });
  }
}
