// Stage 5, after the transaction: the response. Exactly the response's fields per result (a
// strategy's working columns never leave), redaction of results, neighbours and graph evidence, the
// optional LLM rerank, and the summary fields.
import type { LlmProvider } from "../../../providers/llm/port";
import type { Actor } from "../../actor";
import { fusionSummary, type FusedRow } from "../fusion";
import { redactGraphEvidence } from "../graph-redaction";
import { withNeighbours, type Neighbours } from "../neighbours";
import { redactJson, redactText } from "../redaction";
import { rerankResults } from "../rerank";
import type { Fused } from "./fuse";
import type { Retrieved } from "./retrieve";
import type { RecallOutcome, RecallPlan, RecallResult } from "./types";

function resultOf(row: FusedRow): RecallResult {
  return {
    memory_id: row.memory_id,
    version: row.version,
    agent_id: row.agent_id,
    content: row.content,
    memory_type: row.memory_type,
    metadata: row.metadata,
    importance: row.importance,
    dataset_id: row.dataset_id,
    created_at: row.created_at,
    occurred_at: row.occurred_at,
    valid_from: row.valid_from,
    expires_at: row.expires_at,
    score: row.score,
    retrievers: row.retrievers,
    ...(row.graph ? { graph: row.graph } : {}),
  };
}

function redacted(
  rows: FusedRow[],
  redact: boolean,
): { results: RecallResult[]; redactions: number } {
  let redactions = 0;
  const results = rows.map((row) => {
    const result = resultOf(row);
    if (!redact) return result;
    const content = redactText(result.content);
    const metadata = redactJson(result.metadata);
    redactions += content.count + metadata.count;
    return { ...result, content: content.value, metadata: metadata.value };
  });
  return { results, redactions };
}

export type Presentable = {
  plan: RecallPlan;
  retrieved: Retrieved;
  fused: Fused;
  neighbours: Neighbours | null;
};

export async function present(
  deps: { llm: LlmProvider; config: { RETRIEVAL_REDACTION_ENABLED: boolean } },
  actor: Actor,
  p: Presentable,
): Promise<RecallOutcome> {
  const { plan, retrieved, fused } = p;
  const redact = deps.config.RETRIEVAL_REDACTION_ENABLED;
  const plain = redacted(fused.rows, redact);
  const context = p.neighbours ? withNeighbours(plain.results, p.neighbours, redact) : null;
  const presented = context?.results ?? plain.results;
  const reranked = plan.input.rerank
    ? await rerankResults(deps.llm, actor.orgId, plan.input.query, presented)
    : null;
  const graph =
    retrieved.graph && redact
      ? redactGraphEvidence(retrieved.graph)
      : retrieved.graph
        ? { value: retrieved.graph, count: 0 }
        : null;
  const note = [...retrieved.notes, reranked?.note].filter(Boolean).join("; ") || null;
  const routing = retrieved.entityReason
    ? { ...plan.routing, reason: `${plan.routing.reason}; graph: ${retrieved.entityReason}` }
    : plan.routing;
  const summary = plan.fusion
    ? fusionSummary(plan.fusion)
    : plan.auto
      ? { strategies: retrieved.lists.map((l) => l.name), k: plan.auto.k }
      : null;
  return {
    results: reranked?.results ?? presented,
    strategy: fused.strategy,
    routing,
    window: retrieved.window,
    note,
    top_k: plan.topK,
    redactions: plain.redactions + (context?.redactions ?? 0) + (graph?.count ?? 0),
    ...(graph ? { graph: graph.value } : {}),
    ...(summary ? { fusion: summary } : {}),
  };
}
