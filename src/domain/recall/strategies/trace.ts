// TRACE: lineage. One entity named in the query: its timeline — every fact about it, superseded
// ones included (never facts of forgotten memories), in event-time order, each citing its memory
// version. Two or more: the shortest bounded paths between the two best-named ones. With as_of, the
// timeline stops at that event time and paths use the graph as it was then.
import { cancellable } from "../../../data/queries/recall/common";
import { agentHasGraph } from "../../../data/queries/graph/memos";
import { edgesById, timelineOf } from "../../../data/queries/graph/facts";
import { findPaths } from "../../../data/queries/graph/traverse";
import type { Tx } from "../../../data/pools";
import {
  citeFacts,
  groundedRows,
  noGraphNotice,
  pathSources,
  type Grounding,
} from "../../graph/evidence";
import { seedsFromQuery, type Seed } from "../../graph/seeds";
import type { GraphPath } from "../../../data/graph-evidence";
import {
  DEFAULT_GRAPH_BOUNDS,
  type RecallSearch,
  type RecallStrategy,
  type StrategyOutcome,
} from "../strategy";

const TIMELINE_LIMIT = 500;

async function timeline(
  tx: Tx,
  search: RecallSearch,
  seed: Seed,
  note?: string,
): Promise<StrategyOutcome> {
  const { filter, topK, signal } = search;
  const edges = await cancellable(
    timelineOf(tx, {
      orgId: filter.orgId,
      agentId: filter.agentId,
      memoId: seed.memo.memo_id,
      view: { asOf: null, includeExpired: true },
      until: search.asOf,
      limit: TIMELINE_LIMIT,
    }),
    signal,
  );
  const cited = await citeFacts(tx, filter, edges);
  const facts = edges.flatMap((e) => cited.facts.get(e.edge_id) ?? []);
  // Memories in the order their facts happened; earlier events rank first, like the timeline.
  const groundings: Grounding[] = facts.flatMap((f, i) =>
    f.sources.map((s) => ({
      memoryId: s.memory_id,
      score: 1 - i / (facts.length + 1),
      edgeIds: [f.edge_id],
    })),
  );
  const rows = groundedRows(cited, groundings, topK);
  return {
    rows,
    note: note ?? `timeline of ${seed.memo.name} (${seed.memo.memo_type}): ${facts.length} fact(s)`,
    graph: {
      as_of: search.asOf,
      facts,
      ...(facts.length === 0 ? { notice: `no citable fact about ${seed.memo.name}` } : {}),
    },
  };
}

async function between(
  tx: Tx,
  search: RecallSearch,
  from: Seed,
  to: Seed,
): Promise<StrategyOutcome> {
  const { filter, topK, signal } = search;
  const bounds = search.graphBounds ?? DEFAULT_GRAPH_BOUNDS;
  const found = await cancellable(
    findPaths(tx, {
      orgId: filter.orgId,
      agentId: filter.agentId,
      seeds: [{ memo_id: from.memo.memo_id, score: 1 }],
      view: { asOf: search.asOf, includeExpired: false },
      maxHops: bounds.maxHops,
      fanout: bounds.fanout,
      maxRows: bounds.maxRows,
      hopDecay: 1,
      target: to.memo.memo_id,
      limit: topK * 4,
    }),
    signal,
  );
  const cited = await citeFacts(
    tx,
    filter,
    await edgesById(tx, filter.orgId, [...new Set(found.flatMap((p) => p.edge_ids))]),
  );
  const paths: GraphPath[] = found
    .filter((p) => p.edge_ids.every((id) => cited.facts.has(id)))
    .slice(0, topK)
    .map((p) => ({
      memo_ids: p.memo_ids,
      edge_ids: p.edge_ids,
      hops: p.hops,
      score: 1 / p.hops,
      sources: [],
    }));
  for (const p of paths) p.sources = pathSources(p, cited.facts);
  if (paths.length === 0)
    return timeline(
      tx,
      search,
      from,
      `no path between ${from.memo.name} and ${to.memo.name} within ${bounds.maxHops} hops; timeline of ${from.memo.name} instead`,
    );
  const groundings: Grounding[] = paths.flatMap((path) =>
    path.sources.map((s) => ({
      memoryId: s.memory_id,
      score: path.score,
      path,
      edgeIds: path.edge_ids.filter((id) =>
        cited.facts.get(id)!.sources.some((x) => x.memory_id === s.memory_id),
      ),
    })),
  );
  return {
    rows: groundedRows(cited, groundings, topK),
    note: `${paths.length} path(s) between ${from.memo.name} and ${to.memo.name}`,
    graph: {
      as_of: search.asOf,
      paths,
      facts: [...new Set(paths.flatMap((p) => p.edge_ids))].map((id) => cited.facts.get(id)!),
    },
  };
}

export const traceStrategy: RecallStrategy = {
  name: "TRACE",
  description:
    "Lineage: the history of one named entity (superseded facts included, in event-time order), or how two named entities are connected.",
  needsEmbedding: false,
  async run(tx, search) {
    const { filter, query } = search;
    if (!(await agentHasGraph(tx, filter.orgId, filter.agentId)))
      return {
        rows: [],
        graph: { as_of: search.asOf, notice: noGraphNotice(filter.agentId), facts: [] },
      };
    const seeds = await seedsFromQuery(tx, filter.orgId, filter.agentId, query, 4);
    if (seeds.length === 0)
      return {
        rows: [],
        graph: {
          as_of: search.asOf,
          notice:
            "TRACE follows entities the query names; none of this agent's memos is named in it",
          facts: [],
        },
      };
    const [first, second] = seeds;
    return second ? between(tx, search, first!, second) : timeline(tx, search, first!);
  },
};
