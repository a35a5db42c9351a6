// The weighted words of BM25 (LEXICAL; TEMPORAL's ranking inside a window): the user's words at
// weight 1, as typed (case and underscores kept: the database splits camelCase and snake_case
// identifiers, and keeps them whole too, as it does for documents: sql/0430), and for TEMPORAL
// their WordNet relatives (expansion/wordnet.ts) at EXPANSION_WEIGHT; code's names for the words
// at low weights: a word's short form (str for string) and two neighbouring words joined
// (filename for "file name").
import { abbreviationsOf } from "./expansion/code-abbreviations";
import { expansionsOf } from "./expansion/wordnet";
import { includedWords } from "./query-words";

/**
 * Measured on bench/quality.ts (docs/benchmarks.md): 0.2 → paraphrase R@10 0.175, 0.5–0.7 → 0.225,
 * 1.0 → 0.225 but LEXICAL on the temporal questions drops from 0.688 to 0.469.
 */
const EXPANSION_WEIGHT = 0.7;
/**
 * A word's short or long form in code (expansion/code-abbreviations.ts). Chosen on CoSQA's even
 * questions (docs/benchmarks.md, "Identifier-aware query words"): 0.2, 0.3 and 0.5 give AUTO R@10
 * 0.572, 0.576 and 0.568 (0.560 without); SciFact does not move.
 */
const ABBREVIATION_WEIGHT = 0.3;
/**
 * Two neighbouring words written as one identifier ("file name" → filename, "is iterable" →
 * is_iterable's whole form, sql/0430). 0.3 and 0.6 give CoSQA's even questions 0.588 and 0.584.
 */
const JOINED_WEIGHT = 0.3;

/** As includedWords: a query's words beyond these add little and cost a postings read each. */
const MAX_WORDS = 32;

/** Each pair of neighbouring letter words, joined: how code names a two-word idea. */
function joinedPairs(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}]+/gu) ?? [];
  const pairs = new Set<string>();
  for (let i = 1; i < words.length; i++) pairs.add(words[i - 1]! + words[i]!);
  return [...pairs].slice(0, MAX_WORDS);
}

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
  const exact = /"|(^|\s)-\S/.test(query);
  const wanted = options.related !== false && !exact;
  const related = wanted ? expansionsOf(includedWords(query)) : [];
  const short = exact
    ? []
    : abbreviationsOf(includedWords(query)).filter((w) => !related.includes(w));
  const joined = exact ? [] : joinedPairs(query);
  return {
    words: [...own, ...related, ...short, ...joined],
    weights: [
      ...own.map(() => 1),
      ...related.map(() => EXPANSION_WEIGHT),
      ...short.map(() => ABBREVIATION_WEIGHT),
      ...joined.map(() => JOINED_WEIGHT),
    ],
    expansions: related.length,
  };
}
