// The baseline of ../shared/bench-data/README.md: plain Okapi BM25 (k1 1.2, b 0.75), lower case,
// English stop words removed, no stemming, over exactly the units the service stores, same run.

/** NLTK's English stop words (the common list); nothing else is normalised. */
const STOP_WORDS = new Set(
  `i me my myself we our ours ourselves you your yours yourself
  yourselves he him his himself she her hers herself it its itself they them their theirs
  themselves what which who whom this that these those am is are was were be been being have
  has had having do does did doing a an the and but if or because as until while of at by for
  with about against between into through during before after above below to from up down in
  out on off over under again further then once here there when where why how all any both each
  few more most other some such no nor not only own same so than too very s t can will just don
  should now d ll m o re ve y ain aren couldn didn doesn hadn hasn haven isn ma mightn mustn
  needn shan shouldn wasn weren won wouldn`.split(/\s+/),
);

export const plainTokens = (text: string): string[] =>
  (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !STOP_WORDS.has(w));

/** Indexes `documents`; the search returns the indexes of the top `k` (each query word once). */
export function plainBm25(documents: string[], k1 = 1.2, b = 0.75) {
  const docs = documents.map(plainTokens);
  const avg = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, docs.length);
  const postings = new Map<string, Array<[number, number]>>();
  docs.forEach((d, i) => {
    const tf = new Map<string, number>();
    for (const w of d) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const [w, f] of tf) postings.set(w, [...(postings.get(w) ?? []), [i, f]]);
  });
  return (query: string, k: number): number[] => {
    const scores = new Map<number, number>();
    for (const w of new Set(plainTokens(query))) {
      const list = postings.get(w);
      if (!list) continue;
      const idf = Math.log(1 + (docs.length - list.length + 0.5) / (list.length + 0.5));
      for (const [i, f] of list) {
        const norm = (f * (k1 + 1)) / (f + k1 * (1 - b + (b * docs[i]!.length) / avg));
        scores.set(i, (scores.get(i) ?? 0) + idf * norm);
      }
    }
    const ranked = [...scores.entries()].sort((x, y) => y[1] - x[1] || x[0] - y[0]);
    return ranked.slice(0, k).map(([i]) => i);
  };
}
