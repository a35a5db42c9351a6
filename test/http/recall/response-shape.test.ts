// What recall() returns is the response as documented, with nothing for the HTTP layer to drop: an
// outcome with a property the response schema does not have fails the schema's check, and every
// such response paid for an error report and a second check before the property was cleaned away
// (ASK's scored facts, and AUTO whenever its entity rule adds ASK). Both database modes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { systemActor } from "../../../src/domain/actor";
import { recall } from "../../../src/domain/recall/recall";
import type { StrategyName } from "../../../src/domain/recall/strategy";
import { RecallResponse } from "../../../src/operations/schemas/recall";
import type { Tenant, TestApp } from "../../harness/app";
import { twoTenantModes } from "../../harness/two-tenant-modes";
import { seedOrgChart } from "../../graph/cypher/org-chart";

const AGENT = "agent-response-shape";
const response = TypeCompiler.Compile(RecallResponse);
const CASES: Array<[StrategyName, string]> = [
  ["ASK", "Who is Alice's manager?"],
  ["AUTO", "Who is Alice's manager?"],
  ["GRAPH", "Who is Alice's manager?"],
  ["TRIPLET", "Where does Alice live?"],
  ["LEXICAL", "Alice Berlin"],
  ["VECTOR", "Alice Berlin"],
];

for (const mode of twoTenantModes("response-shape")) {
  describe(mode.name, () => {
    let t: TestApp;
    let a: Tenant;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({
        app: t,
        tenants: [a],
        close,
      } = await mode.open());
      await seedOrgChart(t, a, AGENT);
    }, 180_000);
    afterAll(() => close?.());

    for (const [strategy, query] of CASES)
      test(`${strategy}: "${query}" matches the response schema as returned`, async () => {
        const outcome = await recall(t.deps, systemActor(a.orgId), {
          agentId: AGENT,
          query,
          strategy,
        });
        expect(outcome.results.length).toBeGreaterThan(0);
        const errors = [...response.Errors(outcome)].map((e) => `${e.path}: ${e.message}`);
        expect(errors).toEqual([]);
      });
  });
}
