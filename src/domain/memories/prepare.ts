// The store path shared by POST /v1/memories, the batch route and conversation turns: validate and
// normalise, embed once outside any transaction, then insert and audit inside the caller's tenant
// tx.
import type { Ports } from "../ports/ports";
import { insertMemoryRows } from "../../data/queries/memories/memories";
import type { Tx } from "../../data/pools";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { recordMemoryEvent } from "../webhooks/record-event";
import { requireLiveDatasets } from "../datasets/require-live";
import { validationFailed, type FieldProblem } from "../../lib/errors";
import { metadataProblem } from "../metadata";
import { unstorableReason } from "../../lib/validation/input-walk";
import { boundedDate, DATE_BOUND_MESSAGE, withinDateBound } from "../../lib/validation/date-bound";
import { sha256Bytes } from "../../lib/hash";
import { newId } from "../../lib/ids";
import { autoMemoryType } from "./auto-tier";
import { embedOrDefer, type EmbedDeps } from "./embed-or-defer";
import {
  DEFAULT_IMPORTANCE,
  MEMORY_TYPES,
  toRecord,
  type MemoryInput,
  type MemoryRecord,
  type MemoryType,
  type PreparedMemory,
} from "./types";

export type PrepareDeps = Pick<Ports, "config"> & EmbedDeps;

const MAX_TTL_SECONDS = 10 * 365 * 86_400;

/**
 * Checks every input (all problems reported at once, paths like "memories/3/metadata" when
 * `pathPrefix` is given), embeds all contents in one provider call and returns rows ready to
 * insert. Never throws because the provider is down; does throw an AppError the provider raises
 * (e.g. budget-exceeded).
 */
export async function prepareMemories(
  deps: PrepareDeps,
  actor: Actor,
  inputs: MemoryInput[],
  pathPrefix = "",
): Promise<PreparedMemory[]> {
  const now = new Date();
  const problems: FieldProblem[] = [];
  const normalised = inputs.map((input, i) =>
    normalise(
      deps.config,
      input,
      now,
      inputs.length > 1 || pathPrefix ? `${pathPrefix}${i}/` : "",
      problems,
    ),
  );
  if (problems.length > 0) throw validationFailed(problems);

  const embedded = await embedOrDefer(
    deps,
    actor.orgId,
    normalised.map((m) => m.content),
  );
  return normalised.map((m, i) => ({
    ...m,
    embedding: embedded.ok ? embedded.vectors[i]! : null,
    embedding_model: embedded.ok ? embedded.model : null,
    embedding_dims: embedded.ok ? embedded.dims : null,
  }));
}

type Normalised = Omit<PreparedMemory, "embedding" | "embedding_model" | "embedding_dims">;

