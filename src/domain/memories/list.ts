// Listing memories page by page (GET /v1/memories, MCP list_memories): filters, order, cursors.
import type { Database } from "../../data/pools";
import {
  listMemoryRows,
  type ListOrder,
  type ListPosition,
} from "../../data/queries/memories/listing";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { decodeCursor, encodeCursor } from "../../lib/cursor";
import { validationFailed, type FieldProblem } from "../../lib/errors";
import { parseInstant } from "../../lib/instant";
import { toRecord, type MemoryRecord } from "./types";

export type MemoryListQuery = {
  agent_id?: string;
  memory_type?: string;
  dataset_id?: string;
  /** Metadata equality: key → the value as given in the query string (`metadata.<key>=<value>`). */
  metadata?: Array<[key: string, value: string]>;
  created_after?: string;
  created_before?: string;
  occurred_after?: string;
  occurred_before?: string;
  include_forgotten?: boolean;
  order?: ListOrder;
  limit?: number;
  cursor?: string;
};

export type MemoryPage = { items: MemoryRecord[]; next_cursor: string | null };

const CREATED_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function readCursor(cursor: string): ListPosition & { order: ListOrder } {
  return decodeCursor(cursor, (v) => {
    const [createdKey, memoryId, order] = v;
    if (typeof createdKey !== "string" || !CREATED_KEY.test(createdKey)) throw new Error("time");
    if (typeof memoryId !== "string" || memoryId.length > 128) throw new Error("bad id");
    if ((order !== "asc" && order !== "desc") || v.length !== 3) throw new Error("bad order");
    return { createdKey, memoryId, order };
  });
}

/**
 * A query-string value matches the stored value when it is that string, or when it is the JSON text
 * of a stored number, boolean or null (`metadata.priority=3` matches 3 and "3").
 */
export function metadataAlternatives(key: string, value: string): Array<Record<string, unknown>> {
  const alternatives: Array<Record<string, unknown>> = [{ [key]: value }];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return alternatives;
  }
  const scalar = parsed === null || typeof parsed === "number" || typeof parsed === "boolean";
  if (scalar) alternatives.push({ [key]: parsed });
  return alternatives;
}

const MAX_METADATA_FILTERS = 10;

/** Bounds on `metadata.<key>=<value>` filters, whichever door (REST, MCP) they came through. */
function metadataProblems(pairs: Array<[string, string]>): FieldProblem[] {
  if (pairs.length > MAX_METADATA_FILTERS) {
    return [{ path: "/metadata", message: `at most ${MAX_METADATA_FILTERS} metadata filters` }];
  }
  return pairs.flatMap(([key, value]) => {
    const problem =
      key.length === 0 || key.length > 128
        ? "needs a key of 1 to 128 characters"
        : value.length > 1024
          ? "must be at most 1024 characters"
          : null;
    return problem ? [{ path: `/metadata.${key}`, message: problem }] : [];
  });
}

function range(value: string | undefined, field: string): Date | undefined {
  return value === undefined ? undefined : parseInstant(value, field);
}

export async function listMemories(
  db: Database,
  actor: Actor,
  q: MemoryListQuery,
): Promise<MemoryPage> {
  const limit = q.limit ?? 50;
  const position = q.cursor === undefined ? undefined : readCursor(q.cursor);
  if (position && q.order !== undefined && q.order !== position.order) {
    const message = `must match the cursor's order (${position.order})`;
    throw validationFailed([{ path: "/order", message }]);
  }
  const order = position?.order ?? q.order ?? "desc";
  const problems = metadataProblems(q.metadata ?? []);
  if (problems.length > 0) throw validationFailed(problems);
  const metadata = (q.metadata ?? []).map(([key, value]) => metadataAlternatives(key, value));
  const filter = {
    agentId: q.agent_id,
    memoryType: q.memory_type,
    datasetId: q.dataset_id,
    metadata,
    createdAfter: range(q.created_after, "created_after"),
    createdBefore: range(q.created_before, "created_before"),
    occurredAfter: range(q.occurred_after, "occurred_after"),
    occurredBefore: range(q.occurred_before, "occurred_before"),
    includeForgotten: q.include_forgotten ?? false,
    order,
    after: position,
    limit: limit + 1,
  };
  // The primary, as for GET /v1/memories/{id}: a client listing right after a store must see it.
  const rows = await withTenant(db, actor.orgId, (tx) => listMemoryRows(tx, filter));
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const more = rows.length > limit && last;
  const next = more ? encodeCursor([last.created_key, last.memory_id, order]) : null;
  return { items: page.map(toRecord), next_cursor: next };
}
