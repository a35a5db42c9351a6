// What distill accepts from an extractor (any extractor, an LLM's included): entities with a usable
// name and a known type, relations between two distinct known entities with a valid relation name,
// sane confidences and event times. Everything dropped is said in a warning, never silently.
import type { ExtractedEntity, ExtractedRelation, MemoryExtraction } from "../extract/types";
import { isMemoType, type MemoType } from "../../graph/memo-types";
import { normalizeName } from "../../graph/normalize";
import { toRelationName } from "../../graph/relation-lookup";

export const MAX_NAME_CHARS = 200;
export const MAX_FACT_CHARS = 1000;
const MAX_ALIASES = 16;
const RELATION = /^[A-Z][A-Z0-9_]{0,63}$/;
/** Written by refine's summarize pass only. */
const RESERVED_RELATIONS = new Set(["SUMMARIZES"]);

export type CleanEntity = {
  ref: string;
  name: string;
  normalized: string;
  type: MemoType;
  aliases: Array<{ name: string; normalized: string }>;
  description: string | null;
  ontologyUri: string | null;
  span: [number, number] | null;
};

export type CleanRelation = {
  subject: CleanEntity;
  relation: string;
  object: CleanEntity;
  fact: string;
  confidence: number;
  validAt: Date | null;
  invalidAt: Date | null;
  negated: boolean;
  span: [number, number] | null;
};

export type CleanExtraction = {
  entities: CleanEntity[];
  relations: CleanRelation[];
  warnings: string[];
};

const validDate = (d: Date | null | undefined): Date | null =>
  d instanceof Date && !Number.isNaN(d.getTime()) ? d : null;
const clamp01 = (n: number) => (Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0.5);
const cleanText = (s: unknown, max: number) =>
  typeof s === "string"
    ? s
        .replace(/\u0000/g, "")
        .replace(/\s+/g, " ")
        .trim()
        .slice(0, max)
    : "";
const cleanSpan = (span: unknown): [number, number] | null =>
  Array.isArray(span) &&
  span.length === 2 &&
  span.every((n) => Number.isInteger(n) && n >= 0 && n <= 2_000_000_000) &&
  span[0] <= span[1]
    ? [span[0], span[1]]
    : null;

function cleanEntity(e: ExtractedEntity, warnings: string[]): CleanEntity | null {
  const name = cleanText(e.name, MAX_NAME_CHARS);
  const normalized = normalizeName(name);
  if (!normalized) {
    warnings.push(`entity "${name.slice(0, 40)}" has no usable name; skipped`);
    return null;
  }
  let type: MemoType = "CONCEPT";
  if (typeof e.type === "string" && isMemoType(e.type) && e.type !== "SUMMARY") type = e.type;
  else
    warnings.push(
      `entity "${name.slice(0, 40)}" has type ${String(e.type).slice(0, 20)}; stored as CONCEPT`,
    );
  const aliases = (Array.isArray(e.aliases) ? e.aliases : [])
    .map((a) => cleanText(a, MAX_NAME_CHARS))
    .map((a) => ({ name: a, normalized: normalizeName(a) }))
    .filter((a) => a.normalized && a.normalized !== normalized)
    .slice(0, MAX_ALIASES);
  return {
    ref: String(e.ref),
    name,
    normalized,
    type,
    aliases,
    description: cleanText(e.description, MAX_FACT_CHARS) || null,
    ontologyUri: cleanText(e.ontologyUri, 500) || null,
    span: cleanSpan(e.span),
  };
}

function relationName(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const name = RELATION.test(raw) ? raw : toRelationName(raw);
  return name && !RESERVED_RELATIONS.has(name) ? name : null;
}

function cleanRelation(
  r: ExtractedRelation,
  byRef: Map<string, CleanEntity>,
  warnings: string[],
): CleanRelation | null {
  const subject = byRef.get(String(r.subject));
  const object = byRef.get(String(r.object));
  const relation = relationName(r.relation);
  if (!subject || !object || !relation) {
    warnings.push(
      `relation ${String(r.relation).slice(0, 40)} skipped: ${!relation ? "not a usable relation name" : "an endpoint is not a usable entity"}`,
    );
    return null;
  }
  if (subject.type === object.type && subject.normalized === object.normalized) return null;
  const validAt = validDate(r.validAt);
  let invalidAt = validDate(r.invalidAt);
  if (validAt && invalidAt && invalidAt < validAt) {
    warnings.push(`relation ${relation}: invalid_at before valid_at; the end was dropped`);
    invalidAt = null;
  }
  return {
    subject,
    relation,
    object,
    validAt,
    invalidAt,
    negated: r.negated === true,
    span: cleanSpan(r.span),
    fact:
      cleanText(r.fact, MAX_FACT_CHARS) ||
      `${subject.name} ${relation.toLowerCase().replace(/_/g, " ")} ${object.name}`,
    confidence: clamp01(r.confidence),
  };
}

export function cleanExtraction(result: MemoryExtraction): CleanExtraction {
  const warnings: string[] = [];
  const byRef = new Map<string, CleanEntity>();
  for (const raw of Array.isArray(result.entities) ? result.entities : []) {
    const entity = cleanEntity(raw, warnings);
    if (entity && !byRef.has(entity.ref)) byRef.set(entity.ref, entity);
  }
  const relations = (Array.isArray(result.relations) ? result.relations : []).flatMap(
    (r) => cleanRelation(r, byRef, warnings) ?? [],
  );
  return {
    entities: [...byRef.values()],
    relations,
    warnings: warnings.map((w) => `${result.memoryId}: ${w}`),
  };
}
