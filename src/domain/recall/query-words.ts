// Safe tsquery text built from a user's words: only [letters digits] lexemes, so to_tsquery never
// sees an operator the user typed.
const SHORT_QUERY_WORDS = 4;

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Words not excluded with a leading "-" (websearch syntax), deduplicated, at most 32. */
function includedWords(text: string): string[] {
  const kept = text.split(/\s+/).filter((w) => !w.startsWith("-")).join(" ");
  return [...new Set(wordsOf(kept))].slice(0, 32);
}

/** "deploy | database": any of the words, or null when there are none. */
export function orQueryOf(text: string): string | null {
  const words = includedWords(text);
  return words.length > 0 ? words.join(" | ") : null;
}

/** Queries of at most four words count as short: they get a prefix query and the trigram fallback. */
export const isShortQuery = (text: string) => { const n = wordsOf(text).length; return n > 0 && n <= SHORT_QUERY_WORDS; };

export const wordCount = (text: string) => wordsOf(text).length;

/** `word:*` on the last word of a short query, restricted to [a-z0-9] so it is always valid tsquery text. */
export function prefixQueryOf(text: string): string | null {
  if (!isShortQuery(text)) return null;
  const words = wordsOf(text);
  const last = words[words.length - 1]!;
  return /^[a-z0-9]{2,}$/.test(last) ? `${last}:*` : null;
}