function normalise(
  config: PrepareDeps["config"],
  input: MemoryInput,
  now: Date,
  path: string,
  problems: FieldProblem[],
): Normalised {
  const fail = (field: string, message: string) =>
    problems.push({ path: `${path}${field}`, message });
  const content = typeof input.content === "string" ? input.content : "";
  if (content.trim().length === 0) fail("content", "must contain at least one non-space character");
  if (content.length > config.MEMORY_CONTENT_MAX_CHARS)
    fail("content", `must be at most ${config.MEMORY_CONTENT_MAX_CHARS} characters`);
  if (typeof input.agent_id !== "string" || input.agent_id.trim().length === 0)
    fail("agent_id", "is required and must not be blank");
  for (const field of ["content", "agent_id", "dataset_id"] as const) {
    const reason = typeof input[field] === "string" ? unstorableReason(input[field]) : null;
    if (reason) fail(field, reason);
  }
  if (input.memory_type !== undefined && !MEMORY_TYPES.includes(input.memory_type))
    fail("memory_type", `must be one of ${MEMORY_TYPES.join(", ")}`);
  const importance = roundImportance(input.importance ?? DEFAULT_IMPORTANCE);
  if (!(importance >= 0 && importance <= 1)) fail("importance", "must be between 0 and 1");
  const metadata = input.metadata === undefined ? {} : input.metadata;
  const problem = metadataProblem(config, metadata);
  if (problem) fail("metadata", problem);

  let expiresAt: Date | null = null;
  if (input.ttl_seconds !== undefined && input.expires_at !== undefined)
    fail("ttl_seconds", "give ttl_seconds or expires_at, not both");
  else if (input.ttl_seconds !== undefined) {
    if (
      !Number.isInteger(input.ttl_seconds) ||
      input.ttl_seconds < 1 ||
      input.ttl_seconds > MAX_TTL_SECONDS
    )
      fail("ttl_seconds", `must be an integer from 1 to ${MAX_TTL_SECONDS}`);
    else expiresAt = new Date(now.getTime() + input.ttl_seconds * 1000);
  } else if (input.expires_at !== undefined) {
    const at = boundedDate(input.expires_at);
    if (at === null) fail("expires_at", DATE_BOUND_MESSAGE);
    else if (at.getTime() <= now.getTime()) fail("expires_at", "must be in the future");
    else expiresAt = at;
  }

  const occurredAt = input.occurred_at === undefined ? now : parseEventTime(input.occurred_at);
  if (!occurredAt) fail("occurred_at", EVENT_TIME_MESSAGE);

  const ttlSeconds = expiresAt ? Math.round((expiresAt.getTime() - now.getTime()) / 1000) : null;
  const memoryType: MemoryType =
    input.memory_type ??
    (config.MEMORY_TIER_AUTO_ROUTE ? autoMemoryType(content, ttlSeconds) : "semantic");
  return {
    memory_id: newId("mem", now.getTime()),
    agent_id: input.agent_id,
    content,
    content_hash: sha256Bytes(content),
    memory_type: memoryType,
    metadata: metadata as Record<string, unknown>,
    importance,
    dataset_id: input.dataset_id ?? null,
    created_at: now,
    occurred_at: occurredAt ?? now,
    expires_at: expiresAt,
  };
}

export const EVENT_TIME_MESSAGE =
  "must be an ISO 8601 date or date-time between the years 1 and 9999";

/**
 * Event time from an ISO 8601 date ("2023-05-08", read as UTC midnight) or date-time; null when
 * unusable.
 */
export function parseEventTime(value: string | Date): Date | null {
  const at =
    value instanceof Date
      ? value
      : /^\d{4}-\d{2}-\d{2}(?:[Tt ].+)?$/.test(value)
        ? new Date(value)
        : new Date(Number.NaN);
  return withinDateBound(at) ? at : null;
}

/** The column is float4: six decimals keep every value representable (no underflow on 1e-300). */
export const roundImportance = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Inserts the prepared memories and their audit rows (one per agent) in the caller's tenant
 * transaction, after checking that every dataset they name is live (a 422 naming the field
 * otherwise; `pathPrefix` as for prepareMemories). `graphLater` leaves the vectors out of the HNSW
 * graph for svc.generate_embedding (the vector backlog, docs/recall.md); the caller schedules it
 * once the transaction has committed.
 */
export async function insertPreparedMemories(
  tx: Tx,
  actor: Actor,
  prepared: PreparedMemory[],
  pathPrefix = "",
  options: { graphLater?: boolean } = {},
): Promise<MemoryRecord[]> {
  if (prepared.length === 0) return [];
  await requireLiveDatasets(
    tx,
    prepared.flatMap((p, i) =>
      p.dataset_id === null
        ? []
        : [
            {
              datasetId: p.dataset_id,
              path: `${prepared.length > 1 || pathPrefix ? `${pathPrefix}${i}/` : ""}dataset_id`,
            },
          ],
    ),
  );
  const rows = await insertMemoryRows(
    tx,
    prepared.map((p) => ({ org_id: actor.orgId, ...p })),
    options,
  );
  const byAgent = new Map<string, string[]>();
  for (const row of rows) {
    const ids = byAgent.get(row.agent_id) ?? [];
    ids.push(row.memory_id);
    byAgent.set(row.agent_id, ids);
  }
  await recordAudit(
    tx,
    actor,
    [...byAgent].map(([agentId, ids]) => ({
      operation: "store" as const,
      agentId,
      targetIds: ids,
      detail: { count: ids.length },
    })),
  );
  await recordMemoryEvent(tx, actor.orgId, "memory.stored", rows);
  return rows.map(toRecord);
}
