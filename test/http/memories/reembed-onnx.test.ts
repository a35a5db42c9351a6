// A switch from the local hash embedder to EMBEDDING_PROVIDER=onnx (the tiny test model) on PostgreSQL:
// recall keeps answering from the local vectors while the model's are built, with requests running all
// along, a store meanwhile is found at once, and after the switch every vector is the model's.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { withTenant } from "../../../src/data/with-tenant";
import { ensureVectorIndex } from "../../../src/data/queries/memories-vector-index";
import { advanceEmbeddings } from "../../../src/domain/memories/reembed";
import { prepareEmbeddingGenerations } from "../../../src/domain/memories/reembed-boot";
import { createOnnxEmbedder } from "../../../src/providers/embeddings/onnx";
import { testApp, type TestApp } from "../../harness/app";
import { ONNX_CONTENTS } from "../../harness/onnx-recall-scenario";
import { GEN_A } from "../../harness/reembed-scenario";
import { writeTinyModelDir } from "../../harness/tiny-bert-model";

const modelDir = writeTinyModelDir({ dims: 16, pooling: "mean" });
const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
  rmSync(modelDir, { recursive: true, force: true });
});

test("local → onnx: no failed request during the re-embed, recall from the old vectors until the switch", async () => {
  const a = await testApp(GEN_A);
  apps.push(a);
  const tenant = await a.tenant("reembed-onnx");
  // Distinct texts (a number each), so no two memories tie in either generation.
  const contents = Array.from({ length: 5 }, (_, round) => ONNX_CONTENTS.map((c, i) => `${c} ${round * 10 + i}`)).flat();
  const stored = await a.request("POST", "/v1/memories/batch", { key: tenant.key, body: { memories: contents.map((content) => ({ agent_id: "ops", content })) } });
  expect(stored.status, stored.text).toBe(201);

  const b = await testApp({ EMBEDDING_PROVIDER: "onnx", EMBEDDING_MODEL_PATH: modelDir });
  apps.push(b);
  expect(b.config.EMBEDDING_DIMENSIONS).toBe(16);
  await ensureVectorIndex(b.owner, 16);
  await prepareEmbeddingGenerations(b.deps);
  const recall = async () => {
    const res = await b.request("POST", "/v1/memories/recall", { key: tenant.key, body: { agent_id: "ops", query: "the kafka broker", strategy: "VECTOR", top_k: 3 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.strategy).toBe("VECTOR");
    expect(res.body.routing.degraded_from).toBeUndefined();
    return res.body.results as Array<{ memory_id: string; content: string }>;
  };
  expect((await recall()).length).toBe(3);

  const fresh = await b.request("POST", "/v1/memories", { key: tenant.key, body: { agent_id: "ops", content: "unbelievable grafana pager" } });
  expect(fresh.status, fresh.text).toBe(201);
  expect(fresh.body.embedding_status).toBe("ready");

  const ids = (results: Array<{ memory_id: string }>) => results.map((r) => r.memory_id);
  const fromLocal = ids(await recall());
  // Requests run all along the re-embed, in small batches, until the tenant switches.
  let switched = false;
  let requests = 0;
  const load = (async () => {
    while (!switched) { await recall(); requests++; }
  })();
  expect((await advanceEmbeddings(b.deps, tenant.orgId, 8, 1)).reembed).toMatchObject({ switched: false, done: 8, total: 41 });
  expect(ids(await recall())).toEqual(fromLocal);
  const finished = await advanceEmbeddings(b.deps, tenant.orgId, 8, 10);
  switched = true;
  await load;
  expect(finished.reembed).toMatchObject({ switched: true, done: 41, total: 41 });
  expect(requests).toBeGreaterThan(0);

  // Switched: the ranking is the model's (its own cosine similarities, computed here).
  const model = createOnnxEmbedder(modelDir);
  const all = [...contents, "unbelievable grafana pager"];
  const [query] = (await model.embed(["the kafka broker"], { orgId: tenant.orgId })).vectors;
  const vectors = (await model.embed(all, { orgId: tenant.orgId })).vectors;
  const scores = vectors.map((v) => v.reduce((n, x, k) => n + x * query![k]!, 0));
  // (Numbers are [UNK] to the tiny model, so the five copies tie: compare scores, not texts.)
  const top = (await recall())[0]!.content;
  expect(scores[all.indexOf(top)]!).toBeCloseTo(Math.max(...scores), 5);
  const [state] = await withTenant(b.deps.db, tenant.orgId, (tx) => tx<{ onnx: number; other: number }[]>`
    SELECT count(*) FILTER (WHERE embedding_model = ${b.deps.embeddings.configured.model} AND embedding_dims = 16)::int AS onnx,
           count(*) FILTER (WHERE embedding_model IS DISTINCT FROM ${b.deps.embeddings.configured.model})::int AS other
    FROM memories WHERE valid_to IS NULL`);
  expect(state).toEqual({ onnx: 41, other: 0 });
}, 60_000);
