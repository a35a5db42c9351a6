// The zero-downtime re-embed, run the same way on PostgreSQL and on PGlite: memories stored under
// generation A (the local hash embedder, 64 dimensions), then the app restarted on generation B (an
// OpenAI-compatible server without a key, a model name with a slash, 48 dimensions). Recall keeps
// answering from A (its query embedded by A) while B is built, readiness and metrics show the
// progress, a store during the re-embed is found at once, and after the switch recall reads B.
import { expect } from "bun:test";
import type { Deps } from "../../src/operations/deps";
import { withTenant } from "../../src/data/with-tenant";
import { advanceEmbeddings } from "../../src/domain/memories/reembed";
import { prepareEmbeddingGenerations } from "../../src/domain/memories/reembed-boot";
import type { Tenant, TestApp } from "./app";
import { startFakeEmbeddingServer } from "./fake-embedding-server";

export const GEN_A = { EMBEDDING_PROVIDER: "local", EMBEDDING_DIMENSIONS: 64 } as const;
export const MODEL_B = "BAAI/bge-small-en-v1.5";
export const genB = (baseUrl: string) => ({
  EMBEDDING_BASE_URL: baseUrl,
  EMBEDDING_MODEL: MODEL_B,
  EMBEDDING_DIMENSIONS: 48,
  EMBEDDING_MAX_RETRIES: 0,
});

export type ScenarioApp = {
  app: TestApp;
  deps: Deps;
  tenant(): Promise<Tenant>;
  close?(): Promise<void>;
  /** Builds the HNSW index for a dimension as the owner (what `svc serve` does at boot). */
  ensureIndex(dims: number): Promise<void>;
};

const TOPICS = [
  "vault",
  "pager",
  "kafka",
  "grafana",
  "terraform",
  "backup",
  "billing",
  "oncall",
  "release",
  "latency",
];
export const contents = () =>
  TOPICS.flatMap((topic, i) =>
    [0, 1, 2].map(
      (k) => `Note ${i * 3 + k}: the ${topic} runbook, step ${k}, owned by team ${topic}-${k}`,
    ),
  );

