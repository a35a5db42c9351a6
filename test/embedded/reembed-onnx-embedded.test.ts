// A switch from the local hash embedder to EMBEDDING_PROVIDER=onnx on PGlite (embedded mode): the
// app closed on the local embedder and reopened on the same data directory with the tiny test
// model; no request fails during the re-embed (the scenario is shared with PostgreSQL).
import { afterAll, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureVectorIndex } from "../../src/data/queries/memories/vector-index";
import { embeddedApp } from "../harness/embedded-app";
import { ONNX_SWITCH_DIMS, onnxSwitchScenario } from "../harness/onnx-switch-scenario";
import { GEN_A } from "../harness/reembed-scenario";
import { writeTinyModelDir } from "../harness/tiny-bert-model";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-reembed-onnx-"));
const modelDir = writeTinyModelDir({ dims: ONNX_SWITCH_DIMS, pooling: "mean" });
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(modelDir, { recursive: true, force: true });
});

const open = async (label: string, overrides: Record<string, unknown>) => {
  const e = await embeddedApp(label, { SVC_DATA_DIR: dataDir, ...overrides });
  let n = 0;
  return {
    app: e.app,
    deps: e.deps,
    tenant: () => e.tenant(`reembed-onnx-${++n}`),
    close: () => e.close(),
    ensureIndex: (dims: number) => ensureVectorIndex(e.deps.db.primary, dims),
  };
};

test("local → onnx on PGlite: no failed request during the re-embed, recall from the old vectors until the switch", async () => {
  const onnx = {
    EMBEDDING_PROVIDER: "onnx",
    EMBEDDING_MODEL_PATH: modelDir,
    EMBEDDING_DIMENSIONS: ONNX_SWITCH_DIMS,
  };
  await onnxSwitchScenario(
    () => open("reembed-onnx-a", GEN_A),
    () => open("reembed-onnx-b", onnx),
    modelDir,
  );
}, 180_000);
