// The store path shared by POST /v1/memories, the batch route and conversation turns: validate and
// normalise, embed once outside any transaction, then insert and audit inside the caller's tenant tx.
import type { Deps } from "../../app/deps";
import { insertMemoryRows } from "../../data/queries/memories";
import type { Tx } from "../../data/pools";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { validationFailed, type FieldProblem } from "../errors";
import { sha256Bytes } from "../hash";
import { newId } from "../ids";
import { autoMemoryType } from "./auto-tier";
import { embedOrDefer, type EmbedDeps } from "./embed-or-defer";
import { DEFAULT_IMPORTANCE, MEMORY_TYPES, toRecord, type MemoryInput, type MemoryRecord, type MemoryType, type PreparedMemory } from "./types";

export type PrepareDeps = Pick<Deps, "config"> & EmbedDeps;

const MAX_TTL_SECONDS = 10 * 365 * 86_400;
const utf8 = new TextEncoder();

/**
 * Checks every input (all problems reported at once, paths like "memories/3/metadata" when `pathPrefix`
 * is given), embeds all contents in one provider call and returns rows ready to insert. Never throws
 * because the provider is down; does throw an AppError the provider raises (e.g. budget-exceeded).
 */
export async function prepareMemories(deps: PrepareDeps, actor: Actor, inputs: MemoryInput[], pathPrefix = ""): Promise<PreparedMemory[]> {
  const now = new Date();
  const problems: FieldProblem[] = [];
  const normalised = inputs.map((input, i) => normalise(deps.config, input, now, inputs.length > 1 || pathPrefix ? `${pathPrefix}${i}/` : "", problems));
  if (problems.length > 0) throw validationFailed(problems);

  const embedded = await embedOrDefer(deps, actor.orgId, normalised.map((m) => m.content));
  return normalised.map((m, i) => ({
    ...m,
    embedding: embedded.ok ? embedded.vectors[i]! : null,
    embedding_model: embedded.ok ? embedded.model : null,
    embedding_dims: embedded.ok ? embedded.dims : null,
  }));
}

type Normalised = Omit<PreparedMemory, "embedding" | "embedding_model" | "embedding_dims">;

function normalise(config: PrepareDeps["config"], input: MemoryInput, now: Date, path: string, problems: FieldProblem[]): Normalised {
  const fail = (field: string, message: string) => problems.push({ path: `${path}${field}`, message });
  const content = typeof input.content === "string" ? input.content : "";
  if (content.trim().length === 0) fail("content", "must contain at least one non-space character");
  if (content.length > config.MEMORY_CONTENT_MAX_CHARS) fail("content", `must be at most ${config.MEMORY_CONTENT_MAX_CHARS} characters`);
  if (typeof input.agent_id !== "string" || input.agent_id.trim().length === 0) fail("agent_id", "is required and must not be blank");
  for (const field of ["content", "agent_id", "dataset_id"] as const) {
    if (typeof input[field] === "string" && hasNul(input[field])) fail(field, NUL_MESSAGE);
  }
  if (input.memory_type !== undefined && !MEMORY_TYPES.includes(input.memory_type)) fail("memory_type", `must be one of ${MEMORY_TYPES.join(", ")}`);
  const importance = roundImportance(input.importance ?? DEFAULT_IMPORTANCE);
  if (!(importance >= 0 && importance <= 1)) fail("importance", "must be between 0 and 1");
  const metadata = input.metadata === undefined ? {} : input.metadata;
  const metadataProblem = checkMetadata(config, metadata);
  if (metadataProblem) fail("metadata", metadataProblem);

  let expiresAt: Date | null = null;
  if (input.ttl_seconds !== undefined && input.expires_at !== undefined) fail("ttl_seconds", "give ttl_seconds or expires_at, not both");
  else if (input.ttl_seconds !== undefined) {
    if (!Number.isInteger(input.ttl_seconds) || input.ttl_seconds < 1 || input.ttl_seconds > MAX_TTL_SECONDS) fail("ttl_seconds", `must be an integer from 1 to ${MAX_TTL_SECONDS}`);
    else expiresAt = new Date(now.getTime() + input.ttl_seconds * 1000);
  } else if (input.expires_at !== undefined) {
    const at = new Date(input.expires_at);
    if (Number.isNaN(at.getTime())) fail("expires_at", "must be an ISO 8601 timestamp");
    else if (at.getTime() <= now.getTime()) fail("expires_at", "must be in the future");
    else expiresAt = at;
  }

  const ttlSeconds = expiresAt ? Math.round((expiresAt.getTime() - now.getTime()) / 1000) : null;
  const memoryType: MemoryType = input.memory_type ?? (config.MEMORY_TIER_AUTO_ROUTE ? autoMemoryType(content, ttlSeconds) : "semantic");
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
    expires_at: expiresAt,
  };
}

const NUL_MESSAGE = "must not contain the NUL character (U+0000)";
export const hasNul = (s: string) => s.includes("\u0000");

/** The column is float4: six decimals keep every value representable (no underflow on 1e-300). */
export const roundImportance = (x: number) => Math.round(x * 1e6) / 1e6;

/** Why the metadata is unacceptable, or null: it must be a plain JSON object within the size cap. */
export function checkMetadata(config: PrepareDeps["config"], metadata: unknown): string | null {
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return "must be a JSON object";
  const json = JSON.stringify(metadata);
  if (utf8.encode(json).length > config.MEMORY_METADATA_MAX_BYTES) return `must be at most ${config.MEMORY_METADATA_MAX_BYTES} bytes as JSON`;
  // jsonb cannot store U+0000 in keys or strings.
  if (json.includes("\\u0000")) return NUL_MESSAGE;
  return null;
}

/** Inserts the prepared memories and their audit rows (one per agent) in the caller's tenant transaction. */
export async function insertPreparedMemories(tx: Tx, actor: Actor, prepared: PreparedMemory[]): Promise<MemoryRecord[]> {
  if (prepared.length === 0) return [];
  const rows = await insertMemoryRows(tx, prepared.map((p) => ({ org_id: actor.orgId, ...p })));
  const byAgent = new Map<string, string[]>();
  for (const row of rows) {
    const ids = byAgent.get(row.agent_id) ?? [];
    ids.push(row.memory_id);
    byAgent.set(row.agent_id, ids);
  }
  await recordAudit(tx, actor, [...byAgent].map(([agentId, ids]) => ({
    operation: "store" as const,
    agentId,
    targetIds: ids,
    detail: { count: ids.length },
  })));
  return rows.map(toRecord);
}
