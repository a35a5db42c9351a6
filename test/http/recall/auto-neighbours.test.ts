// AUTO's neighbouring-turn signal on PostgreSQL (cases in auto-neighbours-cases.ts; PGlite:
// test/embedded/auto-neighbours-embedded.test.ts).
import { afterAll, beforeAll, test } from "bun:test";
import { testApp, type Tenant, type TestApp } from "../../harness/app";
import { neighbourOfMatchRanksHigher } from "./auto-neighbours-cases";

let t: TestApp;
let tenant: Tenant;

beforeAll(async () => {
  t = await testApp();
  tenant = await t.tenant("auto-neighbours");
});
afterAll(() => t.close());

test("AUTO: the reply next to the matching turn outranks a loose memory as good on its own", () =>
  neighbourOfMatchRanksHigher(t, tenant));
