// AUTO as one fused pipeline on PGlite (embedded mode): the same cases as
// test/http/recall/auto-fused.test.ts.
import { afterAll, beforeAll, test } from "bun:test";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import type { Tenant } from "../harness/app";
import {
  MISREAD,
  misreadQueryStillAnswers,
  retrieversAreNamed,
  seedMisreadAgents,
  type Seeded,
} from "../http/recall/auto-fused-cases";

let e: EmbeddedApp;
let tenant: Tenant;
let seeded: Seeded;

beforeAll(async () => {
  e = await embeddedApp("auto-fused");
  tenant = await e.tenant("embedded-auto-fused");
  seeded = await seedMisreadAgents(e.app, tenant);
}, 120_000);
afterAll(() => e.close());

for (const ask of MISREAD) {
  test(`AUTO on PGlite: ${JSON.stringify(ask.query)} finds its answer`, () =>
    misreadQueryStillAnswers(e.app, tenant, seeded, ask));
}
test("AUTO on PGlite: each result names its retrievers", () => retrieversAreNamed(e.app, tenant));
