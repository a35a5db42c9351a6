// The infer pass's candidate reads: one extra hop of a transitive relation, the missing half of a
// declared inverse pair, and co-mentioned memos with no edge between them (Adamic–Adar over
// memo_sources). Premises are current extracted or user edges only: inferences never feed
// inferences, which keeps every run's output a function of the extracted graph (idempotent,
// bounded).
import type { Tx } from "../../../pools";
import { edgeInScope, memoInScope, type RefineScope } from "./scope";

export type Premise = {
  edge_id: string;
  fact: string;
  weight: number;
  confidence: number;
  valid_at: Date | null;
  invalid_at: Date | null;
};

export type InferredCandidate = {
  agent_id: string;
  src_memo_id: string;
  dst_memo_id: string;
  relation: string;
  src_name: string;
  dst_name: string;
  weight: number;
  confidence: number;
  valid_at: Date | null;
  invalid_at: Date | null;
  premises: string[];
  facts: string[];
};

const premise = (tx: Tx, alias: string) =>
  tx`${tx(alias)}.expired_at IS NULL AND ${tx(alias)}.origin IN ('extracted', 'user')`;

/**
 * The next `limit` premise edges of the given relations after `afterId` (the batch, even when it
 * yields nothing).
 */
export async function premiseBatch(
  tx: Tx,
  scope: RefineScope,
  relations: string[],
  afterId: string | null,
  limit: number,
): Promise<string[]> {
  if (relations.length === 0) return [];
  const rows = await tx<{ edge_id: string }[]>`SELECT e.edge_id FROM edges e
    WHERE ${premise(tx, "e")} AND e.relation = ANY(${relations}::text[]) ${afterId === null ? tx`` : tx`AND e.edge_id > ${afterId}`} ${edgeInScope(tx, scope, "e")}
    ORDER BY e.edge_id LIMIT ${limit}`;
  return rows.map((r) => r.edge_id);
}

/**
 * a –R→ b –R→ c with R transitive, overlapping validity, and no current a –R→ c: a –R→ c over the
 * overlap.
 */
export async function transitiveCandidates(
  tx: Tx,
  firstIds: string[],
): Promise<InferredCandidate[]> {
  if (firstIds.length === 0) return [];
  return tx<InferredCandidate[]>`
    SELECT DISTINCT ON (e1.src_memo_id, e1.relation, e2.dst_memo_id, greatest(e1.valid_at, e2.valid_at))
      e1.agent_id, e1.src_memo_id, e2.dst_memo_id, e1.relation, a.name AS src_name, c.name AS dst_name,
      least(e1.weight, e2.weight) AS weight, least(e1.confidence, e2.confidence) AS confidence,
      greatest(e1.valid_at, e2.valid_at) AS valid_at, least(e1.invalid_at, e2.invalid_at) AS invalid_at,
      ARRAY[e1.edge_id, e2.edge_id] AS premises, ARRAY[e1.fact, e2.fact] AS facts
    FROM edges e1
    JOIN edges e2 ON e2.src_memo_id = e1.dst_memo_id AND e2.relation = e1.relation AND e2.agent_id = e1.agent_id AND ${premise(tx, "e2")}
    JOIN memos a ON a.memo_id = e1.src_memo_id AND a.retired_at IS NULL
    JOIN memos c ON c.memo_id = e2.dst_memo_id AND c.retired_at IS NULL
    WHERE e1.edge_id = ANY(${firstIds}::text[]) AND ${premise(tx, "e1")} AND e2.dst_memo_id <> e1.src_memo_id
      AND (e1.valid_at IS NULL OR e2.invalid_at IS NULL OR e1.valid_at < e2.invalid_at)
      AND (e2.valid_at IS NULL OR e1.invalid_at IS NULL OR e2.valid_at < e1.invalid_at)
      AND NOT EXISTS (SELECT 1 FROM edges x WHERE x.src_memo_id = e1.src_memo_id AND x.relation = e1.relation AND x.dst_memo_id = e2.dst_memo_id AND x.expired_at IS NULL)
    ORDER BY e1.src_memo_id, e1.relation, e2.dst_memo_id, greatest(e1.valid_at, e2.valid_at), least(e1.weight, e2.weight) DESC, e2.edge_id`;
}

