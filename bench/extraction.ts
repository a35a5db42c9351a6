// Extraction quality of the local extractor on the labelled set (bench/lib/extraction-set.ts), on
// demand: `node_modules/.bin/bun run bench/extraction.ts [--verbose]`. Prints strict triple
// precision, recall and F1 per category and overall, the loose (entity pair) recall, and event-time
// accuracy; --verbose lists every missed and every extra triple.
import { createLocalExtractor } from "../src/domain/forge/extract/local";
import { f1, precision, recall, scoreExtractor, type Tally } from "./lib/extraction-score";

const verbose = process.argv.includes("--verbose");
const extractor = createLocalExtractor();
const score = await scoreExtractor(extractor);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const row = (name: string, t: Tally) =>
  `| ${name} | ${t.gold} | ${t.predicted} | ${t.strict} | ${pct(precision(t))} | ${pct(recall(t))} | ${pct(f1(t))} | ${t.gold ? pct(t.loose / t.gold) : "—"} | ${t.dated ? `${t.datedRight}/${t.dated}` : "—"} |`;

const lines = [
  `Local extractor (${extractor.name}) on ${score.sentences} labelled sentences; ${(score.sentences / score.seconds).toFixed(0)} sentences/s in one batch`,
  "",
  "| category | gold | predicted | correct | precision | recall | F1 | loose recall | event times right |",
  "|---|---|---|---|---|---|---|---|---|",
  ...[...score.byCategory].map(([category, t]) => row(category, t)),
  row("**all**", score.total),
];
if (verbose)
  lines.push(
    "",
    "Missed:",
    ...score.misses.map((m) => `- ${m}`),
    "",
    "Extra:",
    ...score.extras.map((m) => `- ${m}`),
  );
console.log(lines.join("\n"));
