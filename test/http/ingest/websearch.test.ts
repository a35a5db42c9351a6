// Web-search ingest (POST /v1/ingest/search) against a fake Brave Search API on loopback that also
// serves the result pages: the batch reports each child with its state and URL, a result on a
// private address fails only its child, non-http and duplicate results are skipped, provider errors
// end the batch `failed` with a reason (never a 5xx), batches are tenant-private; in PostgreSQL and
// embedded mode.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeDeps, openDeps } from "../../../src/app/build-deps";
import type { Deps } from "../../../src/operations/deps";
import { loadConfig } from "../../../src/config/load";
import type { Config } from "../../../src/config/schema";
import { migrate } from "../../../src/data/migrate";
import { systemActor } from "../../../src/domain/actor";
import { ensureOrg } from "../../../src/domain/keys/bootstrap";
import { createKey } from "../../../src/domain/keys/manage";
import { createApp, handleRequest } from "../../../src/app/create-app";
import { createLogger } from "../../../src/observability/log";
import { startWorker, type RunningWorker } from "../../../src/queue/worker";
import { show, type TestResponse } from "../../harness/app";
import { eventually } from "../../queue/wait";
import { DEEP_FACT, documentWithDeepFact } from "./fixtures";
import { ingestApp, type IngestApp } from "./helpers";
import { seedEmbeddedDataDir } from "../../harness/pglite-template";

const API_KEY = "brave-test-subscription-token";
type Call = (method: string, url: string, key: string, body?: unknown) => Promise<TestResponse>;

/** A Brave-compatible search endpoint plus the pages its results point at. */
function startFakeBrave() {
  const requests: URL[] = [];
  /**
   * While set, searches wait for it: the test acts between the provider's answer and the
   * discovery's commit.
   */
  let held: Promise<void> | null = null;
  const hold = () => {
    let release!: () => void;
    held = new Promise((resolve) => {
      release = resolve;
    });
    return () => {
      held = null;
      release();
    };
  };
  const server: ReturnType<typeof Bun.serve> = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request): Promise<Response> {
      const url = new URL(request.url);
      const base: string = `http://127.0.0.1:${server.port}`;
      if (url.pathname === "/res/v1/web/search") {
        requests.push(url);
        if (request.headers.get("x-subscription-token") !== API_KEY)
          return Response.json(
            { type: "ErrorResponse", error: { code: "SUBSCRIPTION_TOKEN_INVALID" } },
            { status: 401 },
          );
        const q = url.searchParams.get("q") ?? "";
        if (held) await held;
        if (q.includes("quota"))
          return Response.json(
            { type: "ErrorResponse", error: { code: "RATE_LIMITED" } },
            { status: 429 },
          );
        if (q.includes("garbled"))
          return new Response("<html>oops</html>", { headers: { "content-type": "text/html" } });
        const results = [
          { title: "Lighthouse almanac", url: `${base}/pages/almanac`, description: "…" },
          { title: "Tide tables", url: `${base}/pages/tides`, description: "…" },
          { title: "Intranet", url: "http://10.20.30.40/secret", description: "…" },
          { title: "FTP mirror", url: "ftp://files.example.org/almanac.txt", description: "…" },
          { title: "Almanac again", url: `${base}/pages/almanac`, description: "…" },
          { title: "Beyond the limit", url: `${base}/pages/extra`, description: "…" },
        ].slice(0, Number(url.searchParams.get("count") ?? 20));
        return Response.json({
          type: "search",
          query: { original: q },
          web: { type: "search", results },
        });
      }
      if (url.pathname === "/pages/almanac")
        return new Response(documentWithDeepFact(12), {
          headers: { "content-type": "text/plain; charset=utf-8" },
        });
      if (url.pathname === "/pages/tides")
        return new Response("High tide at Skerryvore is at 06:12 and 18:40 on the equinox.", {
          headers: { "content-type": "text/plain" },
        });
      return new Response("not found", { status: 404 });
    },
  });
  return { server, requests, hold, base: `http://127.0.0.1:${server.port}` };
}

