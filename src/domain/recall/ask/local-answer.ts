// ASK's offline answer: extractive, built from the best-scoring facts' own sentences with their
// validity windows ("Bob — Alice reports to Bob (since 2023-06-01)."), every fact cited to the
// memory versions that ground it. Below ASK_MIN_CONFIDENCE the answer is "I don't know" (known:
// false, no citations), and the caller still returns the best supporting memories.
import type { GraphAnswer, GraphCitation } from "../../../data/graph-evidence";
import type { ScoredFact } from "./facts";
import type { AnswerKind } from "./question";

const MAX_ANSWER_FACTS = 5;
/** Facts this close to the best one join the answer (several objects of a many-valued relation). */
const CLOSE_TO_BEST = 0.85;

export const I_DONT_KNOW = "I don't know: nothing in this agent's memory answers the question.";

const day = (d: Date) => d.toISOString().slice(0, 10);

/** "(since 2023-06-01)", "(until 2023-06-01)", "(2020-01-01 to 2023-06-01)" or nothing. */
export function validityOf(f: Pick<ScoredFact, "valid_at" | "invalid_at">): string {
  if (f.valid_at && f.invalid_at) return ` (${day(f.valid_at)} to ${day(f.invalid_at)})`;
  if (f.valid_at) return ` (since ${day(f.valid_at)})`;
  if (f.invalid_at) return ` (until ${day(f.invalid_at)})`;
  return "";
}

export function citationsOf(facts: ScoredFact[]): GraphCitation[] {
  return facts.flatMap((f) =>
    f.sources.map((s) => ({
      memory_id: s.memory_id,
      version: s.version,
      edge_id: f.edge_id,
      evidence: f.fact,
    })),
  );
}

export function unknownAnswer(confidence: number, method: GraphAnswer["method"]): GraphAnswer {
  return { text: I_DONT_KNOW, known: false, confidence, method, citations: [] };
}

/**
 * The facts that make up the answer: the best one, and those of the same relation and direction
 * close to it. A yes/no question naming two memos is answered only by a fact between them.
 */
export function answerFacts(
  scored: ScoredFact[],
  kind: AnswerKind,
  minConfidence: number,
  linked: ReadonlySet<string>,
): ScoredFact[] {
  const between = (f: ScoredFact) => linked.has(f.subject.memo_id) && linked.has(f.object.memo_id);
  const facts = kind === "yesno" && linked.size >= 2 ? scored.filter(between) : scored;
  const best = facts[0];
  if (!best || best.score < minConfidence) return [];
  if (kind === "yesno") return [best];
  const named = (f: ScoredFact) => (f.answer === "subject" ? f.object.memo_id : f.subject.memo_id);
  const seen = new Set<string>();
  return facts
    .filter(
      (f) =>
        f.relation === best.relation &&
        f.answer === best.answer &&
        named(f) === named(best) &&
        f.score >= Math.max(minConfidence, CLOSE_TO_BEST * best.score),
    )
    .filter((f) => {
      const key = answerNode(f).memo_id;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_ANSWER_FACTS);
}

const answerNode = (f: ScoredFact) => (f.answer === "subject" ? f.subject : f.object);

const list = (names: string[]) =>
  names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;

export function localAnswer(
  facts: ScoredFact[],
  kind: AnswerKind,
  minConfidence: number,
  linked: ReadonlySet<string>,
): GraphAnswer {
  const chosen = answerFacts(facts, kind, minConfidence, linked);
  const confidence = chosen[0]?.score ?? facts[0]?.score ?? 0;
  if (chosen.length === 0) return unknownAnswer(confidence, "local");
  const sentences = chosen
    .map((f) => `${f.fact.replace(/[.\s]+$/, "")}${validityOf(f)}`)
    .join("; ");
  const lead =
    kind === "yesno"
      ? "Yes"
      : kind === "count"
        ? String(chosen.length)
        : kind === "when"
          ? chosen[0]!.valid_at
            ? `Since ${day(chosen[0]!.valid_at)}`
            : "No date is recorded"
          : list(chosen.map((f) => answerNode(f).name));
  return {
    text: `${lead} — ${sentences}.`,
    known: true,
    confidence,
    method: "local",
    citations: citationsOf(chosen),
  };
}
