// Reading the LLM's answer: strip <think> blocks and code fences, parse, validate with TypeBox,
// then map onto the extractor port (entity refs, canonical relations, dates). An unusable answer is
// an AnswerError whose message says why (it goes back to the model once, then into the job's
// warnings).
import { Type as T, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { isMemoType, type MemoType } from "../../../graph/memo-types";
import { normalizeName } from "../../../graph/normalize";
import { canonicalRelation } from "../../../graph/relation-lookup";
import { USER_ENTITY } from "../local/mentions";
import { utcDay } from "../../../../lib/validation/date-bound";
import type { ExtractedEntity, ExtractedRelation, ExtractInput, MemoryExtraction } from "../types";

export class AnswerError extends Error {}

const Name = T.String({ minLength: 1, maxLength: 300 });
const Day = T.Union([T.String({ maxLength: 40 }), T.Null()]);
const AnswerSchema = T.Object({
  memories: T.Array(
    T.Object({
      id: T.String({ maxLength: 20 }),
      entities: T.Array(
        T.Object({
          name: Name,
          type: T.String({ maxLength: 40 }),
          description: T.Optional(T.String({ maxLength: 1000 })),
        }),
        { maxItems: 500 },
      ),
      relations: T.Array(
        T.Object({
          subject: Name,
          relation: T.String({ minLength: 1, maxLength: 80 }),
          object: Name,
          fact: T.Optional(T.String({ maxLength: 1000 })),
          valid_at: T.Optional(Day),
          invalid_at: T.Optional(Day),
          negated: T.Optional(T.Boolean()),
          confidence: T.Optional(T.Number()),
        }),
        { maxItems: 500 },
      ),
    }),
    { maxItems: 64 },
  ),
});
type Answer = Static<typeof AnswerSchema>;
type AnswerMemory = Answer["memories"][number];

/** The JSON object inside a model's reply: reasoning blocks and markdown fences removed. */
export function unwrapJson(text: string): string {
  let body = text
    .replace(/<think>[\s\S]*?<\/think>/gi, "")
    .replace(/^[\s\S]*<\/think>/i, "")
    .trim();
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(body);
  if (fenced) body = fenced[1]!.trim();
  const first = body.indexOf("{");
  const last = body.lastIndexOf("}");
  return first >= 0 && last > first ? body.slice(first, last + 1) : body;
}

export function parseAnswer(text: string, ids: string[]): Map<string, AnswerMemory> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(unwrapJson(text));
  } catch {
    throw new AnswerError("the answer is not valid JSON");
  }
  if (!Value.Check(AnswerSchema, parsed)) {
    const first = [...Value.Errors(AnswerSchema, parsed)][0];
    throw new AnswerError(
      `the answer does not match the example's shape at ${first?.path || "/"}: ${first?.message ?? "invalid"}`,
    );
  }
  const byId = new Map(parsed.memories.map((m) => [m.id, m]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0)
    throw new AnswerError(`the answer leaves out memories ${missing.join(", ")}`);
  return byId;
}

function day(value: string | null | undefined): Date | null {
  if (!value) return null;
  const match = /^(\d{4})-(\d{2})(?:-(\d{2}))?/.exec(value.trim());
  if (!match) return null;
  return utcDay(Number(match[1]), Number(match[2]) - 1, Number(match[3] ?? 1));
}

const typeOf = (value: string): MemoType => {
  const upper = value.trim().toUpperCase();
  return isMemoType(upper) && upper !== "SUMMARY" ? upper : "CONCEPT";
};

const isUser = (name: string) =>
  ["user", "i", "me", "we", "the user"].includes(name.trim().toLowerCase());

/**
 * One memory's answer as the port's shape; returns the extraction and how many relations were
 * dropped.
 */
export function toExtraction(
  input: ExtractInput,
  answer: AnswerMemory,
  extractor: string,
): { extraction: MemoryExtraction; dropped: number } {
  const entities = new Map<string, ExtractedEntity>();
  const lowerContent = input.content.toLowerCase();
  const entity = (rawName: string, rawType?: string): ExtractedEntity => {
    const user = isUser(rawName);
    const name = user ? USER_ENTITY.name : rawName.trim();
    const type = user ? "PERSON" : typeOf(rawType ?? "CONCEPT");
    const key = normalizeName(name);
    const existing = entities.get(key);
    if (existing) return existing;
    const created: ExtractedEntity = { ref: `e${entities.size + 1}`, name, type };
    if (user) created.description = USER_ENTITY.description;
    const at = user ? -1 : lowerContent.indexOf(name.toLowerCase());
    if (at >= 0) created.span = [at, at + name.length];
    entities.set(key, created);
    return created;
  };
  for (const e of answer.entities)
    if (normalizeName(e.name) !== "") entity(e.name, e.type).description ??= e.description;
  const relations: ExtractedRelation[] = [];
  let dropped = 0;
  for (const r of answer.relations) {
    if (normalizeName(r.subject) === "" || normalizeName(r.object) === "") {
      dropped++;
      continue;
    }
    const subject = entity(r.subject);
    const object = entity(r.object);
    const canonical = canonicalRelation(r.relation, { subject: subject.type, object: object.type });
    if (!canonical || subject === object) {
      dropped++;
      continue;
    }
    const [s, o] = canonical.inverse ? [object, subject] : [subject, object];
    const negated = (r.negated ?? false) !== canonical.negated;
    relations.push({
      subject: s.ref,
      relation: canonical.relation,
      object: o.ref,
      fact: (
        r.fact ?? `${s.name} ${canonical.relation.toLowerCase().replaceAll("_", " ")} ${o.name}`
      ).slice(0, 1000),
      validAt: day(r.valid_at),
      invalidAt: day(r.invalid_at) ?? (negated ? input.referenceTime : null),
      confidence: Math.min(1, Math.max(0, r.confidence ?? 0.8)),
      ...(negated ? { negated } : {}),
    });
  }
  return {
    extraction: {
      memoryId: input.memoryId,
      version: input.version,
      extractor,
      entities: [...entities.values()],
      relations,
    },
    dropped,
  };
}
