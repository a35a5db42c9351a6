// GET /v1/memories and GET /v1/agents on PGlite (embedded mode): the same scenario as PostgreSQL's.
import { afterAll, beforeAll, describe } from "bun:test";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import { listScenario } from "../http/memories/list-scenario";

let e: EmbeddedApp;
beforeAll(async () => {
  e = await embeddedApp("memories-list", { INGEST_ENABLED: true });
}, 60_000);
afterAll(() => e.close());

describe("listing memories and agents (embedded)", () => {
  listScenario(() => ({ app: e.app, tenant: (name) => e.tenant(name) }));
});
