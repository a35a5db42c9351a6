// AUTO as one fused pipeline on PostgreSQL (cases in auto-fused-cases.ts; PGlite:
// test/embedded/auto-fused-embedded.test.ts).
import { afterAll, beforeAll, test } from "bun:test";
import { testApp, type Tenant, type TestApp } from "../../harness/app";
import {
  MISREAD,
  misreadQueryStillAnswers,
  retrieversAreNamed,
  seedMisreadAgents,
  type Seeded,
} from "./auto-fused-cases";

let t: TestApp;
let tenant: Tenant;
let seeded: Seeded;

beforeAll(async () => {
  t = await testApp();
  tenant = await t.tenant("auto-fused");
  seeded = await seedMisreadAgents(t, tenant);
});
afterAll(() => t.close());

for (const ask of MISREAD) {
  test(`AUTO: ${JSON.stringify(ask.query)} finds its answer`, () =>
    misreadQueryStillAnswers(t, tenant, seeded, ask));
}
test("AUTO: each result names its retrievers, in the response and the stream", () =>
  retrieversAreNamed(t, tenant));