/**
 * a –R→ b where R declares the inverse S and no current b –S→ a exists: b –S→ a. A functional S
 * that b already has (to anyone) is left alone: an inference never competes with a stated single
 * value.
 */
export async function inverseCandidates(
  tx: Tx,
  premiseIds: string[],
  inverses: Map<string, string>,
  functional: string[],
): Promise<InferredCandidate[]> {
  if (premiseIds.length === 0) return [];
  const from = [...inverses.keys()];
  return tx<InferredCandidate[]>`
    SELECT e.agent_id, e.dst_memo_id AS src_memo_id, e.src_memo_id AS dst_memo_id, i.inverse AS relation, b.name AS src_name, a.name AS dst_name,
      e.weight, e.confidence, e.valid_at, e.invalid_at, ARRAY[e.edge_id] AS premises, ARRAY[e.fact] AS facts
    FROM edges e
    JOIN unnest(${from}::text[], ${from.map((r) => inverses.get(r)!)}::text[]) AS i(relation, inverse) ON i.relation = e.relation
    JOIN memos a ON a.memo_id = e.src_memo_id AND a.retired_at IS NULL
    JOIN memos b ON b.memo_id = e.dst_memo_id AND b.retired_at IS NULL
    WHERE e.edge_id = ANY(${premiseIds}::text[]) AND ${premise(tx, "e")} AND e.src_memo_id <> e.dst_memo_id
      AND NOT EXISTS (SELECT 1 FROM edges x WHERE x.src_memo_id = e.dst_memo_id AND x.relation = i.inverse AND x.dst_memo_id = e.src_memo_id AND x.expired_at IS NULL)
      AND NOT (i.inverse = ANY(${functional}::text[]) AND EXISTS (SELECT 1 FROM edges x WHERE x.src_memo_id = e.dst_memo_id AND x.relation = i.inverse AND x.expired_at IS NULL))
    ORDER BY e.edge_id`;
}

/** The next `limit` live, non-SUMMARY memos in scope after `afterId`: a co-mention batch. */
export async function memoBatch(
  tx: Tx,
  scope: RefineScope,
  afterId: string | null,
  limit: number,
): Promise<string[]> {
  const rows = await tx<
    { memo_id: string }[]
  >`SELECT m.memo_id FROM memos m WHERE m.retired_at IS NULL AND m.memo_type <> 'SUMMARY'
    ${afterId === null ? tx`` : tx`AND m.memo_id > ${afterId}`} ${memoInScope(tx, scope, "m")} ORDER BY m.memo_id LIMIT ${limit}`;
  return rows.map((r) => r.memo_id);
}

export type CoMention = {
  agent_id: string;
  x: string;
  y: string;
  x_name: string;
  y_name: string;
  score: number;
  memories: string[];
};

/**
 * For each memo in `memoIds`, its `perMemo` best co-mentioned partners of the same agent with no
 * current edge either way, scored Adamic–Adar: Σ over shared memories of 1 / ln(1 + memos grounded
 * in that memory).
 */
