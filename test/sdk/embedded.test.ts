// @svc/sdk against the embedded app (PGlite) over real HTTP: the round trip, the stream and a typed
// error.
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
import { createApp, handleRequest } from "../../src/app/create-app";
import { createLogger } from "../../src/observability/log";
import { SvcClient, ValidationError, type RecallStreamEvent } from "../../sdk/src/index";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-embedded-sdk-"));
let deps: Deps;
let server: ReturnType<typeof Bun.serve>;
let svc: SvcClient;

beforeAll(async () => {
  const config = loadConfig({}, {
    SVC_DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    RATE_LIMIT_ENABLED: false,
    EMBEDDING_DIMENSIONS: 128,
  } as Partial<Config>);
  deps = await openDeps(config, {
    log: createLogger("error"),
    applicationName: "svc-embedded-sdk",
  });
  await migrate(deps.db.primary);
  await ensureVectorIndex(deps.db.primary, 128);
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: handleRequest(createApp(deps), deps),
  });
  const orgId = await ensureOrg(deps.db, "embedded-sdk");
  svc = new SvcClient({
    baseUrl: `http://127.0.0.1:${server.port}`,
    apiKey: (await createKey(deps.db, systemActor(orgId), "test")).key,
  });
}, 60_000);

afterAll(async () => {
  server.stop(true);
  await closeDeps(deps);
  rmSync(dataDir, { recursive: true, force: true });
});

test("store → recall → recallStream → forget on PGlite", async () => {
  const stored = await svc.memories.store({
    agent_id: "emb",
    content: "the spare key is under the plant pot",
  });
  const recalled = await svc.memories.recall({
    agent_id: "emb",
    query: "spare key",
    strategy: "LEXICAL",
  });
  expect(recalled.results.map((r) => r.memory_id)).toEqual([stored.memory_id]);
  const events: RecallStreamEvent[] = [];
  for await (const event of svc.memories.recallStream({
    agent_id: "emb",
    query: "spare key",
    strategy: "LEXICAL",
  }))
    events.push(event);
  expect(events.map((e) => e.type)).toEqual(["result", "summary"]);
  expect((await svc.memories.forget({ memory_id: stored.memory_id })).forgotten).toEqual([
    stored.memory_id,
  ]);
  expect(
    (await svc.memories.recall({ agent_id: "emb", query: "spare key", strategy: "LEXICAL" }))
      .results,
  ).toEqual([]);
});

test("a 422 is a ValidationError naming the field on PGlite too", async () => {
  const error = await svc.memories
    .recall({ agent_id: "emb", query: "x", top_k: 0 })
    .catch((e) => e);
  expect(error).toBeInstanceOf(ValidationError);
  expect(error.field).toBe("/top_k");
});
