// summarize (opt-in): per agent, clusters the current graph by bounded label propagation
// (communities.ts) and keeps one SUMMARY memo per cluster of
// REFINE_SUMMARY_MIN_MEMBERS..MAX_MEMBERS memos. A cluster is identified by cluster_hash = sha256
// over its sorted member ids and their updated_at: a live summary with that hash is reused as is;
// otherwise a new one is written (extractive text, SUMMARIZES edges to the members, memo_sources
// from the facts it quotes, so forgetting one of those memories retires it). Summaries whose hash
// no run produces any more are retired as stale. Clusters are committed in hash order behind a
// cursor, so a resumed run neither skips nor repeats one.
import { createHash } from "node:crypto";
import { lockAgentGraphs } from "../../../data/queries/graph/locks";
import { changedTargets } from "../../../data/queries/forge/refine/runs";
import { agentsInScope } from "../../../data/queries/forge/refine/scope";
import {
  clusterEdges,
  clusterMemos,
  insertSummary,
  liveSummaries,
  retireSummaries,
  summaryWithHash,
  type ClusterEdge,
  type ClusterMemo,
} from "../../../data/queries/forge/refine/summarize";
import type { Tx } from "../../../data/pools";
import { normalizeName } from "../../graph/normalize";
import { newId } from "../../../lib/ids";
import { labelPropagation } from "./communities";
import type { PassChange, PassContext } from "./context";
import { extractiveSummary, llmSummary, summaryRequest, type ClusterSummary } from "./summary-text";

type Cursor = {
  after_agent: string | null;
  agent: string | null;
  phase: "clusters" | "stale";
  after_hash: string | null;
};

type Cluster = { hash: string; members: ClusterMemo[]; edges: ClusterEdge[] };

type AgentPlan = {
  clusters: Cluster[];
  stale: Array<{ memo_id: string; name: string; members: number }>;
  oversized: number;
  iterations: number;
  converged: boolean;
};

export function clusterHash(members: ClusterMemo[]): string {
  const h = createHash("sha256");
  for (const m of [...members].sort((a, b) => (a.memo_id < b.memo_id ? -1 : 1)))
    h.update(`${m.memo_id}\u0000${m.updated_at.toISOString()}\u0000`);
  return h.digest("hex");
}

async function plan(tx: Tx, ctx: PassContext, agentId: string): Promise<AgentPlan> {
  const c = ctx.deps.config;
  const memos = await clusterMemos(tx, ctx.scope, agentId);
  const byId = new Map(memos.map((m) => [m.memo_id, m]));
  const edges = (await clusterEdges(tx, agentId)).filter(
    (e) => byId.has(e.src_memo_id) && byId.has(e.dst_memo_id) && e.src_memo_id !== e.dst_memo_id,
  );
  const communities = labelPropagation(
    memos.map((m) => m.memo_id),
    edges.map((e) => ({ a: e.src_memo_id, b: e.dst_memo_id, weight: e.weight })),
    c.REFINE_LABEL_PROPAGATION_MAX_ITERATIONS,
  );
  const clusterOf = new Map<string, number>();
  communities.clusters.forEach((ids, i) => ids.forEach((id) => clusterOf.set(id, i)));
  const inside = communities.clusters.map(() => [] as ClusterEdge[]);
  for (const e of edges)
    if (clusterOf.get(e.src_memo_id) === clusterOf.get(e.dst_memo_id))
      inside[clusterOf.get(e.src_memo_id)!]!.push(e);
  const clusters: Cluster[] = [];
  let oversized = 0;
  communities.clusters.forEach((ids, i) => {
    if (ids.length < c.REFINE_SUMMARY_MIN_MEMBERS) return;
    if (ids.length > c.REFINE_SUMMARY_MAX_MEMBERS) {
      oversized++;
      return;
    }
    const members = ids.map((id) => byId.get(id)!);
    clusters.push({ hash: clusterHash(members), members, edges: inside[i]! });
  });
  clusters.sort((a, b) => (a.hash < b.hash ? -1 : 1));
  const produced = new Set(clusters.map((k) => k.hash));
  const scoped = ctx.scope.datasetId !== null;
  // A dry run retires nothing, so the summaries it already reported are still live: skip them.
  const reported = new Set(
    ctx.dryRun ? await changedTargets(tx, ctx.jobId, "summarize", "retire") : [],
  );
  const stale = (await liveSummaries(tx, agentId))
    .filter(
      (s) =>
        !produced.has(s.cluster_hash) &&
        !reported.has(s.memo_id) &&
        (!scoped || s.members.some((m) => byId.has(m))),
    )
    .map((s) => ({ memo_id: s.memo_id, name: s.name, members: s.members.length }));
  return {
    clusters,
    stale,
    oversized,
    iterations: communities.iterations,
    converged: communities.converged,
  };
}

/**
 * LLM summaries for the batch's clusters that have none yet, asked before the batch's transaction
 * (no lock is held during a call). A dry run makes no call; a skipped call (no LLM, call cap,
 * budget spent, outage) leaves the cluster to the extractive text, and the pass notes say why.
 */
