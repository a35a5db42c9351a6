// TRIPLET: the (subject, relation, object) facts most relevant to the query, each with its validity
// and the memories that ground it. Candidates: facts whose words match the query, and the heaviest
// facts around the memos it names; score = 0.6 × text match + 0.3 per named endpoint + 0.1 ×
// weight.
import { cancellable } from "../../../data/queries/recall/common";
import { agentHasGraph } from "../../../data/queries/graph/memos";
import { edgesMatchingText, rankEdges } from "../../../data/queries/graph/facts";
import { edgesAround } from "../../../data/queries/graph/read";
import { citeFacts, groundedRows, noGraphNotice } from "../../graph/evidence";
import { seedsFromQuery } from "../../graph/seeds";
import { orQueryOf } from "../query-words";
import { DEFAULT_GRAPH_BOUNDS, type RecallStrategy } from "../strategy";

const TEXT_CANDIDATES = 30;
/** Postings read per word of the question (the newest facts first). */
const TEXT_SCAN_LIMIT = 2_000;
const NAME_SEEDS = 8;

export const tripletStrategy: RecallStrategy = {
  name: "TRIPLET",
  description:
    "Facts as (subject, relation, object) triples with their validity and sources: who works where, what uses what.",
  needsEmbedding: false,
  async run(tx, search) {
    const { filter, query, topK, signal } = search;
    const bounds = search.graphBounds ?? DEFAULT_GRAPH_BOUNDS;
    const view = { asOf: search.asOf, includeExpired: false };
    if (!(await agentHasGraph(tx, filter.orgId, filter.agentId)))
      return {
        rows: [],
        graph: { as_of: search.asOf, notice: noGraphNotice(filter.agentId), facts: [] },
      };

    const terms = orQueryOf(query);
    const textHits = terms
      ? await cancellable(
          edgesMatchingText(tx, {
            orgId: filter.orgId,
            agentId: filter.agentId,
            terms,
            view,
            scanLimit: TEXT_SCAN_LIMIT,
            limit: TEXT_CANDIDATES,
          }),
          signal,
        )
      : [];
    const seeds = new Map(
      (await seedsFromQuery(tx, filter.orgId, filter.agentId, query, NAME_SEEDS)).map((s) => [
        s.memo.memo_id,
        s.score,
      ]),
    );
    const around = await cancellable(
      edgesAround(tx, filter.orgId, filter.agentId, [...seeds.keys()], view, bounds.fanout),
      signal,
    );
    const candidates = [...textHits, ...around];
    // Text hits carry their ts_rank_cd already; only the facts around named memos are ranked here.
    const ranks = new Map(textHits.map((e) => [e.edge_id, e.rank]));
    const unranked = [...new Set(around.map((e) => e.edge_id))].filter((id) => !ranks.has(id));
    for (const r of await rankEdges(tx, filter.orgId, unranked, terms))
      ranks.set(r.edge_id, r.rank);
    const cited = await citeFacts(tx, filter, candidates);

    const scored = [...cited.facts.values()]
      .map((f) => {
        const named = (seeds.get(f.subject.memo_id) ?? 0) + (seeds.get(f.object.memo_id) ?? 0);
        return { ...f, score: 0.6 * (ranks.get(f.edge_id) ?? 0) + 0.3 * named + 0.1 * f.weight };
      })
      .sort((a, b) => b.score - a.score || (a.edge_id < b.edge_id ? -1 : 1))
      .slice(0, topK);

    const rows = groundedRows(
      cited,
      scored.flatMap((f) =>
        f.sources.map((s) => ({ memoryId: s.memory_id, score: f.score, edgeIds: [f.edge_id] })),
      ),
      topK,
    );
    return {
      rows,
      graph: {
        as_of: search.asOf,
        facts: scored,
        ...(scored.length === 0 ? { notice: "no fact matches the query's words or names" } : {}),
      },
    };
  },
};
