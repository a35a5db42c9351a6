// Neighbouring turns on PostgreSQL (cases in neighbours-cases.ts).
import { afterAll, beforeAll, test } from "bun:test";
import { testApp, type Tenant, type TestApp } from "../../harness/app";
import { neighboursAreAttached } from "./neighbours-cases";

let t: TestApp;
let tenant: Tenant;

beforeAll(async () => {
  t = await testApp();
  tenant = await t.tenant("neighbours");
});
afterAll(() => t.close());

test("context.neighbours attaches the turns around each recalled turn", () =>
  neighboursAreAttached(t, tenant));