export async function coMentions(
  tx: Tx,
  memoIds: string[],
  minScore: number,
  perMemo: number,
): Promise<CoMention[]> {
  if (memoIds.length === 0) return [];
  return tx<CoMention[]>`
    WITH shared AS (
      SELECT DISTINCT sx.memo_id AS x, sy.memo_id AS y, sx.memory_id
      FROM memo_sources sx JOIN memo_sources sy ON sy.memory_id = sx.memory_id AND sy.memo_id <> sx.memo_id
      WHERE sx.memo_id = ANY(${memoIds}::text[])
    ), sizes AS (
      SELECT s.memory_id, count(DISTINCT s.memo_id)::float8 AS n FROM memo_sources s
      JOIN memos m ON m.memo_id = s.memo_id AND m.retired_at IS NULL AND m.memo_type <> 'SUMMARY'
      WHERE s.memory_id IN (SELECT memory_id FROM shared) GROUP BY s.memory_id
    ), scored AS (
      SELECT p.x, p.y, sum(1.0 / ln(1.0 + z.n)) AS score, array_agg(p.memory_id ORDER BY p.memory_id) AS memories
      FROM shared p JOIN sizes z ON z.memory_id = p.memory_id GROUP BY p.x, p.y
    ), ranked AS (
      SELECT mx.agent_id, s.x, s.y, mx.name AS x_name, my.name AS y_name, s.score, s.memories,
        row_number() OVER (PARTITION BY s.x ORDER BY s.score DESC, s.y) AS rank
      FROM scored s
      JOIN memos mx ON mx.memo_id = s.x AND mx.retired_at IS NULL
      JOIN memos my ON my.memo_id = s.y AND my.retired_at IS NULL AND my.memo_type <> 'SUMMARY' AND my.agent_id = mx.agent_id
      WHERE s.score >= ${minScore}
        AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.src_memo_id = s.x AND e.dst_memo_id = s.y AND e.expired_at IS NULL)
        AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.src_memo_id = s.y AND e.dst_memo_id = s.x AND e.expired_at IS NULL)
    )
    SELECT agent_id, x, y, x_name, y_name, score, memories FROM ranked WHERE rank <= ${perMemo} ORDER BY x, rank`;
}

/**
 * Inferred edges are grounded in their premises' sources (or the co-mentioning memories), so forget
 * reaches them.
 */
export async function groundInferred(
  tx: Tx,
  orgId: string,
  rows: Array<{ edge_id: string; premises: string[]; memories: string[] }>,
): Promise<void> {
  if (rows.length === 0) return;
  const fromPremises = rows.flatMap((r) => r.premises.map((p) => [r.edge_id, p] as const));
  if (fromPremises.length > 0) {
    await tx`INSERT INTO edge_sources (org_id, edge_id, memory_id, memory_version, extractor)
      SELECT ${orgId}::text, v.edge_id, s.memory_id, s.memory_version, 'refine-infer'
      FROM unnest(${fromPremises.map((p) => p[0])}::text[], ${fromPremises.map((p) => p[1])}::text[]) AS v(edge_id, premise)
      JOIN edge_sources s ON s.edge_id = v.premise ON CONFLICT DO NOTHING`;
  }
  const fromMemories = rows.flatMap((r) => r.memories.map((m) => [r.edge_id, m] as const));
  if (fromMemories.length > 0) {
    await tx`INSERT INTO edge_sources (org_id, edge_id, memory_id, memory_version, extractor)
      SELECT DISTINCT ON (v.edge_id, v.memory_id) ${orgId}::text, v.edge_id, v.memory_id, s.memory_version, 'refine-infer'
      FROM unnest(${fromMemories.map((p) => p[0])}::text[], ${fromMemories.map((p) => p[1])}::text[]) AS v(edge_id, memory_id)
      JOIN memo_sources s ON s.memory_id = v.memory_id
      ORDER BY v.edge_id, v.memory_id, s.memory_version DESC ON CONFLICT DO NOTHING`;
  }
}

/** Dry runs: the (src, relation, dst) keys this job already reported as inferred. */
export async function reportedInferences(tx: Tx, jobId: string): Promise<Set<string>> {
  const rows = await tx<
    { key: string }[]
  >`SELECT detail->>'key' AS key FROM refine_changes WHERE job_id = ${jobId} AND pass = 'infer'`;
  return new Set(rows.map((r) => r.key));
}

/**
 * The current text of a few memories (the context the co-mention judge sees), each cut to
 * `maxChars`.
 */
export async function memoryTexts(
  tx: Tx,
  memoryIds: string[],
  maxChars: number,
): Promise<Map<string, string>> {
  if (memoryIds.length === 0) return new Map();
  const rows = await tx<
    { memory_id: string; content: string }[]
  >`SELECT memory_id, left(content, ${maxChars}) AS content FROM memories
    WHERE memory_id = ANY(${memoryIds}::text[]) AND valid_to IS NULL`;
  return new Map(rows.map((r) => [r.memory_id, r.content]));
}
