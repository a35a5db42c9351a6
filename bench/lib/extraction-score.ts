// Scores an extractor on the labelled set: triple precision and recall (strict: subject, relation,
// negation and object all equal after name normalisation; loose: the same two entities in either
// order, any relation), per category and overall, plus how many gold event times a matched triple
// got right.
import type { Extractor, MemoryExtraction } from "../../src/domain/forge/extract/types";
import { normalizeName } from "../../src/domain/graph/normalize";
import { EXTRACTION_REFERENCE_TIME, EXTRACTION_SET, type Category } from "./extraction-set";

type Triple = {
  s: string;
  rel: string;
  neg: boolean;
  o: string;
  valid?: string;
  invalid?: string;
  text: string;
};
export type Tally = {
  gold: number;
  predicted: number;
  strict: number;
  loose: number;
  dated: number;
  datedRight: number;
};
export type ExtractionScore = {
  sentences: number;
  byCategory: Map<Category, Tally>;
  total: Tally;
  misses: string[];
  extras: string[];
  seconds: number;
};

const GOLD = /^(.+?) -(!?)([A-Z_]+)-> (.+?)(?: @(\d{4}-\d{2}-\d{2}))?(?: ~(\d{4}-\d{2}-\d{2}))?$/;

function parseGold(text: string): Triple {
  const m = GOLD.exec(text);
  if (!m) throw new Error(`bad gold triple: ${text}`);
  return {
    s: normalizeName(m[1]!),
    neg: m[2] === "!",
    rel: m[3]!,
    o: normalizeName(m[4]!),
    valid: m[5],
    invalid: m[6],
    text,
  };
}

const day = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 10) : undefined);

function predicted(result: MemoryExtraction): Triple[] {
  const byRef = new Map(result.entities.map((e) => [e.ref, e.name]));
  return result.relations.map((r) => {
    const s = byRef.get(r.subject)!;
    const o = byRef.get(r.object)!;
    const text = `${s} -${r.negated ? "!" : ""}${r.relation}-> ${o}`;
    return {
      s: normalizeName(s),
      rel: r.relation,
      neg: r.negated ?? false,
      o: normalizeName(o),
      valid: day(r.validAt),
      invalid: day(r.invalidAt),
      text,
    };
  });
}

const strictKey = (t: Triple) => `${t.s}|${t.neg ? "!" : ""}${t.rel}|${t.o}`;
const pairKey = (t: Triple) => [t.s, t.o].sort().join("|");
const zero = (): Tally => ({ gold: 0, predicted: 0, strict: 0, loose: 0, dated: 0, datedRight: 0 });

function add(into: Tally, from: Tally): void {
  for (const k of Object.keys(into) as Array<keyof Tally>) into[k] += from[k];
}

export async function scoreExtractor(extractor: Extractor): Promise<ExtractionScore> {
  const byCategory = new Map<Category, Tally>();
  const total = zero();
  const misses: string[] = [];
  const extras: string[] = [];
  const started = performance.now();
  const { results } = await extractor.extract(
    EXTRACTION_SET.map((s, i) => ({
      memoryId: `mem_${i}`,
      version: 1,
      agentId: "bench",
      content: s.text,
      metadata: {},
      referenceTime: EXTRACTION_REFERENCE_TIME,
    })),
    { orgId: "org_bench" },
  );
  const seconds = (performance.now() - started) / 1000;
  EXTRACTION_SET.forEach((sentence, i) => {
    const gold = sentence.gold.map(parseGold);
    const got = predicted(results.find((r) => r.memoryId === `mem_${i}`)!);
    const tally = zero();
    tally.gold = gold.length;
    tally.predicted = got.length;
    const strict = new Map(got.map((t) => [strictKey(t), t]));
    const pairs = new Set(got.map(pairKey));
    for (const g of gold) {
      const hit = strict.get(strictKey(g));
      if (hit) {
        tally.strict++;
        if (g.valid || g.invalid) {
          tally.dated++;
          if (hit.valid === g.valid && hit.invalid === g.invalid) tally.datedRight++;
          else
            misses.push(
              `${sentence.text}  →  event time of ${g.text}: got ${hit.valid ? `@${hit.valid}` : ""}${hit.invalid ? ` ~${hit.invalid}` : ""}`,
            );
        }
      } else misses.push(`${sentence.text}  →  missed ${g.text}`);
      if (pairs.has(pairKey(g))) tally.loose++;
    }
    const goldKeys = new Set(gold.map(strictKey));
    for (const t of got)
      if (!goldKeys.has(strictKey(t))) extras.push(`${sentence.text}  →  extra ${t.text}`);
    const bucket = byCategory.get(sentence.category) ?? zero();
    add(bucket, tally);
    byCategory.set(sentence.category, bucket);
    add(total, tally);
  });
  return { sentences: EXTRACTION_SET.length, byCategory, total, misses, extras, seconds };
}

export const precision = (t: Tally) => (t.predicted === 0 ? 1 : t.strict / t.predicted);
export const recall = (t: Tally) => (t.gold === 0 ? 1 : t.strict / t.gold);
export const f1 = (t: Tally) => {
  const p = precision(t);
  const r = recall(t);
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
};
