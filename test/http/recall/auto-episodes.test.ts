// AUTO's episode signal on PostgreSQL (cases in auto-episodes-cases.ts; PGlite:
// test/embedded/auto-episodes-embedded.test.ts).
import { afterAll, beforeAll, test } from "bun:test";
import { testApp, type Tenant, type TestApp } from "../../harness/app";
import * as cases from "./auto-episodes-cases";

let t: TestApp;
let tenant: Tenant;

beforeAll(async () => {
  t = await testApp();
  tenant = await t.tenant("auto-episodes");
});
afterAll(() => t.close());

test("AUTO: a turn of the session that matches the question outranks a better lone match", () =>
  cases.bestEpisodeLiftsItsTurn(t, tenant));
test("AUTO: memories stored without occurred_at get no episode lift", () =>
  cases.undatedMemoriesGetNoLift(t, tenant));
test("AUTO: the turns of one conversation are one episode", () =>
  cases.conversationIsAnEpisode(t, tenant));
