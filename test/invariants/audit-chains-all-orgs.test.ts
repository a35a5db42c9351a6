// After whatever ran before this file in the same `bun test` process (one database per run), every
// org's audit chain drains and verifies from genesis against its head.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { listOrgIds } from "../../src/data/queries/orgs";
import { withSystem } from "../../src/data/with-system";
import { drainAudit } from "../../src/domain/audit/drain";
import { verifyOrgChain } from "../../src/domain/audit/list";
import { testApp, type TestApp } from "../harness/app";

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
  await t.tenant("chains");
});
afterAll(() => t.close());

test("every org's chain verifies", async () => {
  await drainAudit(t.deps.db, {});
  const orgIds = await withSystem(t.deps.db, listOrgIds);
  expect(orgIds.length).toBeGreaterThan(0);
  const broken = [];
  for (const orgId of orgIds) {
    const verdict = await verifyOrgChain(t.deps.db, orgId);
    if (!verdict.ok) broken.push({ orgId, ...verdict.firstBroken });
  }
  expect(broken).toEqual([]);
});
