// Storing memories for one request (POST /v1/memories, /v1/memories/batch, and their MCP tools): embed
// outside the transaction, then insert and audit inside one tenant transaction (all or nothing).
import type { Deps } from "../../app/deps";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { insertPreparedMemories, prepareMemories } from "./prepare";
import type { MemoryInput, MemoryRecord } from "./types";

/** `pathPrefix` names the items in validation problems ("memories/" for a batch). */
export async function storeMemories(deps: Deps, actor: Actor, inputs: MemoryInput[], pathPrefix = ""): Promise<MemoryRecord[]> {
  const prepared = await prepareMemories(deps, actor, inputs, pathPrefix);
  return withTenant(deps.db, actor.orgId, (tx) => insertPreparedMemories(tx, actor, prepared, pathPrefix));
}
