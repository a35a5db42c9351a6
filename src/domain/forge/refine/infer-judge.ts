// infer's judged cross-connection step (with an LLM configured): each co-mention candidate goes to
// the model, which answers {related, relation, confidence} as JSON. A pair judged related with
// confidence ≥ JUDGE_MIN_CONFIDENCE becomes an edge of the named relation (RELATED_TO if the name
// is not a valid relation) with the judge's confidence; any other answer drops the pair. A call
// that cannot be made (call cap, budget, outage) or an unreadable answer keeps the score-based
// RELATED_TO edge, with a note.
import { toRelationName } from "../../graph/relation-lookup";
import { parseJsonAnswer, type RefineLlm } from "./llm-budget";

export const JUDGE_MIN_CONFIDENCE = 0.7;

export type JudgeCandidate = { x_name: string; y_name: string; facts: string[] };
export type Verdict =
  | { kind: "edge"; relation: string; confidence: number }
  | { kind: "drop"; reason: string }
  | { kind: "unjudged"; note: string };

const SYSTEM =
  "You judge whether two entities from a user's memories are directly related. Answer only with a JSON object " +
  '{"related": boolean, "relation": "UPPER_SNAKE_CASE verb phrase from the first entity to the second", "confidence": number between 0 and 1}. ' +
  "Use only the given context; if it does not show a direct relation, answer related false.";

export async function judgePair(llm: RefineLlm, c: JudgeCandidate): Promise<Verdict> {
  const outcome = await llm.complete({
    system: SYSTEM,
    json: true,
    maxTokens: 80,
    prompt: `First entity: ${c.x_name}\nSecond entity: ${c.y_name}\nThey are mentioned together in these memories' facts:\n${c.facts.map((f) => `- ${f}`).join("\n") || "- (no stated facts)"}`,
  });
  if ("skipped" in outcome)
    return { kind: "unjudged", note: `co-mention candidates left unjudged: ${outcome.detail}` };
  const answer = parseJsonAnswer(outcome.text);
  if (!answer || typeof answer.related !== "boolean")
    return {
      kind: "unjudged",
      note: "co-mention candidates left unjudged: the LLM's answer was not the requested JSON",
    };
  const confidence =
    typeof answer.confidence === "number" && Number.isFinite(answer.confidence)
      ? Math.min(1, Math.max(0, answer.confidence))
      : 0;
  if (!answer.related || confidence < JUDGE_MIN_CONFIDENCE)
    return {
      kind: "drop",
      reason: `the LLM judged them ${answer.related ? `related with confidence ${confidence} < ${JUDGE_MIN_CONFIDENCE}` : "not related"}`,
    };
  const relation =
    (typeof answer.relation === "string" ? toRelationName(answer.relation) : null) ?? "RELATED_TO";
  return { kind: "edge", relation, confidence };
}
