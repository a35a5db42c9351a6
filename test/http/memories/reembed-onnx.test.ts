// A switch from the local hash embedder to EMBEDDING_PROVIDER=onnx (the tiny test model) on
// PostgreSQL: no failed request during the re-embed (the scenario is shared with PGlite,
// test/embedded/).
import { afterAll, test } from "bun:test";
import { rmSync } from "node:fs";
import { ensureVectorIndex } from "../../../src/data/queries/memories/vector-index";
import { testApp } from "../../harness/app";
import { ONNX_SWITCH_DIMS, onnxSwitchScenario } from "../../harness/onnx-switch-scenario";
import { GEN_A } from "../../harness/reembed-scenario";
import { writeTinyModelDir } from "../../harness/tiny-bert-model";

const modelDir = writeTinyModelDir({ dims: ONNX_SWITCH_DIMS, pooling: "mean" });
afterAll(() => rmSync(modelDir, { recursive: true, force: true }));

const open = async (overrides: Record<string, unknown>) => {
  const app = await testApp(overrides);
  let n = 0;
  return {
    app,
    deps: app.deps,
    tenant: () => app.tenant(`reembed-onnx-${++n}`),
    close: () => app.close(),
    ensureIndex: (dims: number) => ensureVectorIndex(app.owner, dims),
  };
};

test("local → onnx: no failed request during the re-embed, recall from the old vectors until the switch", async () => {
  await onnxSwitchScenario(
    () => open(GEN_A),
    () => open({ EMBEDDING_PROVIDER: "onnx", EMBEDDING_MODEL_PATH: modelDir }),
    modelDir,
  );
}, 60_000);
