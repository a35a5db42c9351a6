// The memory write paths on PGlite (embedded mode, one connection): batch, PATCH under the advisory
// lock, concurrent PATCHes, forget with id arrays, history, and the maintenance functions.
import { afterAll, beforeAll, expect, test } from "bun:test";
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
import { decayImportance } from "../../src/domain/memories/decay-importance";
import { enforceRetentionCaps } from "../../src/domain/memories/retention";
import { sweepExpiredMemories } from "../../src/domain/memories/sweep-expired";
import { createApp, handleRequest } from "../../src/app/create-app";
import { createLogger } from "../../src/observability/log";
import { seedEmbeddedDataDir } from "../harness/pglite-template";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-embedded-memories-"));
let deps: Deps;
let key: string;
let handle: (r: Request) => Promise<Response>;

async function call(
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
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
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  const config = loadConfig({}, {
    SVC_DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    RATE_LIMIT_ENABLED: false,
    EMBEDDING_DIMENSIONS: 128,
  } as Partial<Config>);
  await seedEmbeddedDataDir(dataDir); // a migrated copy: no initdb per file
  deps = await openDeps(config, {
    log: createLogger("error"),
    applicationName: "svc-embedded-memories",
  });
  await migrate(deps.db.primary);
  await ensureVectorIndex(deps.db.primary, 128);
  handle = handleRequest(createApp(deps), deps);
  const orgId = await ensureOrg(deps.db, "embedded-memories");
  key = (await createKey(deps.db, systemActor(orgId), "test")).key;
}, 60_000);

afterAll(async () => {
  await closeDeps(deps);
  rmSync(dataDir, { recursive: true, force: true });
});

test("batch, concurrent PATCHes, history and forget behave as on PostgreSQL", async () => {
  const batch = await call("POST", "/v1/memories/batch", {
    memories: [
      { agent_id: "x", content: "one", ttl_seconds: 60 },
      { agent_id: "x", content: "two", importance: 0.9 },
      { agent_id: "x", content: "three", importance: 0.1 },
    ],
  });
  expect(batch.status, JSON.stringify(batch.body)).toBe(201);
  const [one, two, three] = batch.body.memories.map((m: any) => m.memory_id as string);
  expect(batch.body.memories.every((m: any) => m.embedding_status === "ready")).toBe(true);

  const patches = await Promise.all(
    Array.from({ length: 5 }, (_, i) =>
      call("PATCH", `/v1/memories/${two}`, { content: `two v${i}` }),
    ),
  );
  expect(patches.map((p) => p.status)).toEqual([200, 200, 200, 200, 200]);
  const history = await call("GET", `/v1/memories/${two}/history`);
  expect(history.body.versions.map((v: any) => v.version)).toEqual([1, 2, 3, 4, 5, 6]);
  expect(history.body.versions.filter((v: any) => v.valid_to === null).length).toBe(1);

  const forgotten = await call("POST", "/v1/memories/forget", {
    memory_ids: [three, "mem_unknown"],
  });
  expect(forgotten.body).toEqual({ forgotten: [three], not_found: ["mem_unknown"], cert_id: null });
  expect((await call("GET", `/v1/memories/${three}`)).status).toBe(410);

  expect(await sweepExpiredMemories(deps.db, new Date(Date.now() + 120_000))).toBe(1);
  expect((await call("GET", `/v1/memories/${one}`)).status).toBe(410);
  expect(
    await decayImportance(deps.db, new Date(Date.now() + 3600_000), {
      halfLifeHours: 720,
      floor: 0.05,
    }),
  ).toBe(1);
  await call("POST", "/v1/memories", { agent_id: "x", content: "four" });
  expect(await enforceRetentionCaps(deps.db, 1)).toBe(1);
});
