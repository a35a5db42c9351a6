// The knowledge graph issue's "done when" on PGlite (embedded mode: one connection, in-process
// queue and worker), through HTTP exactly as test/graph/distill-http.test.ts runs it on PostgreSQL.
import { afterAll, beforeAll, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeDeps, openDeps } from "../../src/app/build-deps";
import type { Deps } from "../../src/operations/deps";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";
import { migrate } from "../../src/data/migrate";
import { ensureVectorIndex } from "../../src/data/queries/memories/vector-index";
import { systemActor } from "../../src/domain/actor";
import { ensureOrg } from "../../src/domain/keys/bootstrap";
import { createKey } from "../../src/domain/keys/manage";
import { createApp, handleRequest } from "../../src/app/create-app";
import { createLogger } from "../../src/observability/log";
import { startWorker, type RunningWorker } from "../../src/queue/worker";
import { doneWhen, type Caller } from "../graph/done-when";
import { seedEmbeddedDataDir } from "../harness/pglite-template";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-embedded-graph-done-"));
let deps: Deps;
let worker: RunningWorker;
let handle: (r: Request) => Promise<Response>;

async function caller(name: string): Promise<Caller> {
  const orgId = await ensureOrg(deps.db, name);
  const { key } = await createKey(deps.db, systemActor(orgId), "test");
  return async (method, url, body) => {
    const response = await handle(
      new Request(`http://localhost${url}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null, text };
  };
}

beforeAll(async () => {
  const config = loadConfig({}, {
    SVC_DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    RATE_LIMIT_ENABLED: false,
    EMBEDDING_DIMENSIONS: 128,
    DISTILL_ENABLED: true,
    DISTILL_BATCH_SIZE: 3,
  } as Partial<Config>);
  await seedEmbeddedDataDir(dataDir); // a migrated copy: no initdb per file
  deps = await openDeps(config, {
    log: createLogger("error"),
    applicationName: "svc-embedded-graph-done",
  });
  await migrate(deps.db.primary);
  await ensureVectorIndex(deps.db.primary, 128);
  worker = await startWorker(deps);
  handle = handleRequest(createApp(deps), deps);
}, 60_000);

afterAll(async () => {
  await worker.close();
  await closeDeps(deps);
  rmSync(dataDir, { recursive: true, force: true });
});

test("done when, on PGlite: distill, graph data, GRAPH two hops, TRIPLET/TRACE, supersede and as_of, forget, tenants apart", async () => {
  await doneWhen(
    await caller("embedded-done-a"),
    await caller("embedded-done-b"),
    "agent-embedded-done",
  );
}, 120_000);
