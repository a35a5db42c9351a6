// Safe tsquery text built from a user's words: only [letters digits] lexemes, so to_tsquery never
// sees an operator the user typed.
const SHORT_QUERY_WORDS = 4;

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Words not excluded with a leading "-" (websearch syntax), deduplicated, at most 32. */
export function includedWords(text: string): string[] {
  const kept = text
    .split(/\s+/)
    .filter((w) => !w.startsWith("-"))
    .join(" ");
  return [...new Set(wordsOf(kept))].slice(0, 32);
}

/** "deploy | database": any of the words, or null when there are none. */
export function orQueryOf(text: string): string | null {
  const words = includedWords(text);
  return words.length > 0 ? words.join(" | ") : null;
}

/**
 * Queries of at most four words count as short: they get a prefix query and the trigram fallback.
 */
export const isShortQuery = (text: string) => {
  const n = wordsOf(text).length;
  return n > 0 && n <= SHORT_QUERY_WORDS;
};

export const wordCount = (text: string) => wordsOf(text).length;

/**
 * "maria & lives:*": every word, the last one as a prefix, for short queries without websearch
 * syntax (quotes, "-word", "or"); null otherwise. Lexemes are [a-z0-9] only, so it is always valid.
 */
export function prefixQueryOf(text: string): string | null {
  if (!isShortQuery(text) || usesWebsearchOperators(text)) return null;
  const words = wordsOf(text);
  if (!words.every((w) => /^[a-z0-9]+$/.test(w))) return null;
  const last = words[words.length - 1]!;
  return last.length >= 2 ? [...words.slice(0, -1), `${last}:*`].join(" & ") : null;
}

/**
 * A quote, `or` between words or a `-word`: websearch_to_tsquery reads operators, not only words.
 */
export function usesWebsearchOperators(text: string): boolean {
  return /"|(^|\s)-\S|\sor\s/i.test(text);
}

/**
 * No websearch operator and no prefix query (`prefix`, when the caller has it already): every
 * lexeme of the text is required. ("or" elsewhere than between words is a stop word, so never
 * required.)
 */
export function everyLexemeRequired(text: string, prefix = prefixQueryOf(text)): boolean {
  return prefix === null && !usesWebsearchOperators(text);
}
