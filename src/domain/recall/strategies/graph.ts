// GRAPH: multi-hop answers. Seeds are the memos the query names (names and aliases, btree equality)
// and the endpoints of facts whose words match the query; paths of up to GRAPH_MAX_HOPS hops grow
// from them, the walk keeping its BEAM_WIDTH best partial paths per step. A path ranks first by how
// many of the question's words its facts hold together (so "Alice's employer's headquarters" finds
// Alice → Acme → Rotterdam, not Alice's dog), then by its strength: seed strength × the product of
// its edges' weights × 0.7 per extra hop. The result is the memories that ground the best paths,
// each with the path that reached it — including memories that share no word with the question.
import { cancellable } from "../../../data/queries/recall/common";
import { agentHasGraph } from "../../../data/queries/graph/memos";
import { edgesById, edgesMatchingText } from "../../../data/queries/graph/facts";
import { findBeamPaths, type BeamPathRow } from "../../../data/queries/graph/beam";
import {
  citeFacts,
  groundedRows,
  noGraphNotice,
  pathSources,
  type CitedFacts,
  type Grounding,
} from "../../graph/evidence";
import type { Tx } from "../../../data/pools";
import type { RecallFilterInput } from "../../../data/queries/recall/common";
import { seedsFromQuery } from "../../graph/seeds";
import type { GraphPath } from "../../../data/graph-evidence";
import { orQueryOf } from "../query-words";
import { DEFAULT_GRAPH_BOUNDS, type RecallStrategy } from "../strategy";

const NAME_SEEDS = 8;
const TEXT_SEEDS = 6;
const HOP_DECAY = 0.7;
const PATHS_CONSIDERED = 200;
/**
 * Partial paths the walk keeps per step (graph-beam.ts): enough for a question's seeds and each
 * one's heaviest edges; a 5,000-edge hub costs no more than a leaf.
 */
const BEAM_WIDTH = 32;
/** Fact-text seeds weigh less than a name the query spells out. */
const TEXT_SEED_SCORE = 0.5;
const CITED_PATHS_PER_RESULT = 3;
const MIN_CITED_PATHS = 30;
/** Postings read per word of the question (the newest facts first). */
const TEXT_SCAN_LIMIT = 2_000;

/**
 * (question words the path's facts hold + strength) / (question words + 1): in [0, 1], and a path
 * holding one more of the question's words always outranks a stronger one (strength is at most 1).
 */
function relevance(path: BeamPathRow): number {
  return (path.held.length + Math.min(path.score, 1)) / (path.question_words + 1);
}

/**
 * The facts of the best paths only (citing reads their sources and memories: most of a recall's
 * time when all 200 paths were cited), and of every path when too few of the best can be cited to
 * fill top_k.
 */
async function citeBestPaths(
  tx: Tx,
  filter: RecallFilterInput,
  ranked: GraphPath[],
  topK: number,
): Promise<{ cited: CitedFacts; paths: GraphPath[] }> {
  const take = Math.max(CITED_PATHS_PER_RESULT * topK, MIN_CITED_PATHS);
  const best = await citePaths(tx, filter, ranked.slice(0, take));
  const memories = new Set(
    best.paths.flatMap((p) =>
      p.edge_ids.flatMap((id) => best.cited.facts.get(id)!.sources.map((x) => x.memory_id)),
    ),
  );
  return memories.size >= topK || take >= ranked.length ? best : citePaths(tx, filter, ranked);
}

async function citePaths(
  tx: Tx,
  filter: RecallFilterInput,
  paths: GraphPath[],
): Promise<{ cited: CitedFacts; paths: GraphPath[] }> {
  const cited = await citeFacts(
    tx,
    filter,
    await edgesById(tx, filter.orgId, [...new Set(paths.flatMap((p) => p.edge_ids))]),
  );
  return { cited, paths: paths.filter((p) => p.edge_ids.every((id) => cited.facts.has(id))) };
}

export const graphStrategy: RecallStrategy = {
  name: "GRAPH",
  description:
    "Multi-hop questions about named people, organisations, places, tools: follows the knowledge graph built by distill.",
  needsEmbedding: false,
  async run(tx, search) {
    const { filter, query, topK, signal } = search;
    const bounds = search.graphBounds ?? DEFAULT_GRAPH_BOUNDS;
    const view = { asOf: search.asOf, includeExpired: false };
    if (!(await agentHasGraph(tx, filter.orgId, filter.agentId)))
      return {
        rows: [],
        graph: { as_of: search.asOf, notice: noGraphNotice(filter.agentId), paths: [], facts: [] },
      };

    const terms = orQueryOf(query);
    const seeds = new Map<string, number>();
    for (const s of await seedsFromQuery(tx, filter.orgId, filter.agentId, query, NAME_SEEDS))
      seeds.set(s.memo.memo_id, s.score);
    const textHits = terms
      ? await cancellable(
          edgesMatchingText(tx, {
            orgId: filter.orgId,
            agentId: filter.agentId,
            terms,
            view,
            scanLimit: TEXT_SCAN_LIMIT,
            limit: TEXT_SEEDS,
          }),
          signal,
        )
      : [];
    for (const hit of textHits) {
      for (const id of [hit.src_memo_id, hit.dst_memo_id])
        seeds.set(id, Math.max(seeds.get(id) ?? 0, TEXT_SEED_SCORE * (0.5 + hit.rank)));
    }
    if (seeds.size === 0)
      return {
        rows: [],
        graph: {
          as_of: search.asOf,
          notice: "no memo of this agent is named in the query, and no fact matches its words",
          paths: [],
          facts: [],
        },
      };

    const found = await cancellable(
      findBeamPaths(tx, {
        orgId: filter.orgId,
        agentId: filter.agentId,
        question: query,
        seeds: [...seeds].map(([memo_id, score]) => ({ memo_id, score })),
        view,
        maxHops: bounds.maxHops,
        fanout: bounds.fanout,
        beam: BEAM_WIDTH,
        hopDecay: HOP_DECAY,
        limit: PATHS_CONSIDERED,
      }),
      signal,
    );
    const ranked = found
      .map((p) => ({
        memo_ids: p.memo_ids,
        edge_ids: p.edge_ids,
        hops: p.hops,
        score: relevance(p),
        sources: [],
      }))
      .sort((a, b) => b.score - a.score || a.hops - b.hops);
    const { cited, paths } = await citeBestPaths(tx, filter, ranked, topK);
    for (const p of paths) p.sources = pathSources(p, cited.facts);

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
    const rows = groundedRows(cited, groundings, topK);
    const shown = paths.slice(0, topK);
    const facts = [...new Set(shown.flatMap((p) => p.edge_ids))].map((id) => cited.facts.get(id)!);
    return {
      rows,
      graph: {
        as_of: search.asOf,
        paths: shown,
        facts,
        ...(paths.length === 0
          ? { notice: "the named memos have no facts that can be cited here" }
          : {}),
      },
      note: `${seeds.size} seed memo(s), ${found.length} path(s) explored`,
    };
  },
};
