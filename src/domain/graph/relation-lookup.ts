// Looking a predicate up in the ontology: the built-in names first, then the synonym table (with
// crude base forms for LLM predicates), else its own UPPER_SNAKE lemma form, many-valued.
import type { MemoType } from "./memo-types";
import { DEFAULT_RELATION_TYPES } from "./relations";
import { RELATION_SYNONYMS } from "./relation-synonyms";

const UPPER_SNAKE = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * A predicate lemma ("work at", "moved-to") as a relation name ("WORK_AT", "MOVED_TO"), or null.
 */
export function toRelationName(predicate: string): string | null {
  const name = predicate
    .normalize("NFKC")
    .trim()
    .replace(/[^\p{L}\p{N}]+/gu, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
  return UPPER_SNAKE.test(name) ? name : null;
}

const INFLECTION = /(?:ies|ied|es|ed|s|ing)$/;

/**
 * The first word's crude base forms ("reports" → "report", "moved" → "move"), for LLM predicates.
 */
function baseForms(predicate: string): string[] {
  const [head, ...rest] = predicate.split("_");
  if (!head || !INFLECTION.test(head)) return [];
  const tail = rest.length ? `_${rest.join("_")}` : "";
  const stems = [
    head.replace(/ies$|ied$/, "y"),
    head.replace(/es$|ed$|s$|ing$/, ""),
    head.replace(/s$|d$/, ""),
    head.replace(/ing$/, "e"),
  ];
  return stems.filter((s) => s && s !== head).map((s) => s + tail);
}

/** `known`: the predicate is in the ontology or the synonym table (else it kept its lemma form). */
export type CanonicalRelation = {
  relation: string;
  inverse: boolean;
  negated: boolean;
  known: boolean;
};

/**
 * A predicate ("work_at", "Works for", "WORKS_AT") as a canonical relation, given the argument
 * types.
 */
export function canonicalRelation(
  predicate: string,
  types: { subject?: MemoType; object?: MemoType } = {},
): CanonicalRelation | null {
  const key = predicate
    .normalize("NFKC")
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  const upper = key.toUpperCase();
  if (Object.hasOwn(DEFAULT_RELATION_TYPES, upper))
    return { relation: upper, inverse: false, negated: false, known: true };
  for (const candidate of [key, ...baseForms(key)]) {
    const rules = Object.hasOwn(RELATION_SYNONYMS, candidate)
      ? RELATION_SYNONYMS[candidate]!
      : null;
    if (!rules) continue;
    // An unknown type (a proper name no word list knows) fits any rule: the rule then types it.
    const fits = (allowed: readonly MemoType[] | undefined, type: MemoType | undefined) =>
      !allowed || type === undefined || allowed.includes(type);
    const match = rules.find((r) => fits(r.subject, types.subject) && fits(r.object, types.object));
    if (match)
      return {
        relation: match.relation,
        inverse: match.inverse ?? false,
        negated: match.negated ?? false,
        known: true,
      };
  }
  const name = toRelationName(key);
  return name ? { relation: name, inverse: false, negated: false, known: false } : null;
}