const settledBatch = (call: Call, key: string, batchId: string) =>
  eventually(
    async () => {
      const r = await call("GET", `/v1/ingest/search/${batchId}`, key);
      if (r.status !== 200) throw new Error(show(r));
      return r.body.state === "completed" || r.body.state === "failed" ? r.body : null;
    },
    `search batch ${batchId} to settle`,
    60_000,
  );

/** The cases both database modes run. */
function searchCases(
  env: () => { call: Call; key: string; otherKey: string; fake: ReturnType<typeof startFakeBrave> },
) {
  test("a batch fans out one URL job per usable result and reports each child's state and URL", async () => {
    const { call, key, fake } = env();
    const before = fake.requests.length;
    const r = await call("POST", "/v1/ingest/search", key, {
      agent_id: "scout",
      query: "skerryvore lighthouse",
      max_results: 5,
    });
    expect(r.status, show(r)).toBe(202);
    expect(r.body).toMatchObject({
      state: "discovering",
      query: "skerryvore lighthouse",
      max_results: 5,
      status_url: `/v1/ingest/search/${r.body.batch_id}`,
    });
    const batch = await settledBatch(call, key, r.body.batch_id);
    expect(batch.state, JSON.stringify(batch)).toBe("completed");
    expect(fake.requests.length).toBe(before + 1);
    expect(fake.requests.at(-1)!.searchParams.get("q")).toBe("skerryvore lighthouse");
    expect(fake.requests.at(-1)!.searchParams.get("count")).toBe("5");
    const byRank = batch.results.map((c: any) => [
      c.rank,
      c.url,
      c.state,
      c.failure_reason,
      c.skipped === null,
    ]);
    expect(byRank).toEqual([
      [1, `${fake.base}/pages/almanac`, "succeeded", null, true],
      [2, `${fake.base}/pages/tides`, "succeeded", null, true],
      [3, "http://10.20.30.40/secret", "failed", "fetch-refused", true],
      [4, "ftp://files.example.org/almanac.txt", "skipped", null, false],
      [5, `${fake.base}/pages/almanac`, "skipped", null, false],
    ]);
    expect(batch.counts).toMatchObject({ succeeded: 2, failed: 1, queued: 0, running: 0 });
    expect(batch.results[0].memory_count).toBeGreaterThan(0);
    expect(batch.results[0].title).toBe("Lighthouse almanac");

    const child = await call("GET", `/v1/ingest/${batch.results[0].job_id}`, key);
    expect(child.body).toMatchObject({
      state: "succeeded",
      batch_id: r.body.batch_id,
      source: { kind: "url", url: `${fake.base}/pages/almanac` },
    });
    const recalled = await call("POST", "/v1/memories/recall", key, {
      agent_id: "scout",
      query: "How many trawlers does the Skerryvore lighthouse keeper count?",
      top_k: 3,
    });
    expect(recalled.status, show(recalled)).toBe(200);
    expect(recalled.body.results[0]?.content).toContain(DEEP_FACT);
  }, 90_000);

  test("max_results caps the children; a provider error fails the batch with a reason, never a 5xx", async () => {
    const { call, key } = env();
    const two = await call("POST", "/v1/ingest/search", key, {
      agent_id: "scout",
      query: "tides only",
      max_results: 2,
    });
    expect(two.status, show(two)).toBe(202);
    const capped = await settledBatch(call, key, two.body.batch_id);
    expect(capped.results.map((c: any) => c.rank)).toEqual([1, 2]);

    for (const [query, needle] of [
      ["quota please", "429"],
      ["garbled answer", "not JSON"],
    ] as const) {
      const r = await call("POST", "/v1/ingest/search", key, { agent_id: "scout", query });
      expect(r.status, show(r)).toBe(202);
      const batch = await settledBatch(call, key, r.body.batch_id);
      expect(batch, JSON.stringify(batch)).toMatchObject({
        state: "failed",
        failure_reason: "search-failed",
        results: [],
      });
      expect(batch.error).toContain(needle);
      const discovery = await call("GET", `/v1/ingest/${batch.discovery_job_id}`, key);
      expect(discovery.body).toMatchObject({
        state: "failed",
        failure_reason: "search-failed",
        source: { kind: "search", query },
      });
    }
  }, 90_000);

  test("bad input names the field; batches are private to their tenant", async () => {
    const { call, key, otherKey } = env();
    const cases: Array<[unknown, string]> = [
      [{ agent_id: "scout", query: "   " }, "/query"],
      [{ agent_id: "scout", query: "x", max_results: 21 }, "max_results"],
      [{ agent_id: "scout", query: "x", max_results: 0 }, "max_results"],
      [{ agent_id: "", query: "x" }, "agent_id"],
      [{ agent_id: "scout" }, "query"],
    ];
    for (const [body, field] of cases) {
      const r = await call("POST", "/v1/ingest/search", key, body);
      expect(r.status, show(r)).toBe(422);
      expect(r.headers.get("content-type")).toStartWith("application/problem+json");
      expect(JSON.stringify(r.body.errors), show(r)).toContain(field);
    }
    const unknownDataset = await call("POST", "/v1/ingest/search", key, {
      agent_id: "scout",
      query: "x",
      dataset_id: "ds_nope",
    });
    expect(unknownDataset.status, show(unknownDataset)).toBeGreaterThanOrEqual(400);
    expect(unknownDataset.status).toBeLessThan(500);

    const mine = await call("POST", "/v1/ingest/search", key, {
      agent_id: "scout",
      query: "tides only",
      max_results: 1,
    });
    expect(mine.status).toBe(202);
    expect((await call("GET", `/v1/ingest/search/${mine.body.batch_id}`, key)).status).toBe(200);
    const theirs = await call("GET", `/v1/ingest/search/${mine.body.batch_id}`, otherKey);
    expect(theirs.status, show(theirs)).toBe(404);
    expect(theirs.text).not.toContain("tides only");
    expect((await call("GET", "/v1/ingest/search/batch_junk", key)).status).toBe(404);
    await settledBatch(call, key, mine.body.batch_id);
  }, 90_000);
}

