// The quality benchmark's set and metrics (bench/quality.ts) must be trustworthy: every question's
// evidence is a real user turn that says what the question asks, temporal evidence sits in the
// month the question names, the same seed gives the same set, and the metrics give the textbook
// values on hand-made rankings.
import { expect, test } from "bun:test";
import { dialogueSet } from "../../bench/lib/dialogues";
import {
  ndcgAt,
  recallAt,
  reciprocalRank,
  reciprocalRankFusion,
} from "../../bench/lib/retrieval-metrics";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

test("every question's evidence is a user turn of its persona, in the month a temporal question names", () => {
  const set = dialogueSet();
  const turns = new Map(set.turns.map((t) => [t.id, t]));
  expect(set.turns.length).toBeGreaterThan(2000);
  expect(new Set(set.questions.map((q) => q.category))).toEqual(
    new Set(["single-hop", "paraphrase", "temporal", "multi-hop"]),
  );
  for (const q of set.questions) {
    expect(q.evidence.length).toBe(q.category === "multi-hop" ? 2 : 1);
    for (const id of q.evidence) {
      const turn = turns.get(id);
      expect(turn?.persona).toBe(q.persona);
      expect(turn?.role).toBe("user");
    }
    if (q.category === "temporal") {
      const when = new Date(turns.get(q.evidence[0]!)!.occurredAt);
      expect(q.question).toContain(`${MONTHS[when.getUTCMonth()]} ${when.getUTCFullYear()}`);
    }
  }
  // Temporal questions are only answerable by date: the topic recurs in many other turns of the
  // same persona.
  const temporal = set.questions.find((q) => q.category === "temporal")!;
  const topicWord = temporal.question.includes("hiking") ? "hiking" : "restaurant";
  expect(
    set.turns.filter((t) => t.persona === temporal.persona && t.content.includes(topicWord)).length,
  ).toBeGreaterThanOrEqual(10);
});

test("the same seed gives the same set; another seed another one", () => {
  expect(dialogueSet({ personas: 1 })).toEqual(dialogueSet({ personas: 1 }));
  expect(dialogueSet({ personas: 1, seed: 7 }).turns.map((t) => t.content)).not.toEqual(
    dialogueSet({ personas: 1 }).turns.map((t) => t.content),
  );
});

test("metrics on hand-made rankings", () => {
  expect(recallAt(["a", "b", "c"], ["c", "z"], 2)).toBe(0);
  expect(recallAt(["a", "b", "c"], ["c", "z"], 3)).toBe(0.5);
  expect(reciprocalRank(["a", "b", "c"], ["b"])).toBe(0.5);
  expect(reciprocalRank(["a"], ["b"])).toBe(0);
  expect(ndcgAt(["x", "a"], ["a"], 10)).toBeCloseTo(1 / Math.log2(3), 10);
  expect(ndcgAt(["a", "x"], ["a"], 10)).toBe(1);
  expect(
    reciprocalRankFusion([
      ["a", "b"],
      ["b", "c"],
    ]),
  ).toEqual(["b", "a", "c"]);
});
