// Zero-downtime re-embed on PostgreSQL (test/harness/reembed-scenario.ts), and the switch seen by a
// second API replica whose cache still names the old generation: its empty VECTOR answer is
// re-checked and the query embedded again, so it never answers from the wrong vectors.
import { afterAll, expect, test } from "bun:test";
import { advanceEmbeddings } from "../../../src/domain/memories/reembed";
import { prepareEmbeddingGenerations } from "../../../src/domain/memories/reembed-boot";
import { ensureVectorIndex } from "../../../src/data/queries/memories/vector-index";
import { testApp, type TestApp } from "../../harness/app";
import { startFakeEmbeddingServer } from "../../harness/fake-embedding-server";
import { contents, GEN_A, genB, reembedScenario } from "../../harness/reembed-scenario";

const apps: TestApp[] = [];
const open = async (overrides: Record<string, unknown>) => {
  const app = await testApp(overrides);
  apps.push(app);
  return {
    app,
    deps: app.deps,
    tenant: () => app.tenant("reembed"),
    ensureIndex: (dims: number) => ensureVectorIndex(app.owner, dims),
  };
};
afterAll(async () => {
  for (const app of apps) await app.close();
});

test("store under A, restart on B: recall answers from A until B is complete, progress on /v1/ready and /metrics, then B", async () => {
  await reembedScenario(
    () => open(GEN_A),
    (baseUrl) => open(genB(baseUrl)),
  );
}, 60_000);

test("a replica whose cached generation went stale at the switch re-embeds the query instead of answering empty", async () => {
  const server = startFakeEmbeddingServer({ dims: 48 });
  try {
    const a = await open(GEN_A);
    const tenant = await a.tenant();
    const stored = await a.app.request("POST", "/v1/memories/batch", {
      key: tenant.key,
      body: { memories: contents().map((content) => ({ agent_id: "ops", content })) },
    });
    expect(stored.status).toBe(201);
    const worker = await open(genB(server.baseUrl));
    const replica = await open(genB(server.baseUrl));
    await worker.ensureIndex(48);
    await prepareEmbeddingGenerations(worker.deps);
    const recall = () =>
      replica.app.request("POST", "/v1/memories/recall", {
        key: tenant.key,
        body: { agent_id: "ops", query: "grafana runbook", strategy: "VECTOR", top_k: 3 },
      });
    expect((await recall()).body.results[0].content).toContain("grafana"); // the replica caches A now
    expect((await advanceEmbeddings(worker.deps, tenant.orgId, 100, 5)).reembed?.switched).toBe(
      true,
    );
    const res = await recall();
    expect(res.status).toBe(200);
    expect(res.body.strategy).toBe("VECTOR");
    expect(res.body.results[0].content).toContain("grafana");
    expect(server.requests.some((r) => r.input[0] === "grafana runbook")).toBe(true);
  } finally {
    server.stop();
  }
}, 60_000);
