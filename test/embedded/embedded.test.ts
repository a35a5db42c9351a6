// Embedded mode end to end in this process: PGlite with pgvector in a temp SVC_DATA_DIR, the same
// migrations, in-process queue + beat + worker, and the main flows (keys, store, recall, forget,
// audit drain). Proves RLS still isolates tenants although PGlite's session user is a superuser,
// that the data survives a restart, and that a second process cannot open the same data directory.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeDeps, openDatabase, openDeps } from "../../src/app/build-deps";
import type { Deps } from "../../src/operations/deps";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";
import { DataDirInUseError } from "../../src/data/embedded";
import { migrate } from "../../src/data/migrate";
import { withTenant } from "../../src/data/with-tenant";
import { systemActor } from "../../src/domain/actor";
import { ensureOrg } from "../../src/domain/keys/bootstrap";
import { createKey } from "../../src/domain/keys/manage";
import { createApp, handleRequest } from "../../src/app/create-app";
import { createLogger } from "../../src/observability/log";
import { startBeat } from "../../src/queue/beat";
import { startWorker } from "../../src/queue/worker";
import { eventually } from "../queue/wait";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-embedded-test-"));
let config: Config;

type Running = {
  deps: Deps;
  call: (
    method: string,
    url: string,
    key: string,
    body?: unknown,
  ) => Promise<{ status: number; body: any }>;
  stop: () => Promise<void>;
};

async function boot(): Promise<Running> {
  const deps = await openDeps(config, {
    log: createLogger("error"),
    applicationName: "svc-embedded-test",
  });
  await migrate(deps.db.primary);
  const background = [await startWorker(deps), await startBeat(deps)];
  const handle = handleRequest(createApp(deps), deps);
  const call = async (method: string, url: string, key: string, body?: unknown) => {
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
  };
  return {
    deps,
    call,
    stop: async () => {
      for (const part of background) await part.close();
      await closeDeps(deps);
    },
  };
}

let app: Running;
const tenants: Record<"a" | "b", { orgId: string; key: string }> = {} as never;

beforeAll(async () => {
  config = loadConfig({}, {
    SVC_DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    RATE_LIMIT_ENABLED: false,
    EMBEDDING_DIMENSIONS: 256,
  } as Partial<Config>);
  app = await boot();
  for (const name of ["a", "b"] as const) {
    const orgId = await ensureOrg(app.deps.db, `embedded-${name}`);
    tenants[name] = { orgId, key: (await createKey(app.deps.db, systemActor(orgId), "test")).key };
  }
}, 60_000); // first open runs initdb and every migration on PGlite

afterAll(async () => {
  await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("runs on PGlite with the in-process queue", () => {
  expect(app.deps.db.kind).toBe("embedded");
  expect(app.deps.queue.backend).toBe("in-process");
});

test("keys, store, recall, forget and the audit drain work end to end", async () => {
  const { a } = tenants;
  const minted = await app.call("POST", "/v1/api-keys", a.key, { name: "second" });
  expect(minted.status, JSON.stringify(minted.body)).toBe(201);
  const second = minted.body.key as string;

  const stored = await app.call("POST", "/v1/memories", second, {
    agent_id: "agent",
    content: "The staging database lives in Frankfurt",
  });
  expect(stored.status, JSON.stringify(stored.body)).toBe(201);
  await app.call("POST", "/v1/memories", second, {
    agent_id: "agent",
    content: "Lunch is at noon on Fridays",
  });

  const recalled = await app.call("POST", "/v1/memories/recall", second, {
    agent_id: "agent",
    query: "where is the staging database?",
    top_k: 1,
  });
  expect(recalled.status, JSON.stringify(recalled.body)).toBe(200);
  expect(recalled.body.results[0].memory_id).toBe(stored.body.memory_id);

  const forgotten = await app.call("POST", "/v1/memories/forget", second, {
    memory_id: stored.body.memory_id,
  });
  expect(forgotten.status, JSON.stringify(forgotten.body)).toBe(200);
  expect(forgotten.body.forgotten).toEqual([stored.body.memory_id]);
  expect((await app.call("GET", `/v1/memories/${stored.body.memory_id}`, second)).status).not.toBe(
    200,
  );

  const audit = await eventually(
    async () => {
      const r = await app.call("GET", "/v1/audit?limit=100", a.key);
      const operations =
        r.status === 200 ? r.body.items.map((row: { operation: string }) => row.operation) : [];
      return ["api_key.create", "store", "forget"].every((op) => operations.includes(op))
        ? operations
        : null;
    },
    "the in-process beat to drain the audit rows",
    15_000,
  );
  expect(audit).toContain("recall");
});

test("RLS isolates tenants on PGlite: another tenant's memory is a 404 and invisible to its transactions", async () => {
  const { a, b } = tenants;
  const stored = await app.call("POST", "/v1/memories", a.key, {
    agent_id: "agent",
    content: "tenant A secret",
  });
  expect((await app.call("GET", `/v1/memories/${stored.body.memory_id}`, b.key)).status).toBe(404);
  const seenByB = await withTenant(
    app.deps.db,
    b.orgId,
    (tx) => tx`SELECT count(*)::int AS n FROM memories WHERE org_id = ${a.orgId}`,
  );
  expect(seenByB[0]!.n).toBe(0);
  const seenByA = await withTenant(
    app.deps.db,
    a.orgId,
    (tx) => tx`SELECT count(*)::int AS n FROM memories WHERE memory_id = ${stored.body.memory_id}`,
  );
  expect(seenByA[0]!.n).toBe(1);
  await expect(
    withTenant(
      app.deps.db,
      b.orgId,
      (tx) => tx`INSERT INTO jobs (org_id, job_id, kind) VALUES (${a.orgId}, 'job_x', 'ingest')`,
    ),
  ).rejects.toThrow(/row-level security/);
});

test("a second open of the same data directory is refused while it is in use", async () => {
  await expect(openDatabase(config, "intruder")).rejects.toBeInstanceOf(DataDirInUseError);
});

test("data survives a restart", { timeout: 30_000 }, async () => {
  const { a } = tenants;
  const stored = await app.call("POST", "/v1/memories", a.key, {
    agent_id: "agent",
    content: "persisted across restarts",
  });
  await app.stop();
  app = await boot();
  const got = await app.call("GET", `/v1/memories/${stored.body.memory_id}`, a.key);
  expect(got.status).toBe(200);
  expect(got.body.content).toBe("persisted across restarts");
});
