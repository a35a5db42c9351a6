// dedupe: per agent, merges memos that are one entity. A shared ontology_uri always merges (the
// spec); otherwise names: an exact normalised name or alias (types agreeing), else fuzzy evidence
// at or above REFINE_DEDUPE_THRESHOLD (dedupe-match.ts); names differing in their numbers never
// merge. Groups come from a union-find; the survivor is the most connected memo, then the oldest.
// Groups commit a batch at a time; a resumed or repeated run recomputes the groups from the current
// graph, where merged memos are tombstones, so finished groups are simply gone (a dry run skips the
// ones it reported).
import {
  agentEdgeEnds,
  dedupeAliases,
  dedupeMemos,
  mergeInto,
  type DedupeMemo,
} from "../../../data/queries/forge/refine/dedupe";
import { lockAgentGraphs } from "../../../data/queries/graph/locks";
import { changedTargets } from "../../../data/queries/forge/refine/runs";
import { agentsInScope } from "../../../data/queries/forge/refine/scope";
import type { Tx } from "../../../data/pools";
import type { PassChange, PassContext } from "./context";
import {
  blockingKeys,
  nameEvidence,
  UnionFind,
  type Evidence,
  type MatchCandidate,
} from "./dedupe-match";

type Cursor = { after_agent: string | null };

type Reason =
  | { rule: "ontology_uri"; uri: string }
  | { rule: "name"; with: string; evidence: Evidence };

export type MergeGroup = { canon: DedupeMemo; dupes: Array<{ memo: DedupeMemo; reason: Reason }> };

const MERGE_COUNT: Record<string, string> = {
  ontology_uri: "merged_by_ontology",
  exact: "merged_by_name",
  fuzzy: "merged_by_fuzzy_match",
};

/** Most connected first, then oldest, then smallest id: the memo a group merges into. */
const canonicalOrder = (a: DedupeMemo, b: DedupeMemo) =>
  b.degree - a.degree ||
  a.created_at.getTime() - b.created_at.getTime() ||
  (a.memo_id < b.memo_id ? -1 : 1);

/** The merge groups of one agent's memos, canonical memo first, in a deterministic order. */
export function findGroups(
  memos: DedupeMemo[],
  aliases: Map<string, string[]>,
  neighbours: Map<string, Set<string>>,
  threshold: number,
  hubLimit: number,
): MergeGroup[] {
  const uf = new UnionFind();
  const byId = new Map(memos.map((m) => [m.memo_id, m]));
  const why = new Map<string, Reason>(); // memo → the first evidence that joined it to its group
  const join = (a: string, b: string, reason: Reason) => {
    if (!uf.union(a, b)) return;
    if (!why.has(a)) why.set(a, reason);
    if (!why.has(b)) why.set(b, reason);
  };

  const byUri = new Map<string, string[]>();
  for (const m of memos)
    if (m.ontology_uri)
      byUri.set(m.ontology_uri, [...(byUri.get(m.ontology_uri) ?? []), m.memo_id]);
  for (const [uri, ids] of byUri)
    for (let i = 1; i < ids.length; i++) join(ids[0]!, ids[i]!, { rule: "ontology_uri", uri });

  const candidates = new Map<string, MatchCandidate>(
    memos.map((m) => [
      m.memo_id,
      {
        memo_id: m.memo_id,
        memo_type: m.memo_type,
        normalized_name: m.normalized_name,
        aliases: aliases.get(m.memo_id) ?? [],
        neighbours: neighbours.get(m.memo_id) ?? new Set(),
      },
    ]),
  );
  const blocks = new Map<string, { exact: boolean; ids: string[] }>();
  for (const c of candidates.values()) {
    for (const { key, exact } of blockingKeys(c)) {
      const block = blocks.get(key);
      if (block) block.ids.push(c.memo_id);
      else blocks.set(key, { exact, ids: [c.memo_id] });
    }
  }
  const compared = new Set<string>();
  for (const { exact, ids } of [...blocks.values()].sort(
    (a, b) => Number(b.exact) - Number(a.exact),
  )) {
    // A key shared by very many memos (a common word) proposes nothing: it is no evidence and costs
    // n².
    if (ids.length < 2 || (!exact && ids.length > hubLimit)) continue;
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length && j < i + 1 + hubLimit; j++) {
        const [a, b] = [ids[i]!, ids[j]!];
        const pair = a < b ? `${a} ${b}` : `${b} ${a}`;
        if (compared.has(pair) || uf.find(a) === uf.find(b)) continue;
        compared.add(pair);
        const evidence = nameEvidence(candidates.get(a)!, candidates.get(b)!);
        if (evidence && (evidence.kind === "exact" || evidence.score >= threshold))
          join(a, b, { rule: "name", with: b, evidence });
      }
    }
  }

  const groups: MergeGroup[] = [];
  for (const ids of uf.groups(memos.map((m) => m.memo_id))) {
    const members = ids.map((id) => byId.get(id)!).sort(canonicalOrder);
    const [canon, ...rest] = members;
    groups.push({
      canon: canon!,
      dupes: rest.map((memo) => ({ memo, reason: why.get(memo.memo_id)! })),
    });
  }
  return groups.sort((a, b) => (a.canon.memo_id < b.canon.memo_id ? -1 : 1));
}

