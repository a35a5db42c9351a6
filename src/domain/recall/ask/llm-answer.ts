// ASK with an LLM: the retrieved facts (with their validity windows) and the memories that ground
// them go to the model as numbered context (F1…, M1…); it answers with claims, each citing context
// ids. A claim that cites nothing, or cites an id that was not in the context, is dropped and
// reported.
import type { LlmProvider } from "../../../providers/llm/port";
import type { GraphCitation } from "../../../data/graph-evidence";
import type { RecallRow } from "../../../data/queries/recall/common";
import type { ScoredFact } from "./facts";
import { validityOf } from "./local-answer";

const CONTEXT_FACTS = 20;
const CONTEXT_MEMORIES = 10;
const MEMORY_CHARS = 600;
const EVIDENCE_CHARS = 240;
const MAX_CLAIMS = 8;
/** LLM answers are not extractive: even a fully cited one is reported below certainty. */
const LLM_CONFIDENCE_CAP = 0.9;

export type AnswerContext = {
  /** Id (F1, M1, …) → what a citation of it stands for. */
  citable: Map<string, { citations: GraphCitation[]; edgeId: string | null }>;
  text: string;
};

export type DroppedClaim = { text: string; reason: string };

export type CheckedAnswer = {
  claims: Array<{ text: string; citations: GraphCitation[]; edgeIds: string[] }>;
  dropped: DroppedClaim[];
};

const SYSTEM =
  "You answer a question about what an AI agent remembers, using ONLY the numbered facts (F…) and memories (M…) given. " +
  "Facts carry their validity window: prefer facts valid now unless the question names a time. " +
  'Answer with a JSON object {"claims": [{"text": "<one short sentence>", "citations": ["F1", "M2"]}]} and nothing else. ' +
  "Every claim cites the ids that support it. Be as brief as possible. " +
  'If nothing given answers the question, answer {"claims": []}.';

type Memory = Pick<RecallRow, "memory_id" | "version" | "content">;

export function answerContext(facts: ScoredFact[], memories: Map<string, Memory>): AnswerContext {
  const citable: AnswerContext["citable"] = new Map();
  const lines: string[] = ["Facts:"];
  const shown = facts.slice(0, CONTEXT_FACTS);
  shown.forEach((f, i) => {
    const id = `F${i + 1}`;
    citable.set(id, {
      edgeId: f.edge_id,
      citations: f.sources.map((s) => ({
        memory_id: s.memory_id,
        version: s.version,
        edge_id: f.edge_id,
        evidence: f.fact,
      })),
    });
    lines.push(
      `${id}: ${f.fact} [${f.subject.name} ${f.relation} ${f.object.name}; valid ${validityOf(f).trim() || "(no dates recorded)"}${f.invalid_at ? "; no longer true" : ""}]`,
    );
  });
  if (shown.length === 0) lines.push("(none)");
  lines.push("", "Memories:");
  const memoryIds = [...new Set(shown.flatMap((f) => f.sources.map((s) => s.memory_id)))]
    .filter((id) => memories.has(id))
    .slice(0, CONTEXT_MEMORIES);
  memoryIds.forEach((memoryId, i) => {
    const m = memories.get(memoryId)!;
    const id = `M${i + 1}`;
    citable.set(id, {
      edgeId: null,
      citations: [
        {
          memory_id: m.memory_id,
          version: m.version,
          edge_id: null,
          evidence: m.content.slice(0, EVIDENCE_CHARS),
        },
      ],
    });
    lines.push(`${id}: ${JSON.stringify(m.content.slice(0, MEMORY_CHARS))}`);
  });
  if (memoryIds.length === 0) lines.push("(none)");
  return { citable, text: lines.join("\n") };
}

/** Keeps the claims whose citations all name context ids; reports the others. */
export function checkClaims(
  parsed: Record<string, unknown> | null,
  context: AnswerContext,
): CheckedAnswer | null {
  if (!parsed || !Array.isArray(parsed.claims)) return null;
  const checked: CheckedAnswer = { claims: [], dropped: [] };
  for (const raw of parsed.claims.slice(0, MAX_CLAIMS)) {
    const claim = raw as { text?: unknown; citations?: unknown };
    const text = typeof claim?.text === "string" ? claim.text.trim().slice(0, 500) : "";
    if (!text) continue;
    const ids = Array.isArray(claim.citations)
      ? claim.citations.map((c) => String(c).trim().toUpperCase())
      : [];
    const unknown = ids.filter((id) => !context.citable.has(id));
    if (ids.length === 0) {
      checked.dropped.push({ text, reason: "cites nothing" });
      continue;
    }
    if (unknown.length > 0) {
      checked.dropped.push({
        text,
        reason: `cites ${unknown.slice(0, 5).join(", ")}, which ${unknown.length === 1 ? "was" : "were"} not retrieved`,
      });
      continue;
    }
    const cited = ids.map((id) => context.citable.get(id)!);
    checked.claims.push({
      text,
      citations: cited.flatMap((c) => c.citations),
      edgeIds: cited.flatMap((c) => (c.edgeId ? [c.edgeId] : [])),
    });
  }
  return checked;
}

export async function askLlm(
  llm: LlmProvider,
  orgId: string,
  question: string,
  context: AnswerContext,
  asOf: Date | null,
): Promise<string> {
  const when = asOf ? `\nAnswer as of ${asOf.toISOString()}.` : "";
  const answer = await llm.complete(
    {
      system: SYSTEM,
      prompt: `${context.text}\n\nQuestion: ${JSON.stringify(question)}${when}`,
      json: true,
      maxTokens: 400,
    },
    { orgId },
  );
  return answer.text;
}

export function claimsConfidence(checked: CheckedAnswer): number {
  const total = checked.claims.length + checked.dropped.length;
  return total === 0
    ? 0
    : Math.round(((LLM_CONFIDENCE_CAP * checked.claims.length) / total) * 1000) / 1000;
}
