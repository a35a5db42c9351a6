// Query expansion from WordNet (packed by scripts/pack-wordnet.ts): the synonyms and hyponyms of a
// query's words, so "purchase" also finds "bought" and "dog" finds "puppy". LEXICAL's any-word tier
// adds them at a lower weight than the user's own words.
import { ownValue } from "../../../lib/own-key";
import table from "./wordnet-table.json";

const related = table as Record<string, string>;
/** Bounds the any-word query: every term costs one match per scanned memory. */
const MAX_EXPANSIONS = 32;

/**
 * WordNet's detachment rules (morphy): the lemmas an inflected word may come from, the word itself
 * first.
 */
function lemmasOf(word: string): string[] {
  const candidates = [word];
  for (const [suffix, ending] of [
    ["ies", "y"],
    ["es", ""],
    ["s", ""],
    ["ing", ""],
    ["ing", "e"],
    ["ed", ""],
    ["ed", "e"],
    ["er", ""],
    ["ers", ""],
  ] as const) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix))
      candidates.push(word.slice(0, -suffix.length) + ending);
  }
  return candidates;
}

/** The related words of `words` (lowercase; the table keeps the nearest 12 per lemma), none of them
 * among
 * `words`, at most MAX_EXPANSIONS in all. */
export function expansionsOf(words: string[]): string[] {
  const own = new Set(words);
  const found = new Set<string>();
  for (const word of words) {
    // The query's words are the caller's: "constructor" or "__proto__" must find nothing.
    const entry = lemmasOf(word)
      .map((l) => ownValue(related, l))
      .find((e) => e !== undefined);
    if (entry === undefined) continue;
    for (const w of entry.split(" ")) if (!own.has(w)) found.add(w);
  }
  return [...found].slice(0, MAX_EXPANSIONS);
}
