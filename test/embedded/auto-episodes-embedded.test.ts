// AUTO's episode signal on PGlite (embedded mode): the cases of
// test/http/recall/auto-episodes.test.ts.
import { afterAll, beforeAll, test } from "bun:test";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import type { Tenant } from "../harness/app";
import * as cases from "../http/recall/auto-episodes-cases";

let e: EmbeddedApp;
let tenant: Tenant;

beforeAll(async () => {
  e = await embeddedApp("auto-episodes");
  tenant = await e.tenant("embedded-auto-episodes");
}, 120_000);
afterAll(() => e.close());

test("AUTO on PGlite: a turn of the session matching the question outranks a better lone match", () =>
  cases.bestEpisodeLiftsItsTurn(e.app, tenant));
test("AUTO on PGlite: memories stored without occurred_at get no episode lift", () =>
  cases.undatedMemoriesGetNoLift(e.app, tenant));
test("AUTO on PGlite: the turns of one conversation are one episode", () =>
  cases.conversationIsAnEpisode(e.app, tenant));
