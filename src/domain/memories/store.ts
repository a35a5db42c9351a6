// Storing memories for one request (POST /v1/memories, /v1/memories/batch, and their MCP tools):
// embed outside the transaction, then insert and audit inside one tenant transaction (all or
// nothing).
import type { Ports } from "../ports/ports";
import { withTenant } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { scheduleStatisticsRefresh } from "../statistics/refresh-after-bulk-write";
import { scheduleBackfill } from "./embed-or-defer";
import { insertPreparedMemories, prepareMemories } from "./prepare";
import type { MemoryInput, MemoryRecord } from "./types";

export type StoreOptions = {
  /** Names the items in validation problems ("memories/" for a batch). */
  pathPrefix?: string;
  /**
   * A batch: the vectors wait outside the HNSW graph, where recall scores them exactly, and
   * svc.generate_embedding puts them in (docs/recall.md, "The vector backlog"). Entering the graph
   * row by row is most of what a store costs the database, so a batch returns about four times
   * sooner.
   */
  graphLater?: boolean;
};

export async function storeMemories(
  deps: Pick<Ports, "db" | "config" | "embeddings" | "log" | "queue">,
  actor: Actor,
  inputs: MemoryInput[],
  options: StoreOptions = {},
): Promise<MemoryRecord[]> {
  const prepared = await prepareMemories(deps, actor, inputs, options.pathPrefix);
  const graphLater = options.graphLater === true && prepared.some((p) => p.embedding !== null);
  const records = await withTenant(deps.db, actor.orgId, (tx) =>
    insertPreparedMemories(tx, actor, prepared, options.pathPrefix, { graphLater }),
  );
  if (graphLater) await scheduleBackfill(deps, actor.orgId);
  await scheduleStatisticsRefresh(deps, actor.orgId, "memory", records.length);
  return records;
}
