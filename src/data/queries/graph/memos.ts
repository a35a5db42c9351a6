// memos and memo_aliases rows: resolution of extracted names to memos (exact key, alias, merged
// survivor), the race-safe upsert on the dedupe key, and reads by id following refine's merges.
import type { Tx } from "../../pools";

export type MemoKey = { memo_type: string; normalized_name: string };

export type NewMemo = MemoKey & {
  memo_id: string;
  name: string;
  aliases: string[];
  description: string | null;
  ontology_uri: string | null;
};

export type UpsertedMemo = MemoKey & { memo_id: string; inserted: boolean };

export type MemoRow = {
  memo_id: string;
  agent_id: string;
  memo_type: string;
  name: string;
  normalized_name: string;
  aliases: string[];
  description: string | null;
  ontology_uri: string | null;
  origin: string;
  mention_count: number;
  created_at: Date;
  updated_at: Date;
};

/** The columns of MemoRow, from a memos table aliased `m`. */
const memoColumns = (tx: Tx) =>
  tx`m.memo_id, m.agent_id, m.memo_type, m.name, m.normalized_name, m.aliases, m.description, m.ontology_uri, m.origin, m.mention_count, m.created_at, m.updated_at`;

/**
 * Keys without a live memo of their own that an alias (same type) or a merged-away memo points at:
 * the exact key always wins, so these are looked up only for keys the caller found no exact match
 * for.
 */
export async function findByAliasOrMerge(
  tx: Tx,
  orgId: string,
  agentId: string,
  keys: MemoKey[],
): Promise<Array<MemoKey & { memo_id: string }>> {
  if (keys.length === 0) return [];
  return tx<Array<MemoKey & { memo_id: string }>>`
    WITH k AS (SELECT * FROM unnest(${keys.map((k) => k.memo_type)}::text[], ${keys.map((k) => k.normalized_name)}::text[]) AS k(memo_type, normalized_name)),
    exact AS (
      SELECT k.* FROM k WHERE EXISTS (SELECT 1 FROM memos m WHERE m.org_id = ${orgId} AND m.agent_id = ${agentId}
        AND m.memo_type = k.memo_type AND m.normalized_name = k.normalized_name AND m.retired_at IS NULL)
    ),
    via_alias AS (
      SELECT DISTINCT ON (k.memo_type, k.normalized_name) k.memo_type, k.normalized_name, m.memo_id, 0 AS rank
      FROM k JOIN memo_aliases a ON a.org_id = ${orgId} AND a.agent_id = ${agentId} AND a.normalized_alias = k.normalized_name AND a.memo_type = k.memo_type
      JOIN memos m ON m.org_id = a.org_id AND m.memo_id = a.memo_id AND m.retired_at IS NULL
      ORDER BY k.memo_type, k.normalized_name, m.mention_count DESC, m.memo_id
    ),
    via_merge AS (
      SELECT DISTINCT ON (k.memo_type, k.normalized_name) k.memo_type, k.normalized_name, m.merged_into AS memo_id, 1 AS rank
      FROM k JOIN memos m ON m.org_id = ${orgId} AND m.agent_id = ${agentId} AND m.memo_type = k.memo_type
        AND m.normalized_name = k.normalized_name AND m.merged_into IS NOT NULL
      ORDER BY k.memo_type, k.normalized_name, m.updated_at DESC
    ),
    candidates AS (SELECT * FROM via_alias UNION ALL SELECT * FROM via_merge)
    SELECT DISTINCT ON (c.memo_type, c.normalized_name) c.memo_type, c.normalized_name, c.memo_id
    FROM candidates c
    WHERE NOT EXISTS (SELECT 1 FROM exact e WHERE e.memo_type = c.memo_type AND e.normalized_name = c.normalized_name)
    ORDER BY c.memo_type, c.normalized_name, c.rank`;
}

/**
 * INSERT … ON CONFLICT on the dedupe key (agent, memo_type, normalized_name) among live memos: two
 * jobs naming the same entity at once end with one memo. Rows must be unique by key and are sorted
 * by it, so concurrent upserts take row locks in one order. Aliases and a missing description are
 * merged in.
 */
export async function upsertMemos(
  tx: Tx,
  orgId: string,
  agentId: string,
  memos: NewMemo[],
  now: Date,
): Promise<UpsertedMemo[]> {
  if (memos.length === 0) return [];
  const rows = [...memos]
    .sort((a, b) =>
      a.memo_type + "\u0000" + a.normalized_name < b.memo_type + "\u0000" + b.normalized_name
        ? -1
        : 1,
    )
    .map((m) => ({
      org_id: orgId,
      agent_id: agentId,
      origin: "extracted",
      mention_count: 0,
      last_seen_at: now,
      ...m,
    }));
  return tx<UpsertedMemo[]>`
    INSERT INTO memos ${tx(rows)}
    ON CONFLICT (org_id, agent_id, memo_type, normalized_name) WHERE retired_at IS NULL
    DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at, updated_at = now(),
      aliases = (SELECT coalesce(array_agg(DISTINCT a ORDER BY a), '{}') FROM unnest(memos.aliases || EXCLUDED.aliases) AS a),
      description = coalesce(memos.description, EXCLUDED.description),
      ontology_uri = coalesce(memos.ontology_uri, EXCLUDED.ontology_uri)
    RETURNING memo_id, memo_type, normalized_name, (xmax = 0) AS inserted`;
}

