// The local extractor on the labelled set (bench/lib/extraction-set.ts): the set is big enough and
// covers every category, and quality does not fall below the floor measured when the set was
// written (bench/extraction.ts prints the figures; docs/benchmarks.md records them). A rule change
// that loses facts fails here.
import { expect, test } from "bun:test";
import { EXTRACTION_SET } from "../../../bench/lib/extraction-set";
import { precision, recall, scoreExtractor } from "../../../bench/lib/extraction-score";
import { createLocalExtractor } from "../../../src/domain/forge/extract/local";

test("the labelled set has at least 100 sentences in every category, with gold triples", () => {
  expect(EXTRACTION_SET.length).toBeGreaterThanOrEqual(100);
  const categories = new Map<string, number>();
  for (const s of EXTRACTION_SET) categories.set(s.category, (categories.get(s.category) ?? 0) + 1);
  expect([...categories.keys()].sort()).toEqual([
    "code",
    "dated events",
    "no fact",
    "organisations",
    "people",
    "places",
    "tools",
  ]);
  for (const [category, n] of categories)
    expect(n, category).toBeGreaterThanOrEqual(category === "no fact" ? 5 : 15);
  expect(EXTRACTION_SET.reduce((n, s) => n + s.gold.length, 0)).toBeGreaterThanOrEqual(110);
});

test("the local extractor keeps precision ≥ 0.95 and recall ≥ 0.9, dates every dated fact right, and invents nothing from chit-chat", async () => {
  const score = await scoreExtractor(createLocalExtractor());
  expect(score.byCategory.get("no fact")!.predicted).toBe(0);
  expect(precision(score.total), score.extras.join("\n")).toBeGreaterThanOrEqual(0.95);
  expect(recall(score.total), score.misses.join("\n")).toBeGreaterThanOrEqual(0.9);
  expect(score.total.datedRight).toBe(score.total.dated);
});
