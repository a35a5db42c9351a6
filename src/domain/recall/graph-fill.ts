// When AUTO sends a question to a graph strategy, the graph's answer comes first and LEXICAL fills the
// rest of top_k. A graph answer is short and precise (a relation, a path, a cited fact); alone it leaves
// most of top_k empty, and on the conversational benchmark AUTO's recall@10 fell from 0.768 to 0.732 once
// the turns were distilled (single-hop 1.000 → 0.975, below BM25; docs/benchmarks.md). A pinned graph
// strategy answers alone, as asked.
import type { Tx } from "../../data/pools";
import { strategyNamed } from "./registry";
import type { ConcreteStrategyName, RecallSearch, StrategyOutcome } from "./strategy";

const GRAPH_ANSWERS: ReadonlySet<ConcreteStrategyName> = new Set(["GRAPH", "TRIPLET", "TRACE", "ASK"]);

export async function fillGraphAnswer(tx: Tx, strategy: ConcreteStrategyName, search: RecallSearch, ran: StrategyOutcome): Promise<StrategyOutcome> {
  if (!GRAPH_ANSWERS.has(strategy) || ran.rows.length >= search.topK) return ran;
  const lexical = await strategyNamed("LEXICAL").run(tx, search, undefined);
  const seen = new Set(ran.rows.map((r) => r.memory_id));
  const more = lexical.rows.filter((r) => !seen.has(r.memory_id)).slice(0, search.topK - ran.rows.length);
  if (more.length === 0) return ran;
  const note = `${more.length} more result(s) from LEXICAL after the graph's answer`;
  return { ...ran, rows: [...ran.rows, ...more], note: ran.note ? `${ran.note}; ${note}` : note };
}
