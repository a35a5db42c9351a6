// GET /v1/graph/data: a viewer-ready subgraph of one agent (cytoscape-style nodes and edges with
// both timelines and provenance). Whole graph: the most mentioned memos and the edges among them.
// `around` a memo (id, or a name/alias): a bounded walk of `depth` hops. Capped at 500 nodes /
// 2,000 edges.
import type { Ports } from "../ports/ports";
import { edgesAmong, liveMemosById, topMemos, type NodeRow } from "../../data/queries/graph/data";
import { findLiveMemos, findMemosByNames } from "../../data/queries/graph/memos";
import {
  edgeSources,
  memoSources,
  type EdgeRow,
  type EdgeTimeView,
  type SourceRow,
} from "../../data/queries/graph/read";
import { limitRecallTransaction } from "../../data/queries/recall/common";
import { heavyWork } from "../../data/tenant-share";
import { withTenantRead } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { validationFailed, type FieldProblem } from "../../lib/errors";
import { looksLikeId } from "../../lib/ids";
import { isMemoType } from "./memo-types";
import { normalizeName } from "./normalize";
import { presentGraph, type GraphDataResponse } from "./graph-data-present";
import { walk } from "./walk";

export const GRAPH_DATA_MAX_NODES = 500;
export const GRAPH_DATA_MAX_EDGES = 2000;
export const GRAPH_DATA_DEFAULT_NODES = 200;
const SOURCES_PER_NODE = 5;

export type GraphDataQuery = {
  agentId: string;
  memoType?: string;
  around?: string;
  depth?: number;
  asOf?: Date;
  includeExpired?: boolean;
  limit?: number;
};

function check(q: GraphDataQuery, maxHops: number): void {
  const problems: FieldProblem[] = [];
  if (q.agentId.includes("\u0000"))
    problems.push({ path: "agent_id", message: "must not contain the NUL character (U+0000)" });
  if (q.around?.includes("\u0000"))
    problems.push({ path: "around", message: "must not contain the NUL character (U+0000)" });
  if (q.memoType !== undefined && !isMemoType(q.memoType))
    problems.push({
      path: "memo_type",
      message: "must be one of the memo types listed in docs/graph.md",
    });
  if (q.depth !== undefined && q.depth > maxHops)
    problems.push({ path: "depth", message: `must be at most ${maxHops} (GRAPH_MAX_HOPS)` });
  if (q.depth !== undefined && q.around === undefined)
    problems.push({ path: "depth", message: "applies only with around" });
  if (problems.length > 0) throw validationFailed(problems);
}

export async function readGraphData(
  deps: Pick<Ports, "db" | "config">,
  actor: Actor,
  q: GraphDataQuery,
): Promise<GraphDataResponse> {
  check(q, deps.config.GRAPH_MAX_HOPS);
  const view: EdgeTimeView = { asOf: q.asOf ?? null, includeExpired: q.includeExpired ?? false };
  const nodeLimit = Math.min(q.limit ?? GRAPH_DATA_DEFAULT_NODES, GRAPH_DATA_MAX_NODES);
  const memoType = q.memoType ?? null;
  const { orgId } = actor;
  const read = await heavyWork(orgId, () =>
    withTenantRead(deps.db, orgId, async (tx) => {
      limitRecallTransaction(tx, deps.config.RECALL_TIMEOUT_MS);
      let nodes: NodeRow[];
      let edges: EdgeRow[];
      let truncated = false;
      let centers: string[] | null = null;
      if (q.around !== undefined) {
        const found = looksLikeId("memo", q.around)
          ? await findLiveMemos(tx, orgId, q.agentId, [q.around])
          : await findMemosByNames(
              tx,
              orgId,
              q.agentId,
              [normalizeName(q.around)].filter(Boolean),
              20,
            );
        centers = [...new Set(found.map((m) => m.memo_id))];
        const walked = await walk(
          tx,
          { orgId, agentId: q.agentId, view, fanout: deps.config.GRAPH_FANOUT },
          centers,
          q.depth ?? 1,
          nodeLimit,
          GRAPH_DATA_MAX_EDGES,
        );
        const rows = await liveMemosById(tx, orgId, q.agentId, walked.nodeIds, memoType);
        const kept = new Set([...rows.map((n) => n.memo_id)]);
        const centerRows = memoType
          ? await liveMemosById(
              tx,
              orgId,
              q.agentId,
              centers.filter((c) => !kept.has(c)),
              null,
            )
          : [];
        nodes = [...centerRows, ...rows];
        const ids = new Set(nodes.map((n) => n.memo_id));
        edges = walked.edges.filter((e) => ids.has(e.src_memo_id) && ids.has(e.dst_memo_id));
        truncated = walked.truncated;
      } else {
        const top = await topMemos(tx, orgId, q.agentId, memoType, nodeLimit + 1);
        truncated = top.length > nodeLimit;
        nodes = top.slice(0, nodeLimit);
        const among = await edgesAmong(
          tx,
          orgId,
          nodes.map((n) => n.memo_id),
          view,
          GRAPH_DATA_MAX_EDGES + 1,
        );
        truncated ||= among.length > GRAPH_DATA_MAX_EDGES;
        edges = among.slice(0, GRAPH_DATA_MAX_EDGES);
      }
      const sources: { edges: SourceRow[]; nodes: SourceRow[] } = {
        edges: await edgeSources(
          tx,
          orgId,
          edges.map((e) => e.edge_id),
        ),
        nodes: await memoSources(
          tx,
          orgId,
          nodes.map((n) => n.memo_id),
          SOURCES_PER_NODE,
        ),
      };
      return { nodes, edges, truncated, centers, sources };
    }),
  );
  return presentGraph(
    q,
    view,
    read,
    { nodes: nodeLimit, edges: GRAPH_DATA_MAX_EDGES },
    deps.config.RETRIEVAL_REDACTION_ENABLED,
  );
}
