// AUTO's neighbouring-turn signal on PGlite (embedded mode): the case of
// test/http/recall/auto-neighbours.test.ts.
import { afterAll, beforeAll, test } from "bun:test";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import type { Tenant } from "../harness/app";
import { neighbourOfMatchRanksHigher } from "../http/recall/auto-neighbours-cases";

let e: EmbeddedApp;
let tenant: Tenant;

beforeAll(async () => {
  e = await embeddedApp("auto-neighbours");
  tenant = await e.tenant("embedded-auto-neighbours");
}, 120_000);
afterAll(() => e.close());

test("AUTO on PGlite: the reply next to the matching turn outranks a loose memory as good on its own", () =>
  neighbourOfMatchRanksHigher(e.app, tenant));
