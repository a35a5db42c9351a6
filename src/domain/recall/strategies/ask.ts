// ASK: a natural-language question answered from the agent's graph (docs/recall.md, section ASK).
// Offline (no LLM configured): the question's names are linked to the agent's memos, the facts
// around them scored against the relation the question asks about, and the answer is built from the
// best facts' own sentences, each cited to its memory versions. With an LLM: at plan time the
// question is optionally translated into CYPHER (validated, retried once), the retrieved facts and
// memories go to the model, and only claims citing what was retrieved are kept. Either way the
// results are the supporting memories.
import { withTenantRead } from "../../../data/with-tenant";
import { LlmUnavailableError } from "../../../providers/llm/port";
import { parseJsonAnswer } from "../../forge/refine/llm-budget";
import { groundedRows, type Grounding } from "../../graph/evidence";
import { gatherFacts, type AskFacts, type ExtraCandidates } from "../ask/facts";
import { answerContext, askLlm, checkClaims, claimsConfidence } from "../ask/llm-answer";
import { translateToCypher } from "../ask/llm-cypher";
import { localAnswer, unknownAnswer } from "../ask/local-answer";
import type { GraphAnswer, GraphCitation } from "../../../data/graph-evidence";
import type { RecallStrategy, StrategyEnv, RecallSearch } from "../strategy";

type Prepared = {
  minConfidence: number;
  /** Present when an LLM answered (or was asked and failed, with the reason in notes). */
  llm: { answer: GraphAnswer | null; extra: ExtraCandidates } | null;
  notes: string[];
};

const NO_EXTRA: ExtraCandidates = { edgeIds: [], memoIds: [] };

function uniqueCitations(citations: GraphCitation[]): GraphCitation[] {
  return [
    ...new Map(
      citations.map((c) => [`${c.memory_id}/${c.version}/${c.edge_id ?? ""}`, c]),
    ).values(),
  ];
}

/** The LLM path, at plan time (outside the recall transaction). */
async function prepareWithLlm(
  env: StrategyEnv,
  search: RecallSearch,
  prepared: Prepared,
): Promise<Prepared> {
  const { deps, orgId } = env;
  let extra = NO_EXTRA;
  let cypher: { query: string; edgeIds: string[]; memoIds: string[] } | null = null;
  try {
    if (deps.config.ASK_LLM_CYPHER) {
      const translation = await translateToCypher(deps, {
        orgId,
        agentId: search.filter.agentId,
        question: search.query,
        asOf: search.asOf,
      });
      if (translation.query === null) prepared.notes.push(translation.why);
      else {
        cypher = translation;
        extra = { edgeIds: translation.edgeIds, memoIds: translation.memoIds };
        prepared.notes.push(
          `translated to CYPHER (${translation.rows} row${translation.rows === 1 ? "" : "s"})`,
        );
      }
    }
    const gathered = await withTenantRead(deps.db, orgId, (tx) => gatherFacts(tx, search, extra));
    if (gathered.facts.length === 0) {
      prepared.notes.push("nothing was retrieved, so the LLM was not asked");
      return { ...prepared, llm: { answer: null, extra } };
    }
    const context = answerContext(gathered.facts, gathered.cited.memories);
    const checked = checkClaims(
      parseJsonAnswer(await askLlm(deps.llm, orgId, search.query, context, search.asOf)),
      context,
    );
    if (!checked) {
      prepared.notes.push("the LLM's answer was not the JSON asked for; answered offline");
      return { ...prepared, llm: { answer: null, extra } };
    }
    const fromCypher = new Set(extra.edgeIds);
    const viaCypher = checked.claims.some((c) => c.edgeIds.some((id) => fromCypher.has(id)));
    const answer: GraphAnswer =
      checked.claims.length === 0
        ? unknownAnswer(claimsConfidence(checked), "llm")
        : {
            text: checked.claims.map((c) => c.text).join(" "),
            known: true,
            confidence: claimsConfidence(checked),
            method: viaCypher ? "cypher" : "llm",
            citations: uniqueCitations(checked.claims.flatMap((c) => c.citations)),
          };
    if (cypher) answer.cypher = cypher.query;
    if (checked.dropped.length > 0) answer.dropped_claims = checked.dropped;
    return { ...prepared, llm: { answer, extra } };
  } catch (error) {
    if (!(error instanceof LlmUnavailableError)) throw error;
    prepared.notes.push(
      `the LLM was unavailable (${error.message.slice(0, 120)}); answered offline`,
    );
    return { ...prepared, llm: { answer: null, extra } };
  }
}

