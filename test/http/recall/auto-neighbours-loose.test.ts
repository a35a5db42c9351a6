// AUTO's neighbour signal for loose memories, and the filters on both paths, on PostgreSQL (cases
// in auto-neighbours-loose-cases.ts; PGlite: test/embedded/auto-neighbours-loose-embedded.test.ts).
import { afterAll, beforeAll, test } from "bun:test";
import { testApp, type Tenant, type TestApp } from "../../harness/app";
import * as cases from "./auto-neighbours-loose-cases";

let t: TestApp;
let tenant: Tenant;

beforeAll(async () => {
  t = await testApp();
  tenant = await t.tenant("auto-neighbours-loose");
});
afterAll(() => t.close());

test("AUTO: a loose memory stored next to the match in its episode outranks a lone one", () =>
  cases.looseEpisodeNeighbourRanksHigher(t, tenant));
test("AUTO: memories of other episodes, or of none, get no neighbour lift", () =>
  cases.otherOrNoEpisodeGetsNoLift(t, tenant));
test("AUTO: a loose neighbour excluded by a metadata or type filter never appears", () =>
  cases.filtersApplyToLooseNeighbours(t, tenant));
test("AUTO: a neighbouring turn excluded by a metadata filter never appears", () =>
  cases.filtersApplyToNeighbourTurns(t, tenant));
