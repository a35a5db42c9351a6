// ASK's retrieval: link the question's names to the agent's memos (names and aliases), gather the
// facts around them (or, when it names none, those whose words match), and score each as an answer.
// With a relation cue: relation fit × (0.55 + 0.15 seed + 0.1 answer type + 0.1 current + 0.05
// weight + 0.05 text match); a fact whose relation the question does not ask about scores at most
// 0.3.
import { cancellable } from "../../../data/queries/recall/common";
import { agentHasGraph } from "../../../data/queries/graph/memos";
import { edgesById, edgesMatchingText, rankEdges } from "../../../data/queries/graph/facts";
import { edgesAround } from "../../../data/queries/graph/read";
import type { Tx } from "../../../data/pools";
import { citeFacts, noGraphNotice, type CitedFacts } from "../../graph/evidence";
import { seedsFromQuery, type Seed } from "../../graph/seeds";
import type { GraphFact } from "../../../data/graph-evidence";
import { orQueryOf } from "../query-words";
import { DEFAULT_GRAPH_BOUNDS, type RecallSearch } from "../strategy";
import {
  EXPECTED_TYPES,
  mentionsRelationName,
  readQuestion,
  type EntityRole,
  type Question,
} from "./question";

const NAME_SEEDS = 8;
const TEXT_CANDIDATES = 30;
/** Postings read per word of the question (the newest facts first). */
const TEXT_SCAN_LIMIT = 2_000;
/** A memo found by the translated CYPHER query counts as a seed of this strength. */
const CYPHER_SEED_SCORE = 0.6;
const NAME_FIT = 0.6;

export type ScoredFact = GraphFact & {
  score: number;
  /** Which endpoint answers the question (the one the question did not name). */
  answer: "subject" | "object";
  /** 1: the relation and direction the question asks about; 0: a relation it does not ask about. */
  relationFit: number;
};

export type AskFacts = {
  question: Question;
  linked: Seed[];
  /** Best first. */
  facts: ScoredFact[];
  cited: CitedFacts;
  notice?: string;
};

/** What the translated CYPHER query (LLM path) found: more candidates. */
export type ExtraCandidates = { edgeIds: string[]; memoIds: string[] };

/** Where the first linked name starts in the lower-cased question, or -1. */
function entityPosition(query: string, linked: Seed[]): number {
  const q = query.toLowerCase();
  const at = linked
    .map((s) =>
      q.search(
        new RegExp(`(^|[^\\p{L}\\p{N}])${s.matched.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "u"),
      ),
    )
    .filter((i) => i >= 0);
  return at.length > 0 ? Math.min(...at) : -1;
}

function roleFit(cueRole: EntityRole, side: "subject" | "object" | null): number {
  if (cueRole === "either") return 0.8;
  if (side === null) return 0.3;
  return cueRole === side ? 1 : 0;
}

export function scoreFact(
  f: GraphFact,
  question: Question,
  query: string,
  seeds: Map<string, number>,
  textRank: number,
  asOf: Date | null,
): ScoredFact {
  const subjectSeed = seeds.get(f.subject.memo_id) ?? 0;
  const objectSeed = seeds.get(f.object.memo_id) ?? 0;
  // The named side: the stronger seed; a fact found by its words alone has none.
  const side =
    subjectSeed === 0 && objectSeed === 0 ? null : subjectSeed >= objectSeed ? "subject" : "object";
  const cues = question.cues.filter((c) => c.relation === f.relation);
  const relationFit =
    cues.length > 0
      ? Math.max(...cues.map((c) => roleFit(c.role, side)))
      : mentionsRelationName(query, f.relation)
        ? NAME_FIT * (side === null ? 0.5 : 1)
        : 0;
  const answer = side === "object" ? "subject" : "object";
  const answerNode = answer === "subject" ? f.subject : f.object;
  const expected = EXPECTED_TYPES[question.kind];
  const typeFit = expected.length === 0 ? 0.5 : expected.includes(answerNode.memo_type) ? 1 : 0;
  const current = asOf !== null || f.invalid_at === null ? 1 : 0;
  const seed = Math.max(subjectSeed, objectSeed);
  const score =
    relationFit > 0
      ? relationFit *
        (0.55 + 0.15 * seed + 0.1 * typeFit + 0.1 * current + 0.05 * f.weight + 0.05 * textRank)
      : 0.3 * (0.5 * seed + 0.5 * textRank);
  return { ...f, score: Math.round(score * 1000) / 1000, answer, relationFit };
}

export async function gatherFacts(
  tx: Tx,
  search: RecallSearch,
  extra: ExtraCandidates = { edgeIds: [], memoIds: [] },
): Promise<AskFacts> {
  const { filter, query, signal } = search;
  const bounds = search.graphBounds ?? DEFAULT_GRAPH_BOUNDS;
  const view = { asOf: search.asOf, includeExpired: false };
  const empty: CitedFacts = { facts: new Map(), memories: new Map() };
  if (!(await agentHasGraph(tx, filter.orgId, filter.agentId))) {
    return {
      question: readQuestion(query, -1),
      linked: [],
      facts: [],
      cited: empty,
      notice: noGraphNotice(filter.agentId),
    };
  }
  const linked = await seedsFromQuery(tx, filter.orgId, filter.agentId, query, NAME_SEEDS);
  const question = readQuestion(query, entityPosition(query, linked));
  const seeds = new Map(linked.map((s) => [s.memo.memo_id, s.score]));
  for (const id of extra.memoIds) if (!seeds.has(id)) seeds.set(id, CYPHER_SEED_SCORE);

  const terms = orQueryOf(query);
  // Facts found by their words alone can never answer (no named side), only support "I don't know":
  // the text scan runs only when the question names no memo.
  const textHits =
    terms && seeds.size === 0
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
  const around =
    seeds.size > 0
      ? await cancellable(
          edgesAround(tx, filter.orgId, filter.agentId, [...seeds.keys()], view, bounds.fanout),
          signal,
        )
      : [];
  const fromCypher = (await edgesById(tx, filter.orgId, extra.edgeIds)).filter(
    (e) => e.agent_id === filter.agentId,
  );
  const candidates = [...around, ...textHits, ...fromCypher];
  const ranks = new Map(
    (await rankEdges(tx, filter.orgId, [...new Set(candidates.map((e) => e.edge_id))], terms)).map(
      (r) => [r.edge_id, r.rank],
    ),
  );
  const cited = await citeFacts(tx, filter, candidates);
  const facts = [...cited.facts.values()]
    .map((f) => scoreFact(f, question, query, seeds, ranks.get(f.edge_id) ?? 0, search.asOf))
    .sort((a, b) => b.score - a.score || b.weight - a.weight || (a.edge_id < b.edge_id ? -1 : 1));
  const notice =
    linked.length === 0 && extra.memoIds.length === 0
      ? "no memo of this agent is named in the question"
      : undefined;
  return { question, linked, facts, cited, ...(notice ? { notice } : {}) };
}
