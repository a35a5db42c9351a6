// The key routes on PGlite (embedded mode): scopes stored and enforced, the subset rule, the
// per-tenant cap (advisory lock on the single connection), and both buckets in /v1/limits from the
// in-memory limiter.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeDeps, openDeps } from "../../src/app/build-deps";
import type { Deps } from "../../src/operations/deps";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";
import { migrate } from "../../src/data/migrate";
import { systemActor } from "../../src/domain/actor";
import { ensureOrg } from "../../src/domain/keys/bootstrap";
import { createKey } from "../../src/domain/keys/manage";
import { SCOPES } from "../../src/lib/scopes";
import { createApp, handleRequest } from "../../src/app/create-app";
import { createLogger } from "../../src/observability/log";
import { seedEmbeddedDataDir } from "../harness/pglite-template";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-embedded-keys-"));
let deps: Deps;
let key: string;
let handle: (r: Request) => Promise<Response>;

async function call(
  method: string,
  url: string,
  as: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await handle(
    new Request(`http://localhost${url}`, {
      method,
      headers: {
        authorization: `Bearer ${as}`,
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
    EMBEDDING_DIMENSIONS: 128,
    API_KEYS_MAX_ACTIVE: 4,
    RATE_LIMIT_ENABLED: true,
    RATE_LIMIT_REQUESTS: 1,
    RATE_LIMIT_WINDOW: 60,
    RATE_LIMIT_BURST: 50,
    RATE_LIMIT_TENANT_REQUESTS: 1,
    RATE_LIMIT_TENANT_BURST: 100,
  } as Partial<Config>);
  await seedEmbeddedDataDir(dataDir); // a migrated copy: no initdb per file
  deps = await openDeps(config, {
    log: createLogger("error"),
    applicationName: "svc-embedded-keys",
  });
  await migrate(deps.db.primary);
  handle = handleRequest(createApp(deps), deps);
  const orgId = await ensureOrg(deps.db, "embedded-keys");
  key = (await createKey(deps.db, systemActor(orgId), "test")).key;
}, 60_000);

afterAll(async () => {
  await closeDeps(deps);
  rmSync(dataDir, { recursive: true, force: true });
});

test("scopes are stored, listed and enforced; a key only grants what it holds", async () => {
  expect(deps.db.kind).toBe("embedded");
  const listed = await call("GET", "/v1/api-keys", key);
  expect(listed.body.items[0].scopes).toEqual([...SCOPES]);
  const reader = await call("POST", "/v1/api-keys", key, {
    name: "reader",
    scopes: ["memories:read", "admin"],
  });
  expect(reader.status, JSON.stringify(reader.body)).toBe(201);
  expect(reader.body.scopes).toEqual(["memories:read", "admin"]);

  const write = await call("POST", "/v1/memories", reader.body.key, {
    agent_id: "a",
    content: "x",
  });
  expect(write.status).toBe(403);
  expect(write.body.missing_scopes).toEqual(["memories:write"]);
  expect((await call("GET", "/v1/audit", reader.body.key)).body.missing_scopes).toEqual([
    "audit:read",
  ]);

  const escalate = await call("POST", "/v1/api-keys", reader.body.key, {
    name: "up",
    scopes: ["memories:write"],
  });
  expect(escalate.status).toBe(403);
  expect(escalate.body.type).toEndWith("/errors/insufficient-scope");
  const inherited = await call("POST", "/v1/api-keys", reader.body.key, { name: "same" });
  expect(inherited.body.scopes).toEqual(["memories:read", "admin"]);
});

test("the per-tenant cap holds under concurrent creates", async () => {
  // Three live keys so far (the operator key, reader, same); the cap is four.
  const burst = await Promise.all(
    Array.from({ length: 4 }, (_, i) => call("POST", "/v1/api-keys", key, { name: `race${i}` })),
  );
  expect(burst.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
  expect(burst.find((r) => r.status === 409)!.body.type).toEndWith("/errors/key-limit-reached");
});

test("/v1/limits reports the key's and the tenant's bucket from the in-process limiter", async () => {
  const r = await call("GET", "/v1/limits", key);
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ backend: "memory", scope: "api_key", burst: 50 });
  expect(r.body.tenant).toMatchObject({ scope: "tenant", burst: 100, limit: 1 });
  // This key made 7 requests (this one included); the tenant bucket also paid for the reader's 4.
  expect(r.body.remaining).toBe(50 - 7);
  expect(r.body.tenant.remaining).toBe(100 - 7 - 4);
});