/** Adds aliases (display list and lookup rows) to memos resolved through another name. */
export async function addAliases(
  tx: Tx,
  orgId: string,
  agentId: string,
  aliases: Array<{ memo_id: string; memo_type: string; alias: string; normalized_alias: string }>,
): Promise<void> {
  if (aliases.length === 0) return;
  const rows = aliases.map((a) => ({
    org_id: orgId,
    agent_id: agentId,
    memo_type: a.memo_type,
    normalized_alias: a.normalized_alias,
    memo_id: a.memo_id,
  }));
  await tx`INSERT INTO memo_aliases ${tx(rows)} ON CONFLICT DO NOTHING`;
  await tx`
    UPDATE memos m SET aliases = (SELECT array_agg(DISTINCT x ORDER BY x) FROM unnest(m.aliases || n.names) AS x), updated_at = now()
    FROM (SELECT id, array_agg(alias) AS names FROM unnest(${aliases.map((a) => a.memo_id)}::text[], ${aliases.map((a) => a.alias)}::text[]) AS u(id, alias) GROUP BY id) AS n
    WHERE m.org_id = ${orgId} AND m.memo_id = n.id AND NOT (m.aliases @> n.names)`;
}

/** memo_sources rows (ON CONFLICT DO NOTHING); mention_count grows by the rows that were new. */
export async function addMemoSources(
  tx: Tx,
  orgId: string,
  rows: Array<{ memo_id: string; memory_id: string; memory_version: number }>,
): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((r) => ({ org_id: orgId, ...r }));
  await tx`
    WITH added AS (
      INSERT INTO memo_sources ${tx(values)} ON CONFLICT DO NOTHING RETURNING memo_id
    ), counted AS (SELECT memo_id, count(*)::int AS n FROM added GROUP BY memo_id)
    UPDATE memos m SET mention_count = m.mention_count + c.n FROM counted c WHERE m.org_id = ${orgId} AND m.memo_id = c.memo_id`;
}

/**
 * Live memos by id, each id first followed through memos.merged_into (refine's dedupe) to its
 * survivor.
 */
export async function findLiveMemos(
  tx: Tx,
  orgId: string,
  agentId: string,
  memoIds: string[],
): Promise<Array<MemoRow & { requested_id: string }>> {
  if (memoIds.length === 0) return [];
  return tx<Array<MemoRow & { requested_id: string }>>`
    WITH RECURSIVE chain AS (
      SELECT m.memo_id AS requested_id, m.memo_id, m.merged_into, m.retired_at, 0 AS depth
      FROM memos m WHERE m.org_id = ${orgId} AND m.memo_id = ANY(${memoIds}::text[]) AND m.agent_id = ${agentId}
      UNION ALL
      SELECT c.requested_id, m.memo_id, m.merged_into, m.retired_at, c.depth + 1
      FROM chain c JOIN memos m ON m.org_id = ${orgId} AND m.memo_id = c.merged_into
      WHERE c.retired_at IS NOT NULL AND c.depth < 16
    ), resolved AS (
      SELECT DISTINCT ON (requested_id) requested_id, memo_id FROM chain WHERE retired_at IS NULL ORDER BY requested_id, depth
    )
    SELECT r.requested_id, ${memoColumns(tx)} FROM resolved r JOIN memos m USING (memo_id)
    WHERE m.org_id = ${orgId} AND m.retired_at IS NULL`;
}

/**
 * Live memos of an agent whose normalized name or alias is one of `names` (btree equality only).
 */
export async function findMemosByNames(
  tx: Tx,
  orgId: string,
  agentId: string,
  names: string[],
  limit: number,
): Promise<Array<MemoRow & { matched: string }>> {
  if (names.length === 0) return [];
  return tx<Array<MemoRow & { matched: string }>>`
    SELECT DISTINCT ON (m.memo_id) x.matched, ${memoColumns(tx)} FROM (
      SELECT m.memo_id, m.normalized_name AS matched FROM memos m
      WHERE m.org_id = ${orgId} AND m.agent_id = ${agentId} AND m.normalized_name = ANY(${names}::text[]) AND m.retired_at IS NULL
      UNION ALL
      SELECT a.memo_id, a.normalized_alias FROM memo_aliases a
      WHERE a.org_id = ${orgId} AND a.agent_id = ${agentId} AND a.normalized_alias = ANY(${names}::text[])
    ) AS x JOIN memos m ON m.org_id = ${orgId} AND m.memo_id = x.memo_id AND m.retired_at IS NULL
    ORDER BY m.memo_id, length(x.matched) DESC
    LIMIT ${limit}`;
}

/**
 * Whether the agent has any live memo: an empty graph means distill has not run (or found nothing).
 */
export async function agentHasGraph(tx: Tx, orgId: string, agentId: string): Promise<boolean> {
  const rows =
    await tx`SELECT 1 FROM memos WHERE org_id = ${orgId} AND agent_id = ${agentId} AND retired_at IS NULL LIMIT 1`;
  return rows.length > 0;
}
