// `bun run bench/quality-prf.ts`: does pseudo-relevance feedback help on the conversational set?
// In-process, deterministic: BM25 over each persona's turns, then RM3-style feedback (the top
// `docs` results' words weighted by tf·idf, the best `terms` of them added to the query at
// `weight`), against BM25 alone in the same run. Prints recall@10 per category, overall recall@10
// and MRR per setting (docs/benchmarks.md).
import { bm25Index, tokens } from "./lib/quality-set";
import { CATEGORIES, dialogueSet, type Category } from "./lib/dialogues";
import { mean, score, type Scores } from "./lib/retrieval-metrics";

const SETTINGS = [
  { docs: 0, terms: 0, weight: 0 },
  { docs: 1, terms: 5, weight: 0.3 },
  { docs: 2, terms: 5, weight: 0.5 },
  { docs: 3, terms: 5, weight: 0.15 },
  { docs: 3, terms: 5, weight: 0.3 },
  { docs: 3, terms: 10, weight: 0.3 },
  { docs: 5, terms: 10, weight: 0.2 },
  { docs: 5, terms: 20, weight: 0.1 },
];
const TOP_K = 10;
const set = dialogueSet({ personas: 4, seed: 2026 });

console.log(
  "| feedback (docs, terms, weight) | " +
    CATEGORIES.map((c) => `${c} R@10`).join(" | ") +
    " | overall R@10 | MRR |",
);
console.log("|---|" + CATEGORIES.map(() => "---:").join("|") + "|---:|---:|");
for (const setting of SETTINGS) {
  const byCategory = new Map<Category, Scores[]>();
  for (const persona of set.personas) {
    const turns = set.turns.filter((t) => t.persona === persona);
    const index = bm25Index(turns.map((t) => t.content));
    for (const q of set.questions.filter((q) => q.persona === persona)) {
      const query = new Map([...new Set(tokens(q.question))].map((w) => [w, 1]));
      let ranked = index.search(query, TOP_K);
      if (setting.docs > 0) {
        const feedback = new Map<string, number>();
        for (const i of ranked.slice(0, setting.docs)) {
          for (const [w, f] of index.tf[i]!)
            if (!query.has(w)) feedback.set(w, (feedback.get(w) ?? 0) + f * index.idf(w));
        }
        const expanded = new Map(query);
        for (const [w] of [...feedback]
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
          .slice(0, setting.terms))
          expanded.set(w, setting.weight);
        ranked = index.search(expanded, TOP_K);
      }
      byCategory.set(q.category, [
        ...(byCategory.get(q.category) ?? []),
        score(
          ranked.map((i) => turns[i]!.id),
          q.evidence,
        ),
      ]);
    }
  }
  const overall = mean([...byCategory.values()].flat());
  const name =
    setting.docs === 0
      ? "none (BM25 alone)"
      : `${setting.docs}, ${setting.terms}, ${setting.weight}`;
  console.log(
    `| ${name} | ${CATEGORIES.map((c) => mean(byCategory.get(c)!).recall10.toFixed(3)).join(" | ")} | ${overall.recall10.toFixed(3)} | ${overall.mrr.toFixed(3)} |`,
  );
}