/** Citations whose memory can still be returned (a forget may land between plan and run). */
function stillCitable(answer: GraphAnswer, gathered: AskFacts): GraphAnswer {
  const citations = answer.citations.filter((c) => gathered.cited.memories.has(c.memory_id));
  if (citations.length === answer.citations.length) return answer;
  return citations.length > 0
    ? { ...answer, citations }
    : {
        ...unknownAnswer(answer.confidence, answer.method),
        ...(answer.cypher ? { cypher: answer.cypher } : {}),
      };
}

function howRead(gathered: AskFacts): string {
  const linked = gathered.linked.map((s) => s.memo.name).slice(0, 4);
  const cues = [...new Set(gathered.question.cues.map((c) => c.relation))];
  return (
    `${gathered.question.kind} question; linked ${linked.length > 0 ? linked.join(", ") : "no memo"}; ` +
    `relation${cues.length === 1 ? "" : "s"} asked: ${cues.length > 0 ? cues.join(", ") : "none recognised"}; ${gathered.facts.length} candidate fact(s)`
  );
}

export const askStrategy: RecallStrategy<Prepared> = {
  name: "ASK",
  description:
    "A direct question about the agent's knowledge graph (who is Alice's manager? where does Bob live?): an answer with citations, or \"I don't know\".",
  needsEmbedding: false,
  async prepare(env, search) {
    const prepared: Prepared = {
      minConfidence: env.deps.config.ASK_MIN_CONFIDENCE,
      llm: null,
      notes: [],
    };
    return env.deps.llm.name === "local" ? prepared : prepareWithLlm(env, search, prepared);
  },
  async run(tx, search, prepared) {
    const gathered = await gatherFacts(tx, search, prepared.llm?.extra ?? NO_EXTRA);
    const linked = new Set(gathered.linked.map((s) => s.memo.memo_id));
    const answer = prepared.llm?.answer
      ? stillCitable(prepared.llm.answer, gathered)
      : localAnswer(gathered.facts, gathered.question.kind, prepared.minConfidence, linked);
    const citedEdges = new Set(answer.citations.flatMap((c) => (c.edge_id ? [c.edge_id] : [])));
    const citedMemories = new Set(answer.citations.map((c) => c.memory_id));
    // The memories behind the answer first, then those behind the other candidate facts.
    const groundings: Grounding[] = [
      ...answer.citations.map((c) => ({
        memoryId: c.memory_id,
        score: 1 + answer.confidence,
        edgeIds: c.edge_id ? [c.edge_id] : [],
      })),
      ...gathered.facts.flatMap((f) =>
        f.sources.map((s) => ({
          memoryId: s.memory_id,
          score: citedMemories.has(s.memory_id) ? 1 + answer.confidence : f.score,
          edgeIds: [f.edge_id],
        })),
      ),
    ];
    // Without the working fields (which side answers, how well the relation fits): the response
    // schema has none, and a fact carrying them fails its check, which then costs an error report
    // and a second pass on every ASK and AUTO response before the extra fields are dropped.
    const facts = [
      ...gathered.facts.filter((f) => citedEdges.has(f.edge_id)),
      ...gathered.facts.filter((f) => !citedEdges.has(f.edge_id)),
    ]
      .slice(0, search.topK)
      .map(({ answer: _side, relationFit: _fit, ...fact }) => fact);
    const notice =
      gathered.notice ??
      (answer.known
        ? undefined
        : "no fact scored above ASK_MIN_CONFIDENCE; the results are the best supporting memories");
    return {
      rows: groundedRows(gathered.cited, groundings, search.topK),
      graph: { as_of: search.asOf, facts, answer, ...(notice ? { notice } : {}) },
      note: [howRead(gathered), ...prepared.notes].join("; "),
    };
  },
};
