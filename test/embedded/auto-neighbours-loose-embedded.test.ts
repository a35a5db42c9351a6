// AUTO's neighbour signal for loose memories, and the filters on both paths, on PGlite (embedded
// mode): the cases of test/http/recall/auto-neighbours-loose.test.ts.
import { afterAll, beforeAll, test } from "bun:test";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import type { Tenant } from "../harness/app";
import * as cases from "../http/recall/auto-neighbours-loose-cases";

let e: EmbeddedApp;
let tenant: Tenant;

beforeAll(async () => {
  e = await embeddedApp("auto-neighbours-loose");
  tenant = await e.tenant("embedded-auto-neighbours-loose");
}, 120_000);
afterAll(() => e.close());

test("AUTO on PGlite: a loose memory stored next to the match in its episode outranks a lone one", () =>
  cases.looseEpisodeNeighbourRanksHigher(e.app, tenant));
test("AUTO on PGlite: memories of other episodes, or of none, get no neighbour lift", () =>
  cases.otherOrNoEpisodeGetsNoLift(e.app, tenant));
test("AUTO on PGlite: a loose neighbour excluded by a metadata or type filter never appears", () =>
  cases.filtersApplyToLooseNeighbours(e.app, tenant));
test("AUTO on PGlite: a neighbouring turn excluded by a metadata filter never appears", () =>
  cases.filtersApplyToNeighbourTurns(e.app, tenant));
