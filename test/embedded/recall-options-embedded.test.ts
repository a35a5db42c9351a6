// Fusion and neighbouring turns on PGlite (embedded mode): the same cases as
// test/http/recall/fusion.test.ts and neighbours.test.ts.
import { afterAll, beforeAll, test } from "bun:test";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import type { Tenant } from "../harness/app";
import { fusedOrderIsReciprocalRank } from "../http/recall/fusion-cases";
import { neighboursAreAttached } from "../http/recall/neighbours-cases";

let e: EmbeddedApp;
let tenant: Tenant;

beforeAll(async () => {
  e = await embeddedApp("fusion");
  tenant = await e.tenant("embedded-fusion");
}, 120_000);
afterAll(() => e.close());

test("fusion on PGlite: the order is reciprocal rank over the listed strategies", () =>
  fusedOrderIsReciprocalRank(e.app, tenant));
test("context.neighbours on PGlite attaches the turns around each recalled turn", () =>
  neighboursAreAttached(e.app, tenant));
