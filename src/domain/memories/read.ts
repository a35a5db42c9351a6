// Reading one memory (its current version) and its full version history, tenant-scoped.
import type { Database } from "../../data/pools";
import {
  findLatestVersion,
  listVersions,
  type MemoryRow,
} from "../../data/queries/memories/memories";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { gone, notFound } from "../../lib/errors";
import { looksLikeId } from "../../lib/ids";
import { toRecord, type MemoryRecord } from "./types";

/** 404 for unknown, malformed or another tenant's ids; 410 once forgotten or past expires_at. */
export function assertLive(row: MemoryRow | null, memoryId: string, now = new Date()): MemoryRow {
  if (!row) throw notFound(`Memory ${memoryId}`);
  if (row.deleted_at)
    throw gone(
      `Memory ${memoryId} was forgotten; GET /v1/memories/${memoryId}/history still lists its versions`,
    );
  if (row.expires_at && row.expires_at.getTime() <= now.getTime())
    throw gone(`Memory ${memoryId} expired at ${row.expires_at.toISOString()}`);
  return row;
}

export async function getMemory(
  db: Database,
  actor: Actor,
  memoryId: string,
): Promise<MemoryRecord> {
  if (!looksLikeId("mem", memoryId)) throw notFound(`Memory ${memoryId}`);
  // The primary, not a replica: a client reading the memory it just stored or patched must see it.
  const row = await withTenant(db, actor.orgId, (tx) => findLatestVersion(tx, memoryId));
  return toRecord(assertLive(row, memoryId));
}

/** Every version, oldest first, including a forgotten memory's (history is kept on forget). */
export async function getHistory(
  db: Database,
  actor: Actor,
  memoryId: string,
): Promise<MemoryRecord[]> {
  if (!looksLikeId("mem", memoryId)) throw notFound(`Memory ${memoryId}`);
  const rows = await withTenant(db, actor.orgId, (tx) => listVersions(tx, memoryId));
  if (rows.length === 0) throw notFound(`Memory ${memoryId}`);
  return rows.map(toRecord);
}