const recall = async (t: ScenarioApp, tenant: Tenant, query: string) => {
  const res = await t.app.request("POST", "/v1/memories/recall", {
    key: tenant.key,
    body: { agent_id: "ops", query, strategy: "VECTOR", top_k: 3 },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as {
    results: Array<{ memory_id: string; content: string }>;
    strategy: string;
    routing: { degraded_from?: string };
  };
};

type Generation = { model: string; dims: number };
type Progress = {
  serving: Array<Generation & { tenants: number }>;
  reembed: Array<{
    from: Generation;
    to: Generation;
    done: number;
    total: number;
    tenants: number;
  }>;
};
const A = { model: "svc-local-hash-v1-64", dims: 64 };
const B = { model: "BAAI/bge-small-en-v1.5", dims: 48 };
const same = (x: Generation, y: Generation) => x.model === y.model && x.dims === y.dims;
const metric = (text: string, name: string, g: Generation) =>
  Number(
    new RegExp(
      `^${name}\\{model="${g.model.replace(/[.]/g, "\\.")}",dims="${g.dims}"\\} (\\d+)$`,
      "m",
    ).exec(text)?.[1] ?? NaN,
  );

const ready = async (t: ScenarioApp) => {
  await Bun.sleep(1100); // the summary behind /v1/ready and /metrics is reused for a second
  const res = await t.app.request("GET", "/v1/ready");
  expect(res.status, res.text).toBe(200);
  return res.body.embeddings as Progress;
};

/** Runs the scenario; `openA`/`openB` start the app on the same database with generation A / B. */
export async function reembedScenario(
  openA: () => Promise<ScenarioApp>,
  openB: (baseUrl: string) => Promise<ScenarioApp>,
): Promise<void> {
  const server = startFakeEmbeddingServer({ dims: 48 });
  try {
    const a = await openA();
    const tenant = await a.tenant();
    const stored = await a.app.request("POST", "/v1/memories/batch", {
      key: tenant.key,
      body: { memories: contents().map((content) => ({ agent_id: "ops", content })) },
    });
    expect(stored.status, stored.text).toBe(201);
    const beforeSwitch = await recall(a, tenant, "kafka runbook");
    expect(beforeSwitch.results[0]!.content).toContain("kafka");
    await a.close?.();

    const b = await openB(server.baseUrl);
    await b.ensureIndex(48);
    await prepareEmbeddingGenerations(b.deps);
    const queriesSeen = () =>
      server.requests.filter((r) => r.input.length === 1 && r.input[0] === "kafka runbook").length;

    // B configured, nothing built yet: recall still answers from A, and B's server never saw the
    // query.
    const during = await recall(b, tenant, "kafka runbook");
    expect(during.strategy).toBe("VECTOR");
    expect(during.routing.degraded_from).toBeUndefined();
    expect(during.results.map((r) => r.memory_id)).toEqual(
      beforeSwitch.results.map((r) => r.memory_id),
    );
    expect(queriesSeen()).toBe(0);

    // One batch of 10: progress 10 of 30, A still serves.
    const step = await advanceEmbeddings(b.deps, tenant.orgId, 10, 1);
    expect(step.reembed).toMatchObject({ done: 10, total: 30, switched: false });
    // Deployment-wide figures: other tests' tenants may share this database, so this tenant is "at
    // least".
    let progress = await ready(b);
    const servingA = progress.serving.find((s) => same(s, A))!;
    expect(servingA.tenants).toBeGreaterThanOrEqual(1);
    const toB = progress.reembed.find((r) => same(r.from, A) && same(r.to, B))!;
    expect(toB.tenants).toBeGreaterThanOrEqual(1);
    expect(toB.done).toBeGreaterThanOrEqual(10);
    expect(toB.total).toBeGreaterThanOrEqual(30);
    expect(toB.total - toB.done).toBeGreaterThanOrEqual(20);
    const metrics = (await b.app.request("GET", "/metrics")).text;
    expect(metric(metrics, "svc_embedding_reembed_done", B)).toBe(
      progress.reembed.filter((r) => same(r.to, B)).reduce((n, r) => n + r.done, 0),
    );
    expect(metric(metrics, "svc_embedding_reembed_total", B)).toBe(
      progress.reembed.filter((r) => same(r.to, B)).reduce((n, r) => n + r.total, 0),
    );
    expect(metric(metrics, "svc_embedding_generation_tenants", A)).toBe(servingA.tenants);

    // A store during the re-embed is embedded with A and found at once.
    const fresh = await b.app.request("POST", "/v1/memories", {
      key: tenant.key,
      body: { agent_id: "ops", content: "The zookeeper runbook moved to the wiki" },
    });
    expect(fresh.status, fresh.text).toBe(201);
    expect(fresh.body.embedding_status).toBe("ready");
    expect((await recall(b, tenant, "zookeeper runbook")).results[0]!.memory_id).toBe(
      fresh.body.memory_id,
    );

    // The server stalls mid-run: recall keeps answering from A meanwhile.
    server.pause();
    const rest = advanceEmbeddings(b.deps, tenant.orgId, 10, 10);
    await Bun.sleep(200);
    expect((await recall(b, tenant, "kafka runbook")).results.map((r) => r.memory_id)).toEqual(
      beforeSwitch.results.map((r) => r.memory_id),
    );
    expect(queriesSeen()).toBe(0);
    server.resume();
    const finished = await rest;
    expect(finished.reembed).toMatchObject({ switched: true, done: 31, total: 31 });

    // Switched: the query is embedded by B and answered from B's vectors.
    const after = await recall(b, tenant, "kafka runbook");
    expect(queriesSeen()).toBe(1);
    expect(after.results[0]!.content).toContain("kafka");
    const settled = await ready(b);
    expect(settled.serving.find((s) => same(s, B))!.tenants).toBe(
      (progress.serving.find((s) => same(s, B))?.tenants ?? 0) + 1,
    );
    expect(settled.serving.find((s) => same(s, A))?.tenants ?? 0).toBe(servingA.tenants - 1);
    const [state] = await withTenant(
      b.deps.db,
      tenant.orgId,
      (tx) => tx<{ b: number; other: number; next: number }[]>`
      SELECT count(*) FILTER (WHERE embedding_model = ${MODEL_B} AND embedding_dims = 48)::int AS b,
             count(*) FILTER (WHERE embedding_model IS DISTINCT FROM ${MODEL_B})::int AS other,
             (SELECT count(*)::int FROM memory_embeddings_next) AS next
      FROM memories WHERE valid_to IS NULL`,
    );
    expect(state).toEqual({ b: 31, other: 0, next: 0 });
    // Idempotent: another run finds nothing to do.
    expect(await advanceEmbeddings(b.deps, tenant.orgId, 10, 10)).toEqual({
      embedded: 0,
      remaining: 0,
    });
    await b.close?.();
  } finally {
    server.stop();
  }
}
