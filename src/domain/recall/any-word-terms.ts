// The weighted words of BM25 (LEXICAL; TEMPORAL's ranking inside a window): the user's words at
// weight 1, as typed (case and underscores kept: the database splits camelCase and snake_case
// identifiers, and keeps them whole too, as it does for documents: sql/0430), and for TEMPORAL
// their WordNet relatives (expansion/wordnet.ts) at EXPANSION_WEIGHT.
import { expansionsOf } from "./expansion/wordnet";
import { includedWords } from "./query-words";

/**
 * Measured on bench/quality.ts (docs/benchmarks.md): 0.2 → paraphrase R@10 0.175, 0.5–0.7 → 0.225,
 * 1.0 → 0.225 but LEXICAL on the temporal questions drops from 0.688 to 0.469.
 */
const EXPANSION_WEIGHT = 0.7;
/** As includedWords: a query's words beyond these add little and cost a postings read each. */
const MAX_WORDS = 32;

export type AnyWordTerms = { words: string[]; weights: number[]; expansions: number };

/** Whitespace-separated tokens not excluded with a leading "-", as typed, deduplicated. */
function ownTokens(query: string): string[] {
  const tokens = query
    .split(/\s+/)
    .filter((w) => w !== "" && !w.startsWith("-") && /[\p{L}\p{N}]/u.test(w));
  return [...new Set(tokens)].slice(0, MAX_WORDS);
}

/**
 * `related: false` leaves WordNet out: LEXICAL ranks the words typed (on the public sets related
 * words cost it 0.02–0.07 of R@10 and nDCG@10: docs/benchmarks.md, "LEXICAL as BM25"). A quoted
 * phrase or an excluded word ("-staging") asks for exact wording: no related words then either.
 */
export function anyWordTermsOf(query: string, options: { related?: boolean } = {}): AnyWordTerms {
  const own = ownTokens(query);
  const wanted = options.related !== false && !/"|(^|\s)-\S/.test(query);
  const related = wanted ? expansionsOf(includedWords(query)) : [];
  return {
    words: [...own, ...related],
    weights: [...own.map(() => 1), ...related.map(() => EXPANSION_WEIGHT)],
    expansions: related.length,
  };
}
