// The 1M tier's corpus: `tenants` orgs × `agentsPerTenant` agents × `perAgent` memories, loaded
// through the product's own store path (prepareMemories: validation + the configured embedder;
// insertPreparedMemories: the multi-row insert and its audit rows, in one tenant transaction per
// chunk) but with the HNSW index dropped for the load and built once afterwards (buildVectorIndex:
// ensureVectorIndex with a larger per-transaction maintenance_work_mem): pgvector builds the graph
// in bulk far faster than it maintains it row by row. Agents of 1,000 memories are answered by an
// exact sort (recall-vector.ts) that does not touch the HNSW index, so the tier can be measured
// before the index exists and again after. No HTTP here: the batch route's rate is measured at the
// 100k tier.
import postgres from "postgres";
import { ensureVectorIndex } from "../../src/data/queries/memories/vector-index";
import { withTenant } from "../../src/data/with-tenant";
import { systemActor } from "../../src/domain/actor";
import { ensureOrg } from "../../src/domain/keys/bootstrap";
import { createKey } from "../../src/domain/keys/manage";
import { insertPreparedMemories, prepareMemories } from "../../src/domain/memories/prepare";
import { progressReporter } from "../../src/cli/progress";
import type { BenchApp } from "./bench-app";
import { corpus } from "./corpus";
import { loop } from "./stats";

export type Tenant = { orgId: string; key: string; agents: string[] };
export type TenantLoad = {
  tenants: Tenant[];
  memories: number;
  loadSeconds: number;
  embedSeconds: number;
  insertSeconds: number;
};

const CHUNK = 1000;

export async function loadTenants(
  app: BenchApp,
  shape: { tenants: number; agentsPerTenant: number; perAgent: number },
): Promise<TenantLoad> {
  const tenants: Tenant[] = [];
  for (let t = 0; t < shape.tenants; t++) {
    const orgId = await ensureOrg(app.deps.db, `bench-tenant-${t}`);
    const { key } = await createKey(app.deps.db, systemActor(orgId), "bench");
    tenants.push({
      orgId,
      key,
      agents: Array.from({ length: shape.agentsPerTenant }, (_, a) => `agent-${t}-${a}`),
    });
  }
  const owner = postgres(app.databaseUrl, { max: 1, onnotice: () => {} });
  await owner`DROP INDEX IF EXISTS memories_embedding_1536`;
  // One chunk = CHUNK memories of one agent (perAgent is a multiple of CHUNK or smaller than it).
  const perChunk = Math.min(CHUNK, shape.perAgent);
  const chunksPerAgent = Math.ceil(shape.perAgent / perChunk);
  const agents = tenants.flatMap((t) => t.agents.map((agent) => ({ orgId: t.orgId, agent })));
  const total = agents.length * shape.perAgent;
  const progress = progressReporter("bulk load", "memories");
  let stored = 0,
    embedMs = 0,
    insertMs = 0;
  const all = corpus(total, 42);
  const started = performance.now();
  await loop(agents.length * chunksPerAgent, 2, 36_000, async (i) => {
    const { orgId, agent } = agents[Math.floor(i / chunksPerAgent)]!;
    const offset = i * perChunk;
    const contents = all.slice(offset, offset + perChunk);
    const actor = systemActor(orgId);
    const t0 = performance.now();
    const prepared = await prepareMemories(
      app.deps,
      actor,
      contents.map((content) => ({ agent_id: agent, content, memory_type: "semantic" })),
    );
    const t1 = performance.now();
    await withTenant(app.deps.db, orgId, (tx) => insertPreparedMemories(tx, actor, prepared));
    embedMs += t1 - t0;
    insertMs += performance.now() - t1;
    stored += contents.length;
    progress.update(stored, total);
    return true;
  });
  progress.stop();
  const loadSeconds = (performance.now() - started) / 1000;
  await owner`VACUUM ANALYZE memories`;
  await owner.end();
  return {
    tenants,
    memories: stored,
    loadSeconds,
    embedSeconds: embedMs / 1000,
    insertSeconds: insertMs / 1000,
  };
}

/** Builds memories_embedding_1536 over everything loaded; returns the seconds it took. */
export async function buildVectorIndex(app: BenchApp, maintenanceWorkMem = "6GB"): Promise<number> {
  const owner = postgres(app.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const started = performance.now();
    await ensureVectorIndex(owner, 1536, { maintenanceWorkMem });
    return (performance.now() - started) / 1000;
  } finally {
    await owner.end();
  }
}
