// The switch from the local hash embedder to EMBEDDING_PROVIDER=onnx (the tiny test model), run the
// same way on PostgreSQL and on PGlite: recall keeps answering from the local vectors while the
// model's are built, with requests running all along and none failing, a store meanwhile is found
// at once, and after the switch every vector is the model's and the ranking is the model's cosine
// similarities.
import { expect } from "bun:test";
import { withTenant } from "../../src/data/with-tenant";
import { advanceEmbeddings } from "../../src/domain/memories/reembed";
import { prepareEmbeddingGenerations } from "../../src/domain/memories/reembed-boot";
import { createOnnxEmbedder } from "../../src/providers/embeddings/onnx";
import type { Tenant } from "./app";
import { ONNX_CONTENTS } from "./onnx-recall-scenario";
import type { ScenarioApp } from "./reembed-scenario";

export const ONNX_SWITCH_DIMS = 16;

type Result = { memory_id: string; content: string };

/**
 * `openA` starts the app on the local embedder (GEN_A); `openB` on the model directory, on the same
 * database. A is closed before B opens (PGlite admits one process).
 */
export async function onnxSwitchScenario(
  openA: () => Promise<ScenarioApp>,
  openB: () => Promise<ScenarioApp>,
  modelDir: string,
) {
  const a = await openA();
  const tenant: Tenant = await a.tenant();
  // Distinct texts (a number each), so no two memories tie in either generation.
  const contents = Array.from({ length: 5 }, (_, round) =>
    ONNX_CONTENTS.map((c, i) => `${c} ${round * 10 + i}`),
  ).flat();
  const stored = await a.app.request("POST", "/v1/memories/batch", {
    key: tenant.key,
    body: { memories: contents.map((content) => ({ agent_id: "ops", content })) },
  });
  expect(stored.status, stored.text).toBe(201);
  await a.close?.();

  const b = await openB();
  try {
    expect(b.app.config.EMBEDDING_DIMENSIONS).toBe(ONNX_SWITCH_DIMS);
    await b.ensureIndex(ONNX_SWITCH_DIMS);
    await prepareEmbeddingGenerations(b.deps);
    const recall = async (): Promise<Result[]> => {
      const res = await b.app.request("POST", "/v1/memories/recall", {
        key: tenant.key,
        body: { agent_id: "ops", query: "the kafka broker", strategy: "VECTOR", top_k: 3 },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.strategy).toBe("VECTOR");
      expect(res.body.routing.degraded_from).toBeUndefined();
      return res.body.results;
    };
    expect((await recall()).length).toBe(3);

    const fresh = await b.app.request("POST", "/v1/memories", {
      key: tenant.key,
      body: { agent_id: "ops", content: "unbelievable grafana pager" },
    });
    expect(fresh.status, fresh.text).toBe(201);
    expect(fresh.body.embedding_status).toBe("ready");

    const ids = (results: Result[]) => results.map((r) => r.memory_id);
    const fromLocal = ids(await recall());
    // Requests run all along the re-embed, in small batches, until the tenant switches.
    let switched = false;
    let requests = 0;
    const load = (async () => {
      while (!switched) {
        await recall();
        requests++;
      }
    })();
    expect((await advanceEmbeddings(b.deps, tenant.orgId, 8, 1)).reembed).toMatchObject({
      switched: false,
      done: 8,
      total: 41,
    });
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
    const [state] = await withTenant(
      b.deps.db,
      tenant.orgId,
      (tx) => tx<{ onnx: number; other: number }[]>`
      SELECT count(*) FILTER (WHERE embedding_model = ${b.deps.embeddings.configured.model} AND embedding_dims = ${ONNX_SWITCH_DIMS})::int AS onnx,
             count(*) FILTER (WHERE embedding_model IS DISTINCT FROM ${b.deps.embeddings.configured.model})::int AS other
      FROM memories WHERE valid_to IS NULL`,
    );
    expect(state).toEqual({ onnx: 41, other: 0 });
  } finally {
    await b.close?.();
  }
}
