// A seeded retrieval-quality set: facts, each with a paraphrased question (few shared words) and a
// keyword question, plus a BM25 baseline computed in-process over the same documents.
import { rng } from "./corpus";

const NAMES = [
  "Maria",
  "Kenji",
  "Amara",
  "Lukas",
  "Priya",
  "Tomas",
  "Fatima",
  "Oliver",
  "Ingrid",
  "Rafael",
  "Mei",
  "Jonas",
  "Aisha",
  "Pedro",
  "Sofia",
  "Dmitri",
  "Chloe",
  "Yusuf",
  "Hanna",
  "Mateo",
];
const PROJECTS = ["Falcon", "Nimbus", "Atlas", "Orion", "Beacon", "Harbor", "Quartz", "Vertex"];
const pickFrom = <T>(r: () => number, list: readonly T[]) => list[Math.floor(r() * list.length)]!;

type Template = (
  r: () => number,
  name: string,
  project: string,
) => { fact: string; paraphrase: string; keyword: string };

const TEMPLATES: Template[] = [
  (r, n) => {
    const v = pickFrom(r, ["Rust", "Haskell", "Elixir", "Kotlin", "OCaml", "Zig"]);
    return {
      fact: `${n}'s favourite programming language is ${v}.`,
      paraphrase: `Which coding language does ${n} like most?`,
      keyword: `${n} favourite programming language`,
    };
  },
  (r, n) => {
    const v = pickFrom(r, ["Lisbon", "Osaka", "Nairobi", "Tallinn", "Montreal", "Porto"]);
    return {
      fact: `${n} lives in ${v} with two cats.`,
      paraphrase: `Where is ${n}'s home?`,
      keyword: `${n} lives`,
    };
  },
  (r, n) => {
    const v = pickFrom(r, ["peanuts", "shellfish", "gluten", "sesame", "kiwi"]);
    return {
      fact: `${n} is allergic to ${v} and carries medication.`,
      paraphrase: `What food makes ${n} ill?`,
      keyword: `${n} allergic`,
    };
  },
  (r, n) => {
    const v = pickFrom(r, ["red", "blue", "green", "silver"]);
    const c = pickFrom(r, ["Volvo", "bicycle", "scooter", "Tesla"]);
    return {
      fact: `${n} commutes to the office on a ${v} ${c}.`,
      paraphrase: `How does ${n} travel to work?`,
      keyword: `${n} commutes office`,
    };
  },
  (r, n) => {
    const v = pickFrom(r, ["physics", "philosophy", "architecture", "biology", "economics"]);
    return {
      fact: `${n} studied ${v} at university before switching to software.`,
      paraphrase: `What was ${n}'s degree subject?`,
      keyword: `${n} studied university`,
    };
  },
  (_r, n, p) => ({
    fact: `${n} is the on-call owner for the ${p} ingestion pipeline.`,
    paraphrase: `Who should be paged when ${p} ingestion breaks?`,
    keyword: `${p} on-call owner`,
  }),
  (r, _n, p) => {
    const v = 3000 + Math.floor(r() * 6000);
    return {
      fact: `The ${p} service listens on port ${v} in staging.`,
      paraphrase: `On which port can I reach ${p} in the staging environment?`,
      keyword: `${p} port staging`,
    };
  },
  (r, _n, p) => {
    const v = pickFrom(r, ["January", "April", "July", "October"]);
    return {
      fact: `The ${p} project deadline was moved to the end of ${v}.`,
      paraphrase: `When does ${p} have to be finished now?`,
      keyword: `${p} deadline`,
    };
  },
];

export type QualityItem = { fact: string; paraphrase: string; keyword: string };

/** Unique (person or project, template) pairs, so each question has exactly one right fact. */
export function qualitySet(count = 60, seed = 2025): QualityItem[] {
  const r = rng(seed);
  const items: QualityItem[] = [];
  const used = new Set<string>();
  while (items.length < count) {
    const t = Math.floor(r() * TEMPLATES.length);
    const name = pickFrom(r, NAMES);
    const project = pickFrom(r, PROJECTS);
    const key = t >= 5 ? `${t}:${project}` : `${t}:${name}`;
    if (used.has(key)) continue;
    used.add(key);
    items.push(TEMPLATES[t]!(r, name, project));
  }
  return items;
}

const STOP = new Set(
  "a an and are as at be by does for from has have how i in is it its of on or should the to was what when where which who with can my now".split(
    " ",
  ),
);
/** The baseline's words: lower case, no stop words, a trailing "s" or "'s" dropped. */
export const tokens = (text: string) =>
  (text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
    .filter((w) => !STOP.has(w))
    .map((w) => w.replace(/(?:'s|s)$/, ""));

export type Bm25Index = {
  /** Each document's term frequencies. */
  tf: Array<Map<string, number>>;
  idf(word: string): number;
  /** Indexes of the top `k` documents for weighted query words. */
  search(query: Map<string, number>, k: number): number[];
};

/** Okapi BM25 (k1 = 1.2, b = 0.75) over the documents, queried with a weight per word. */
export function bm25Index(documents: string[]): Bm25Index {
  const docs = documents.map(tokens);
  const avg = docs.reduce((s, d) => s + d.length, 0) / docs.length;
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
  const tf = docs.map((d) => {
    const m = new Map<string, number>();
    for (const w of d) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  });
  const idf = (w: string) => {
    const n = df.get(w) ?? 0;
    return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
  };
  const search = (query: Map<string, number>, k: number) => {
    const scores = docs.map((d, i) => {
      let s = 0;
      for (const [w, weight] of query) {
        const f = tf[i]!.get(w) ?? 0;
        if (f > 0)
          s += (weight * idf(w) * (f * 2.2)) / (f + 1.2 * (1 - 0.75 + (0.75 * d.length) / avg));
      }
      return s;
    });
    return scores
      .map((s, i) => [s, i] as const)
      .filter(([s]) => s > 0)
      .sort((a, b) => b[0] - a[0] || a[1] - b[1])
      .slice(0, k)
      .map(([, i]) => i);
  };
  return { tf, idf, search };
}

/**
 * BM25 over the documents; returns the indexes of the top `k` for the query (each word once, weight
 * 1).
 */
export function bm25(documents: string[]): (query: string, k: number) => number[] {
  const index = bm25Index(documents);
  return (query, k) => index.search(new Map([...new Set(tokens(query))].map((w) => [w, 1])), k);
}
