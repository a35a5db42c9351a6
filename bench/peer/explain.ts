// How PostgreSQL runs mem0's pgvector search, read from EXPLAIN on the peer's own table after its
// run. The statement has the shape of mem0ai 3.3.1's PGVector.search (dist/oss,
// src/oss/src/vector_stores/pgvector.ts): cosine distance, the session filter as
// `payload->>'agent_id' = $3`, ORDER BY distance LIMIT $2, where memory.search asks for max(4 ×
// topK, 60) rows.
import postgres from "postgres";

export type PeerPlan = {
  scan: string;
  index?: string;
  estimatedRows: number;
  matchedRows: number;
  ms: number;
};

type PlanNode = {
  "Node Type": string;
  "Index Name"?: string;
  "Relation Name"?: string;
  "Plan Rows": number;
  "Actual Rows": number;
  Plans?: PlanNode[];
};

function scanOf(node: PlanNode): PlanNode | undefined {
  if (node["Relation Name"] === "bench") return node;
  for (const child of node.Plans ?? []) {
    const found = scanOf(child);
    if (found) return found;
  }
  return undefined;
}

export async function explainPeerSearch(url: string): Promise<PeerPlan> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<
      { v: string; agent: string }[]
    >`SELECT vector::text AS v, payload->>'agent_id' AS agent FROM bench LIMIT 1`;
    if (!row) throw new Error("mem0's bench table is empty");
    const [explained] = await sql.unsafe(
      `EXPLAIN (ANALYZE, FORMAT JSON) SELECT id, vector <=> $1::vector AS distance, payload FROM bench WHERE payload->>'agent_id' = $3 ORDER BY distance LIMIT $2`,
      [row.v, 60, row.agent],
    );
    const plan = (explained!["QUERY PLAN"] as { Plan: PlanNode; "Execution Time": number }[])[0]!;
    const scan = scanOf(plan.Plan);
    if (!scan) throw new Error("no scan of mem0's bench table in the plan");
    return {
      scan: scan["Node Type"],
      index: scan["Index Name"],
      estimatedRows: scan["Plan Rows"],
      matchedRows: scan["Actual Rows"],
      ms: plan["Execution Time"],
    };
  } finally {
    await sql.end();
  }
}
