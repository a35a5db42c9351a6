// The weighted words of an any-word search (LEXICAL's second tier, TEMPORAL's ranking inside a window): the
// user's words at weight 1 and their WordNet relatives (expansion/wordnet.ts) at EXPANSION_WEIGHT.
import { expansionsOf } from "./expansion/wordnet";
import { includedWords } from "./query-words";

/**
 * Measured on bench/quality.ts (docs/benchmarks.md): 0.2 → paraphrase R@10 0.175, 0.5–0.7 → 0.225,
 * 1.0 → 0.225 but LEXICAL on the temporal questions drops from 0.688 to 0.469.
 */
const EXPANSION_WEIGHT = 0.7;

export type AnyWordTerms = { words: string[]; weights: number[]; expansions: number };

/** A quoted phrase or an excluded word ("-staging") asks for exact wording: no related words then. */
export function anyWordTermsOf(query: string): AnyWordTerms {
  const own = includedWords(query);
  const related = /"|(^|\s)-\S/.test(query) ? [] : expansionsOf(own);
  return { words: [...own, ...related], weights: [...own.map(() => 1), ...related.map(() => EXPANSION_WEIGHT)], expansions: related.length };
}
