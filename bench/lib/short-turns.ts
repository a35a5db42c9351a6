// Seeded short chat turns ("Mira: the new garden looks great after rain"): 4 to 12 words drawn from
// a Zipf-distributed vocabulary, so most turns share a few frequent words and a rare one or two, as
// real conversation does. The same seed gives the same turns on every machine.
import { rng } from "./corpus";

const SPEAKERS = ["Mira", "Tom", "Ada", "Kofi", "Lin", "Raul"];
const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ren",
  "to",
  "sa",
  "vel",
  "do",
  "ri",
  "pan",
  "ne",
  "gu",
  "ser",
  "a",
  "bi",
  "mon",
  "tra",
  "e",
  "lu",
  "fin",
];
const VOCABULARY = 4000;

/** Word r of the vocabulary: a pronounceable pseudo-word, distinct per rank. */
function word(rank: number): string {
  let out = "";
  let n = rank + SYLLABLES.length;
  while (n > 0) {
    out += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return out;
}

const WORDS = Array.from({ length: VOCABULARY }, (_, r) => word(r));
// Cumulative Zipf weights (exponent 1): rank r is drawn with probability ∝ 1 / (r + 1).
const CUMULATIVE = (() => {
  const c = new Float64Array(VOCABULARY);
  let sum = 0;
  for (let r = 0; r < VOCABULARY; r++) c[r] = sum += 1 / (r + 1);
  return c.map((v) => v / sum);
})();

function zipfWord(random: () => number): string {
  const u = random();
  let lo = 0;
  let hi = VOCABULARY - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUMULATIVE[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return WORDS[lo]!;
}

export function shortTurns(count: number, seed: number): string[] {
  const random = rng(seed);
  return Array.from({ length: count }, () => {
    const length = 4 + Math.floor(random() * 9);
    const words = Array.from({ length }, () => zipfWord(random));
    return `${SPEAKERS[Math.floor(random() * SPEAKERS.length)]}: ${words.join(" ")}`;
  });
}
