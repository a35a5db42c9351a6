// Allocation-free text helpers for the local embedder: light suffix stemming and FNV-1a hashing
// over a slice.

/**
 * End index of the stem of text[start, end) (lowercase). Porter-step-1-like: plural -s/-es, -ing,
 * -ed, -ly, a final silent e, and an undoubled final consonant, so "running", "runs" and "run"
 * share a stem. A final y is folded to i by wordHash, which makes "policy" and "policies" meet at
 * "polici".
 */
export function stemEnd(text: string, start: number, end: number): number {
  const at = (k: number) => text.charCodeAt(end - k);
  const S = 0x73,
    E = 0x65,
    D = 0x64,
    I = 0x69,
    N = 0x6e,
    G = 0x67,
    L = 0x6c,
    Y = 0x79,
    U = 0x75,
    Z = 0x7a;
  if (end - start < 4) return end;
  if (at(1) === S && at(2) !== S && at(2) !== U && at(2) !== I) {
    end -= at(2) === E && at(3) === I ? 2 : 1;
  }
  let stripped = false;
  if (end - start >= 6 && at(1) === G && at(2) === N && at(3) === I) {
    end -= 3;
    stripped = true;
  } else if (end - start >= 5 && at(1) === D && at(2) === E) {
    end -= 2;
    stripped = true;
  } else if (end - start >= 6 && at(1) === Y && at(2) === L) {
    end -= 2;
  }
  if (
    stripped &&
    end - start >= 3 &&
    at(1) === at(2) &&
    at(1) !== L &&
    at(1) !== S &&
    at(1) !== Z &&
    isConsonant(at(1))
  )
    end -= 1;
  if (end - start >= 4 && at(1) === E) end -= 1;
  return end;
}

function isConsonant(c: number): boolean {
  return (
    c >= 0x61 && c <= 0x7a && c !== 0x61 && c !== 0x65 && c !== 0x69 && c !== 0x6f && c !== 0x75
  );
}

/** FNV-1a over text[start, end), with a final "y" hashed as "i" (see stemEnd). */
export function wordHash(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let k = start; k < end; k++) {
    const c = k === end - 1 && text.charCodeAt(k) === 0x79 ? 0x69 : text.charCodeAt(k);
    h = Math.imul(h ^ c, 0x01000193);
  }
  return h >>> 0;
}

const STOPWORDS =
  "a an the and or but of to in on at for with by from as is are was were be been being it its this that these those " +
  "i me my we our you your he she they them their his her do does did so than then there here what which who whom";

/**
 * Hashes of stemmed stopwords: they carry no topic, so they are dropped from unigrams and bigrams.
 */
export const STOPWORD_HASHES: ReadonlySet<number> = new Set(
  STOPWORDS.split(" ").map((word) => wordHash(word, 0, stemEnd(word, 0, word.length))),
);