function describe(dupe: DedupeMemo, canon: DedupeMemo, reason: Reason, threshold: number): string {
  if (reason.rule === "ontology_uri")
    return `"${dupe.name}" and "${canon.name}" share the ontology URI ${reason.uri}`;
  const e = reason.evidence;
  if (e.kind === "exact")
    return `"${dupe.name}" and "${canon.name}" share the normalised name or alias "${e.matched}"`;
  return `"${dupe.name}" and "${canon.name}" match with score ${e.score} ≥ ${threshold} (${e.acronym ? "acronym" : `trigram similarity ${e.trigram}`}, shared typed neighbours ${e.neighbours}, type agreement ${e.type})`;
}

async function groupsOf(tx: Tx, ctx: PassContext, agentId: string): Promise<MergeGroup[]> {
  const c = ctx.deps.config;
  const memos = await dedupeMemos(tx, ctx.scope, agentId);
  if (memos.length < 2) return [];
  const aliases = new Map<string, string[]>();
  for (const a of await dedupeAliases(tx, agentId))
    aliases.set(a.memo_id, [...(aliases.get(a.memo_id) ?? []), a.normalized_alias]);
  const neighbours = new Map<string, Set<string>>();
  const add = (id: string, value: string) => {
    const set = neighbours.get(id);
    if (set) set.add(value);
    else neighbours.set(id, new Set([value]));
  };
  for (const e of await agentEdgeEnds(tx, agentId)) {
    add(e.src_memo_id, `${e.relation}>${e.dst_memo_id}`);
    add(e.dst_memo_id, `${e.relation}<${e.src_memo_id}`);
  }
  const groups = findGroups(
    memos,
    aliases,
    neighbours,
    c.REFINE_DEDUPE_THRESHOLD,
    c.REFINE_DEDUPE_HUB_KEY_LIMIT,
  );
  if (!ctx.dryRun) return groups;
  // A dry run changes nothing, so its own reported merges are still in the graph: skip those
  // groups.
  const reported = new Set(await changedTargets(tx, ctx.jobId, "dedupe", "merge"));
  return groups.filter((g) => !g.dupes.some((d) => reported.has(d.memo.memo_id)));
}

export async function runDedupe(ctx: PassContext): Promise<void> {
  const cursor: Cursor = (ctx.cursor as Cursor | null) ?? { after_agent: null };
  const threshold = ctx.deps.config.REFINE_DEDUPE_THRESHOLD;
  const limit = ctx.deps.config.REFINE_BATCH_SIZE;
  const agents = (await ctx.read((tx) => agentsInScope(tx, ctx.scope))).filter(
    (a) => cursor.after_agent === null || a > cursor.after_agent,
  );
  for (const agentId of agents) {
    let pending = await ctx.read((tx) => groupsOf(tx, ctx, agentId));
    let last = pending.length === 0;
    while (!last) {
      // Whole groups per batch, about REFINE_BATCH_SIZE memos (a larger group is one batch).
      let size = 0;
      let n = 0;
      while (n < pending.length && (n === 0 || size + pending[n]!.dupes.length + 1 <= limit))
        size += pending[n++]!.dupes.length + 1;
      const batch = pending.slice(0, n);
      pending = pending.slice(n);
      last = pending.length === 0;
      await ctx.commit(async (tx) => {
        await lockAgentGraphs(tx, [agentId]);
        const changes: PassChange[] = [];
        const counts: Record<string, number> = {
          groups: 0,
          memos_merged: 0,
          edges_repointed: 0,
          edges_collapsed: 0,
        };
        for (const g of batch) {
          const result = ctx.dryRun
            ? { merged: g.dupes.map((d) => d.memo.memo_id), repointed: 0, collapsed: [] }
            : await mergeInto(
                tx,
                ctx.orgId,
                g.canon.memo_id,
                g.dupes.map((d) => d.memo.memo_id),
              );
          if (result.merged.length === 0) continue;
          counts.groups!++;
          counts.edges_repointed! += result.repointed;
          counts.edges_collapsed! += result.collapsed.length;
          for (const d of g.dupes.filter((x) => result.merged.includes(x.memo.memo_id))) {
            counts.memos_merged!++;
            const rule = d.reason.rule === "ontology_uri" ? "ontology_uri" : d.reason.evidence.kind;
            counts[MERGE_COUNT[rule]!] = (counts[MERGE_COUNT[rule]!] ?? 0) + 1;
            changes.push({
              action: "merge",
              target_kind: "memo",
              target_id: d.memo.memo_id,
              detail: {
                reason: describe(d.memo, g.canon, d.reason, threshold),
                merged_into: g.canon.memo_id,
                name: d.memo.name,
                into_name: g.canon.name,
                rule,
                ...(d.reason.rule === "name"
                  ? { evidence: d.reason.evidence }
                  : { ontology_uri: d.reason.uri }),
              },
            });
          }
          for (const c of result.collapsed) {
            changes.push({
              action: "collapse_edge",
              target_kind: "edge",
              target_id: c.edge_id,
              detail: c.into
                ? {
                    reason: `identical to ${c.into} (same ends, relation and validity start) after merging into ${g.canon.memo_id}`,
                    superseded_by: c.into,
                    merged_into: g.canon.memo_id,
                  }
                : {
                    reason: `would link ${g.canon.memo_id} to itself after the merge`,
                    merged_into: g.canon.memo_id,
                  },
            });
          }
        }
        return {
          changes,
          counts,
          cursor: { after_agent: last ? agentId : cursor.after_agent } satisfies Cursor,
        };
      });
    }
    cursor.after_agent = agentId;
  }
}
