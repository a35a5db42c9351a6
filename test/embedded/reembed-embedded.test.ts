// Zero-downtime re-embed on PGlite (embedded mode): the same scenario as on PostgreSQL, with the
// app closed on generation A and reopened on the same data directory with generation B.
import { afterAll, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureVectorIndex } from "../../src/data/queries/memories/vector-index";
import { embeddedApp } from "../harness/embedded-app";
import { GEN_A, genB, reembedScenario } from "../harness/reembed-scenario";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-reembed-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const open = async (label: string, overrides: Record<string, unknown>) => {
  const e = await embeddedApp(label, { SVC_DATA_DIR: dataDir, ...overrides });
  let n = 0;
  return {
    app: e.app,
    deps: e.deps,
    tenant: () => e.tenant(`reembed-${++n}`),
    close: () => e.close(),
    ensureIndex: (dims: number) => ensureVectorIndex(e.deps.db.primary, dims),
  };
};

test("store under A, reopen on B: recall answers from A until B is complete, progress on /v1/ready and /metrics, then B", async () => {
  await reembedScenario(
    () => open("reembed-a", GEN_A),
    (baseUrl) => open("reembed-b", genB(baseUrl)),
  );
}, 120_000);
