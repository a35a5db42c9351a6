// A server on PostgreSQL with EMBEDDING_PROVIDER=onnx on the tiny test model serves VECTOR recall.
import { afterAll, beforeAll, test } from "bun:test";
import { rmSync } from "node:fs";
import { ensureVectorIndex } from "../../../src/data/queries/memories/vector-index";
import { testApp, type TestApp } from "../../harness/app";
import { onnxRecallScenario } from "../../harness/onnx-recall-scenario";
import { writeTinyModelDir } from "../../harness/tiny-bert-model";

const modelDir = writeTinyModelDir({ dims: 24, pooling: "mean" });
let t: TestApp;
beforeAll(async () => {
  t = await testApp({ EMBEDDING_PROVIDER: "onnx", EMBEDDING_MODEL_PATH: modelDir });
  await ensureVectorIndex(t.owner, t.config.EMBEDDING_DIMENSIONS);
});
afterAll(async () => {
  await t.close();
  rmSync(modelDir, { recursive: true, force: true });
});

test("store and VECTOR recall through HTTP rank as the model's cosine similarities", async () => {
  await onnxRecallScenario(t, await t.tenant("onnx-vector"), modelDir);
});
