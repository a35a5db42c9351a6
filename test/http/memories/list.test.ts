// GET /v1/memories and GET /v1/agents on PostgreSQL; the scenario is shared with embedded mode.
import { afterAll, beforeAll, describe } from "bun:test";
import { testApp, type TestApp } from "../../harness/app";
import { listScenario } from "./list-scenario";

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ INGEST_ENABLED: true });
});
afterAll(() => t.close());

describe("listing memories and agents (PostgreSQL)", () => {
  listScenario(() => ({ app: t, tenant: (name) => t.tenant(name) }));
});
