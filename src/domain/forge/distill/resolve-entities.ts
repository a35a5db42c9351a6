// Entity resolution at distill time: the exact (agent, memo_type, normalized_name) key always wins;
// otherwise an alias or a memo refine merged away leads to the surviving memo; otherwise a new
// memo. Nothing fuzzy: near-duplicates are left for refine's dedupe (a duplicate beats a wrong
// merge).
import {
  addAliases,
  addMemoSources,
  findByAliasOrMerge,
  upsertMemos,
  type MemoKey,
  type NewMemo,
} from "../../../data/queries/graph/memos";
import type { Tx } from "../../../data/pools";
import { newId } from "../../../lib/ids";
import type { CleanEntity } from "./clean-extraction";

export type EntityMention = { entity: CleanEntity; memoryId: string; version: number };

export type ResolvedEntities = {
  /** memo_id by entity key (`keyOf`). */
  memoOf: Map<string, string>;
  created: number;
  reused: number;
};

export const keyOf = (e: { type: string; normalized: string }) => `${e.type}\u0000${e.normalized}`;

export async function resolveEntities(
  tx: Tx,
  orgId: string,
  agentId: string,
  mentions: EntityMention[],
  now: Date,
): Promise<ResolvedEntities> {
  const first = new Map<string, CleanEntity>();
  for (const m of mentions) if (!first.has(keyOf(m.entity))) first.set(keyOf(m.entity), m.entity);
  const keys: MemoKey[] = [...first.values()].map((e) => ({
    memo_type: e.type,
    normalized_name: e.normalized,
  }));

  const memoOf = new Map<string, string>();
  const aliases: Array<{
    memo_id: string;
    memo_type: string;
    alias: string;
    normalized_alias: string;
  }> = [];
  for (const hit of await findByAliasOrMerge(tx, orgId, agentId, keys)) {
    const key = `${hit.memo_type}\u0000${hit.normalized_name}`;
    memoOf.set(key, hit.memo_id);
    // The name that led here becomes an alias of the memo, so the next lookup is a plain alias hit.
    aliases.push({
      memo_id: hit.memo_id,
      memo_type: hit.memo_type,
      alias: first.get(key)!.name,
      normalized_alias: hit.normalized_name,
    });
  }
  const toUpsert: NewMemo[] = [...first.entries()]
    .filter(([key]) => !memoOf.has(key))
    .map(([, e]) => ({
      memo_id: newId("memo"),
      memo_type: e.type,
      normalized_name: e.normalized,
      name: e.name,
      aliases: [],
      description: e.description,
      ontology_uri: e.ontologyUri,
    }));
  let created = 0;
  for (const row of await upsertMemos(tx, orgId, agentId, toUpsert, now)) {
    memoOf.set(`${row.memo_type}\u0000${row.normalized_name}`, row.memo_id);
    if (row.inserted) created++;
  }
  for (const e of first.values()) {
    for (const a of e.aliases)
      aliases.push({
        memo_id: memoOf.get(keyOf(e))!,
        memo_type: e.type,
        alias: a.name,
        normalized_alias: a.normalized,
      });
  }
  await addAliases(
    tx,
    orgId,
    agentId,
    uniqueBy(aliases, (a) => `${a.memo_id}\u0000${a.normalized_alias}`),
  );

  const sources = uniqueBy(
    mentions.map((m) => ({
      memo_id: memoOf.get(keyOf(m.entity))!,
      memory_id: m.memoryId,
      memory_version: m.version,
    })),
    (s) => `${s.memo_id}\u0000${s.memory_id}\u0000${s.memory_version}`,
  );
  await addMemoSources(tx, orgId, sources);
  return { memoOf, created, reused: first.size - created };
}

export function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  return [...new Map(items.map((i) => [key(i), i])).values()];
}
