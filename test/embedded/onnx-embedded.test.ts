// Embedded mode (PGlite) with EMBEDDING_PROVIDER=onnx on the tiny test model serves VECTOR recall.
import { afterAll, beforeAll, test } from "bun:test";
import { rmSync } from "node:fs";
import { ensureVectorIndex } from "../../src/data/queries/memories/vector-index";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import { onnxRecallScenario } from "../harness/onnx-recall-scenario";
import { writeTinyModelDir } from "../harness/tiny-bert-model";

const DIMS = 24;
const modelDir = writeTinyModelDir({ dims: DIMS, pooling: "mean" });
let e: EmbeddedApp;
beforeAll(async () => {
  e = await embeddedApp("onnx", {
    EMBEDDING_PROVIDER: "onnx",
    EMBEDDING_MODEL_PATH: modelDir,
    EMBEDDING_DIMENSIONS: DIMS,
  });
  await ensureVectorIndex(e.deps.db.primary, DIMS);
});
afterAll(async () => {
  await e.close();
  rmSync(modelDir, { recursive: true, force: true });
});

test("store and VECTOR recall through HTTP rank as the model's cosine similarities", async () => {
  await onnxRecallScenario(e.app, await e.tenant("onnx-embedded"), modelDir);
});