describe("web search ingest on PostgreSQL", () => {
  let app: IngestApp;
  let fake: ReturnType<typeof startFakeBrave>;
  let key: string;
  let otherKey: string;
  beforeAll(async () => {
    fake = startFakeBrave();
    app = await ingestApp("websearch", {
      WEBSEARCH_API_KEY: API_KEY,
      WEBSEARCH_BASE_URL: `${fake.base}/res/v1`,
      INGEST_FETCH_ALLOW_CIDRS: "127.0.0.1/32",
      DISTILL_ENABLED: false,
    });
    key = (await app.t.tenant("websearch")).key;
    otherKey = (await app.t.tenant("websearch-other")).key;
  });
  afterAll(async () => {
    await app.close();
    fake.server.stop(true);
  });
  searchCases(() => ({
    call: (method, url, as, body) => app.t.request(method, url, { key: as, body }),
    key,
    otherKey,
    fake,
  }));

  test("a tenant whose token budget is spent gets a failed batch (budget-exceeded) and the provider is not called", async () => {
    const spender = await app.t.tenant("websearch-budget");
    const stored = await app.t.request("POST", "/v1/memories", {
      key: spender.key,
      body: { agent_id: "scout", content: "Spending a few embedding tokens first." },
    });
    expect(stored.status, show(stored)).toBe(201);
    const put = await app.t.request("PUT", "/v1/tenants/me/budgets", {
      key: spender.key,
      body: { daily_tokens: 1 },
    });
    expect(put.status, show(put)).toBe(200);
    const calls = fake.requests.length;
    const call: Call = (method, url, as, body) => app.t.request(method, url, { key: as, body });
    const r = await call("POST", "/v1/ingest/search", spender.key, {
      agent_id: "scout",
      query: "skerryvore lighthouse",
    });
    expect(r.status, show(r)).toBe(202);
    const batch = await settledBatch(call, spender.key, r.body.batch_id);
    expect(batch, JSON.stringify(batch)).toMatchObject({
      state: "failed",
      failure_reason: "budget-exceeded",
      results: [],
    });
    expect(fake.requests.length).toBe(calls);
  }, 60_000);

  test("a dataset deleted while the provider answers fails the batch as dataset-deleted, with no children", async () => {
    const owner = await app.t.tenant("websearch-dataset");
    const ds = await app.t.request("POST", "/v1/datasets", {
      key: owner.key,
      body: { name: "doomed" },
    });
    expect(ds.status, show(ds)).toBe(201);
    const release = fake.hold();
    const asked = fake.requests.length;
    const call: Call = (method, url, as, body) => app.t.request(method, url, { key: as, body });
    const r = await call("POST", "/v1/ingest/search", owner.key, {
      agent_id: "scout",
      dataset_id: ds.body.dataset_id,
      query: "skerryvore lighthouse",
    });
    expect(r.status, show(r)).toBe(202);
    await eventually(async () => fake.requests.length > asked, "the provider to be asked");
    expect(
      (await app.t.request("DELETE", `/v1/datasets/${ds.body.dataset_id}`, { key: owner.key }))
        .status,
    ).toBe(200);
    release();
    const batch = await settledBatch(call, owner.key, r.body.batch_id);
    expect(batch, JSON.stringify(batch)).toMatchObject({
      state: "failed",
      failure_reason: "dataset-deleted",
      results: [],
      counts: { queued: 0, succeeded: 0 },
    });
  }, 60_000);

  test("a wrong subscription token is a failed batch that names the variable to check", async () => {
    const wrong = await ingestApp("websearch-wrong", {
      WEBSEARCH_API_KEY: "not-the-token",
      WEBSEARCH_BASE_URL: `${fake.base}/res/v1`,
      DISTILL_ENABLED: false,
    });
    try {
      const tenantKey = (await wrong.t.tenant("websearch-wrong")).key;
      const call: Call = (method, url, as, body) => wrong.t.request(method, url, { key: as, body });
      const r = await call("POST", "/v1/ingest/search", tenantKey, {
        agent_id: "scout",
        query: "anything",
      });
      expect(r.status, show(r)).toBe(202);
      const batch = await settledBatch(call, tenantKey, r.body.batch_id);
      expect(batch).toMatchObject({ state: "failed", failure_reason: "search-failed" });
      expect(batch.error).toContain("WEBSEARCH_API_KEY");
    } finally {
      await wrong.close();
    }
  }, 60_000);
});

