// The response of GET /v1/graph/data: cytoscape-style `{id}` nodes and `{id, source, target}`
// edges, both timelines on every edge, the grounding memory versions, and redaction of names and
// facts when RETRIEVAL_REDACTION_ENABLED (graph text is memory content in other words).
import type { NodeRow } from "../../data/queries/graph/data";
import type { EdgeRow, EdgeTimeView, SourceRow } from "../../data/queries/graph/read";
import { redactText } from "../recall/redaction";

export type SourceRef = { memory_id: string; version: number };

export type GraphDataNode = {
  id: string;
  memo_type: string;
  name: string;
  aliases: string[];
  description: string | null;
  ontology_uri: string | null;
  origin: string;
  mention_count: number;
  created_at: Date;
  updated_at: Date;
  source_memories: SourceRef[];
};

export type GraphDataEdge = {
  id: string;
  source: string;
  target: string;
  relation: string;
  fact: string;
  weight: number;
  confidence: number;
  origin: string;
  mention_count: number;
  valid_at: Date | null;
  invalid_at: Date | null;
  observed_at: Date | null;
  created_at: Date;
  expired_at: Date | null;
  expired_reason: string | null;
  superseded_by: string | null;
  source_memories: SourceRef[];
};

export type GraphDataResponse = {
  agent_id: string;
  as_of: Date | null;
  include_expired: boolean;
  around: { query: string; memo_ids: string[] } | null;
  nodes: GraphDataNode[];
  edges: GraphDataEdge[];
  truncated: boolean;
  limits: { nodes: number; edges: number };
  redactions: number;
};

type Read = {
  nodes: NodeRow[];
  edges: EdgeRow[];
  truncated: boolean;
  centers: string[] | null;
  sources: { edges: SourceRow[]; nodes: SourceRow[] };
};

function grouped(rows: SourceRow[]): Map<string, SourceRef[]> {
  const out = new Map<string, SourceRef[]>();
  for (const r of rows)
    out.set(r.owner_id, [
      ...(out.get(r.owner_id) ?? []),
      { memory_id: r.memory_id, version: r.memory_version },
    ]);
  return out;
}

export function presentGraph(
  q: { agentId: string; around?: string },
  view: EdgeTimeView,
  read: Read,
  limits: { nodes: number; edges: number },
  redact: boolean,
): GraphDataResponse {
  let redactions = 0;
  const text = (s: string) => {
    if (!redact) return s;
    const r = redactText(s);
    redactions += r.count;
    return r.value;
  };
  const textOrNull = (s: string | null) => (s === null ? null : text(s));
  const edgeSources = grouped(read.sources.edges);
  const nodeSources = grouped(read.sources.nodes);
  const nodes = read.nodes.map((n) => ({
    id: n.memo_id,
    memo_type: n.memo_type,
    name: text(n.name),
    aliases: n.aliases.map(text),
    description: textOrNull(n.description),
    ontology_uri: n.ontology_uri,
    origin: n.origin,
    mention_count: n.mention_count,
    created_at: n.created_at,
    updated_at: n.updated_at,
    source_memories: nodeSources.get(n.memo_id) ?? [],
  }));
  const edges = read.edges.map((e) => ({
    id: e.edge_id,
    source: e.src_memo_id,
    target: e.dst_memo_id,
    relation: e.relation,
    fact: text(e.fact),
    weight: e.weight,
    confidence: e.confidence,
    origin: e.origin,
    mention_count: e.mention_count,
    valid_at: e.valid_at,
    invalid_at: e.invalid_at,
    observed_at: e.observed_at,
    created_at: e.created_at,
    expired_at: e.expired_at,
    expired_reason: e.expired_reason,
    superseded_by: e.superseded_by,
    source_memories: edgeSources.get(e.edge_id) ?? [],
  }));
  return {
    agent_id: q.agentId,
    as_of: view.asOf,
    include_expired: view.includeExpired,
    around: read.centers === null ? null : { query: q.around!, memo_ids: read.centers },
    nodes,
    edges,
    truncated: read.truncated,
    limits,
    redactions,
  };
}
