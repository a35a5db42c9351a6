// The offline embedder: deterministic signed feature hashing of stemmed words, word bigrams and
// character trigrams.
import type { EmbeddingProvider, EmbeddingResult } from "./port";
import { stemEnd, STOPWORD_HASHES, wordHash } from "./local-text";

// Weights chosen so a shared word outweighs a shared trigram, while trigrams still rescue typos and
// inflections.
const UNIGRAM_WEIGHT = 1.0;
const BIGRAM_WEIGHT = 0.7;
const TRIGRAM_WEIGHT = 0.35;
const BIGRAM_SEED = 0x9e3779b1;
const TRIGRAM_SEED = 0x85ebca6b;
const BOUNDARY = 0x5e; // '^' marks word edges so prefixes and suffixes get their own trigrams

/** murmur3 finaliser: spreads FNV output so `% dims` and the sign bit are independent. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function isWordChar(c: number): boolean {
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
  // Non-ASCII: letters of every script count as word characters; general and CJK punctuation do
  // not.
  return (
    !(c >= 0x2000 && c <= 0x206f) && !(c >= 0x3000 && c <= 0x303f) && c !== 0xa0 && c !== 0xfeff
  );
}

export function createLocalEmbedder(
  dimensions: number,
  model = `svc-local-hash-v1-${dimensions}`,
): EmbeddingProvider {
  const acc = new Float64Array(dimensions);

  function add(hash: number, weight: number): void {
    const h = mix(hash);
    acc[h % dimensions]! += h & 0x80000000 ? -weight : weight;
  }

  function embedOne(raw: string): number[] {
    acc.fill(0);
    const text = raw.toLowerCase();
    const n = text.length;
    let previous = -1;
    let i = 0;
    while (i < n) {
      while (i < n && !isWordChar(text.charCodeAt(i))) i++;
      const start = i;
      while (i < n && isWordChar(text.charCodeAt(i))) i++;
      if (i === start) break;

      const h = wordHash(text, start, stemEnd(text, start, i));
      if (STOPWORD_HASHES.has(h)) continue;
      // Character trigrams over "^word^" (unstemmed: they carry the spelling, stems carry the
      // meaning).
      let a = BOUNDARY;
      let b = text.charCodeAt(start);
      for (let j = start + 1; j <= i; j++) {
        const c = j < i ? text.charCodeAt(j) : BOUNDARY;
        add(
          (Math.imul(a, 0x01000193) ^ Math.imul(b, 0x5bd1e995) ^ c ^ TRIGRAM_SEED) >>> 0,
          TRIGRAM_WEIGHT,
        );
        a = b;
        b = c;
      }

      add(h, UNIGRAM_WEIGHT);
      if (previous !== -1)
        add((Math.imul(previous, 0x01000193) ^ h ^ BIGRAM_SEED) >>> 0, BIGRAM_WEIGHT);
      previous = h;
    }

    let norm = 0;
    for (let k = 0; k < dimensions; k++) norm += acc[k]! * acc[k]!;
    const out = new Array<number>(dimensions);
    if (norm === 0) {
      // Text without a single word character still gets a valid unit vector (cosine needs a
      // non-zero norm).
      out.fill(0);
      out[0] = 1;
      return out;
    }
    const scale = 1 / Math.sqrt(norm);
    for (let k = 0; k < dimensions; k++) out[k] = Math.fround(acc[k]! * scale);
    return out;
  }

  return {
    name: "local",
    model,
    dimensions,
    async embed(texts: string[]): Promise<EmbeddingResult> {
      let tokens = 0;
      const vectors = texts.map((text) => {
        tokens += Math.ceil(text.length / 4);
        return embedOne(text);
      });
      return { vectors, tokens };
    },
  };
}
