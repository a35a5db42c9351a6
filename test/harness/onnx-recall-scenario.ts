// VECTOR recall served by the onnx embedder on the tiny test model, through HTTP, the same on
// PostgreSQL and on PGlite: stores are embedded at once, and recall ranks as the model's own cosine
// similarities do.
import { expect } from "bun:test";
import { withTenant } from "../../src/data/with-tenant";
import { createOnnxEmbedder } from "../../src/providers/embeddings/onnx";
import type { Tenant, TestApp } from "./app";

export const ONNX_CONTENTS = [
  "The kafka broker",
  "the vault secret rotated",
  "Pager duty team",
  "grafana team",
  "unbelievable kafka runbook",
  "the cafe",
  "vault secrets, rotated!",
  "the pager runbook",
];

const cosine = (a: number[], b: number[]) => a.reduce((n, x, k) => n + x * b[k]!, 0);

export async function onnxRecallScenario(
  app: TestApp,
  tenant: Tenant,
  modelDir: string,
): Promise<void> {
  const stored = await app.request("POST", "/v1/memories/batch", {
    key: tenant.key,
    body: { memories: ONNX_CONTENTS.map((content) => ({ agent_id: "ops", content })) },
  });
  expect(stored.status, stored.text).toBe(201);
  const single = await app.request("POST", "/v1/memories", {
    key: tenant.key,
    body: { agent_id: "ops", content: "kafka broker team" },
  });
  expect(single.status, single.text).toBe(201);
  expect(single.body.embedding_status).toBe("ready");

  // The reference ranking: the same model, asked directly.
  const contents = [...ONNX_CONTENTS, "kafka broker team"];
  const reference = createOnnxEmbedder(modelDir);
  const ctx = { orgId: tenant.orgId };
  const generations = await withTenant(
    app.deps.db,
    tenant.orgId,
    (tx) => tx<{ model: string; dims: number }[]>`
    SELECT DISTINCT embedding_model AS model, embedding_dims AS dims FROM memories WHERE valid_to IS NULL`,
  );
  expect([...generations]).toEqual([{ model: reference.model, dims: reference.dimensions }]);
  for (const query of ["Kafka broker", "rotated vault secret", "pager runbook"]) {
    const [q] = (await reference.embed([query], ctx)).vectors;
    const memories = (await reference.embed(contents, ctx)).vectors;
    const expected = contents
      .map((content, i) => ({ content, score: cosine(q!, memories[i]!) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 3)
      .map((m) => m.content);
    const res = await app.request("POST", "/v1/memories/recall", {
      key: tenant.key,
      body: { agent_id: "ops", query, strategy: "VECTOR", top_k: 3 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.strategy).toBe("VECTOR");
    expect(res.body.routing.degraded_from).toBeUndefined();
    expect(res.body.results.map((r: { content: string }) => r.content)).toEqual(expected);
  }
}