async function summaryTexts(
  ctx: PassContext,
  agentId: string,
  batch: Cluster[],
  notes: string[],
): Promise<Map<string, ClusterSummary>> {
  const texts = new Map<string, ClusterSummary>();
  if (ctx.dryRun || !ctx.llm.configured) return texts;
  for (const k of batch) {
    if (await ctx.read((tx) => summaryWithHash(tx, agentId, k.hash))) continue;
    const outcome = await ctx.llm.complete(summaryRequest(k.members, k.edges));
    const text =
      "text" in outcome
        ? llmSummary(extractiveSummary(k.members, k.edges), k.edges, outcome.text)
        : null;
    if (text) texts.set(k.hash, text);
    else
      notes.push(
        `some summaries are extractive: ${"skipped" in outcome ? outcome.detail : "the LLM answered with no text"}`,
      );
    await ctx.keepAlive();
  }
  return texts;
}

export async function runSummarize(ctx: PassContext): Promise<void> {
  const limit = ctx.deps.config.REFINE_BATCH_SIZE;
  const cursor: Cursor = (ctx.cursor as Cursor | null) ?? {
    after_agent: null,
    agent: null,
    phase: "clusters",
    after_hash: null,
  };
  const agents = (await ctx.read((tx) => agentsInScope(tx, ctx.scope))).filter(
    (a) => cursor.after_agent === null || a > cursor.after_agent,
  );
  for (const agentId of agents) {
    if (cursor.agent !== agentId)
      Object.assign(cursor, { agent: agentId, phase: "clusters", after_hash: null });
    const p = await ctx.read((tx) => plan(tx, ctx, agentId));
    const notes: string[] = [];
    if (p.oversized > 0)
      notes.push(
        `clusters larger than REFINE_SUMMARY_MAX_MEMBERS (${ctx.deps.config.REFINE_SUMMARY_MAX_MEMBERS}) are left unsummarised`,
      );
    if (!p.converged)
      notes.push(
        `label propagation stopped at REFINE_LABEL_PROPAGATION_MAX_ITERATIONS (${ctx.deps.config.REFINE_LABEL_PROPAGATION_MAX_ITERATIONS}) before converging`,
      );
    if (!ctx.llm.configured)
      notes.push(
        "summaries are extractive (no LLM configured): the strongest facts of each cluster, quoted",
      );

    let pending =
      cursor.phase === "clusters"
        ? p.clusters.filter((k) => cursor.after_hash === null || k.hash > cursor.after_hash)
        : [];
    let first = true;
    let oversizedCounted = cursor.phase !== "clusters" || cursor.after_hash !== null;
    while (pending.length > 0 || first) {
      first = false;
      let size = 0;
      let n = 0;
      while (n < pending.length && (n === 0 || size + pending[n]!.members.length <= limit))
        size += pending[n++]!.members.length;
      const batch = pending.slice(0, n);
      pending = pending.slice(n);
      const texts = await summaryTexts(ctx, agentId, batch, notes);
      await ctx.commit(async (tx) => {
        await lockAgentGraphs(tx, [agentId]);
        const changes: PassChange[] = [];
        const counts: Record<string, number> = {
          clusters: 0,
          summaries_written: 0,
          summaries_reused: 0,
          clusters_too_large: 0,
        };
        if (!oversizedCounted) counts.clusters_too_large = p.oversized;
        oversizedCounted = true;
        for (const k of batch) {
          counts.clusters!++;
          if (await summaryWithHash(tx, agentId, k.hash)) {
            counts.summaries_reused!++;
            continue;
          }
          const text = texts.get(k.hash) ?? extractiveSummary(k.members, k.edges);
          const memoId = newId("memo");
          if (!ctx.dryRun) {
            await insertSummary(tx, ctx.orgId, {
              memo_id: memoId,
              agent_id: agentId,
              name: `Summary: ${text.name}`,
              normalized_name: `${normalizeName(`summary ${text.name}`)} ${k.hash.slice(0, 12)}`,
              description: text.text,
              hash_hex: k.hash,
              properties: {
                member_count: k.members.length,
                quoted_edges: text.quoted.map((e) => e.edge_id),
                method: text.method,
                job_id: ctx.jobId,
              },
              members: k.members.map((m) => ({
                memo_id: m.memo_id,
                name: m.name,
                edge_id: newId("edge"),
              })),
              quoted_edges: text.quoted.map((e) => e.edge_id),
            });
          }
          counts.summaries_written!++;
          changes.push({
            action: "summarize",
            target_kind: "memo",
            target_id: memoId,
            detail: {
              reason: `a new cluster of ${k.members.length} memos (label propagation) has no summary yet`,
              cluster_hash: k.hash,
              members: k.members.map((m) => m.memo_id),
              text: text.text,
              method: text.method,
            },
          });
        }
        cursor.after_hash = batch.length > 0 ? batch[batch.length - 1]!.hash : cursor.after_hash;
        if (pending.length === 0) cursor.phase = "stale";
        return { changes, counts, notes, cursor: { ...cursor } };
      });
    }

    let stale = p.stale;
    while (stale.length > 0) {
      const batch = stale.slice(0, limit);
      stale = stale.slice(limit);
      await ctx.commit(async (tx) => {
        await lockAgentGraphs(tx, [agentId]);
        if (!ctx.dryRun)
          await retireSummaries(
            tx,
            batch.map((s) => s.memo_id),
          );
        return {
          counts: { summaries_retired: batch.length },
          changes: batch.map((s) => ({
            action: "retire",
            target_kind: "memo" as const,
            target_id: s.memo_id,
            detail: {
              reason: `its cluster of ${s.members} memos changed or no longer exists (stale_summary)`,
              name: s.name,
            },
          })),
          cursor: { ...cursor },
        };
      });
    }
    Object.assign(cursor, {
      after_agent: agentId,
      agent: null,
      phase: "clusters",
      after_hash: null,
    });
  }
}