describe("web search ingest in embedded mode", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "svc-embedded-websearch-"));
  let deps: Deps;
  let worker: RunningWorker;
  let handle: (r: Request) => Promise<Response>;
  let fake: ReturnType<typeof startFakeBrave>;
  let key: string;
  let otherKey: string;
  const call: Call = async (method, url, as, body) => {
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
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* non-JSON stays text */
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
  beforeAll(async () => {
    fake = startFakeBrave();
    const config = loadConfig({}, {
      SVC_DATA_DIR: dataDir,
      LOG_LEVEL: "error",
      EMBEDDING_DIMENSIONS: 128,
      RATE_LIMIT_ENABLED: false,
      INGEST_ENABLED: true,
      DISTILL_ENABLED: false,
      WEBSEARCH_API_KEY: API_KEY,
      WEBSEARCH_BASE_URL: `${fake.base}/res/v1`,
      INGEST_FETCH_ALLOW_CIDRS: "127.0.0.1/32",
    } as Partial<Config>);
    await seedEmbeddedDataDir(dataDir); // a migrated copy: no initdb per file
    deps = await openDeps(config, {
      log: createLogger("error"),
      applicationName: "svc-embedded-websearch",
    });
    await migrate(deps.db.primary);
    handle = handleRequest(createApp(deps), deps);
    worker = await startWorker(deps);
    key = (
      await createKey(deps.db, systemActor(await ensureOrg(deps.db, "embedded-websearch")), "test")
    ).key;
    otherKey = (
      await createKey(
        deps.db,
        systemActor(await ensureOrg(deps.db, "embedded-websearch-other")),
        "test",
      )
    ).key;
  }, 60_000);
  afterAll(async () => {
    await worker.close();
    await closeDeps(deps);
    fake.server.stop(true);
    rmSync(dataDir, { recursive: true, force: true });
  });
  test("the database is embedded", () => expect(deps.db.kind).toBe("embedded"));
  searchCases(() => ({ call, key, otherKey, fake }));
});
