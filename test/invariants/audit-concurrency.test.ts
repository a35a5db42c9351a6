// Under concurrent writers and concurrent drains every acknowledged audit row lands in the chain
// exactly once, seq stays gapless and the chain verifies.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { withTenant, withTenantRead } from "../../src/data/with-tenant";
import { systemActor } from "../../src/domain/actor";
import { drainAudit } from "../../src/domain/audit/drain";
import { verifyOrgChain } from "../../src/domain/audit/list";
import { recordAudit } from "../../src/domain/audit/record";
import { testApp, type TestApp } from "../harness/app";

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ DATABASE_POOL_MAX: 20 });
});
afterAll(() => t.close());

test("rows appear exactly once under concurrent writers and concurrent drains", async () => {
  const orgs = [(await t.tenant("conc-a")).orgId, (await t.tenant("conc-b")).orgId];
  let writing = true;
  const writes = Array.from({ length: 8 }, async (_, w) => {
    for (let i = 0; i < 25; i++) {
      const orgId = orgs[(w + i) % 2]!;
      await withTenant(t.deps.db, orgId, (tx) =>
        recordAudit(tx, systemActor(orgId), [
          { operation: "store", targetIds: [`w${w}-i${i}-a`] },
          { operation: "store", targetIds: [`w${w}-i${i}-b`] },
        ]),
      );
    }
  });
  const drains = Array.from({ length: 4 }, async (_, d) => {
    while (writing)
      await drainAudit(
        t.deps.db,
        d % 2 === 0 ? { batchSize: 5 } : { orgId: orgs[d % 2 === 1 ? 1 : 0], batchSize: 3 },
      );
  });
  await Promise.all(writes);
  writing = false;
  await Promise.all(drains);
  await drainAudit(t.deps.db, {});

  const all: string[] = [];
  for (const orgId of orgs) {
    const rows = await withTenantRead(
      t.deps.db,
      orgId,
      (tx) => tx<{ seq: string; target: string }[]>`
      SELECT seq::text, target_ids[1] AS target FROM audit_log WHERE operation = 'store' ORDER BY audit_log.seq`,
    );
    all.push(...rows.map((r) => r.target));
    const pending = await withTenantRead(
      t.deps.db,
      orgId,
      (tx) => tx`SELECT count(*)::int AS n FROM audit_pending`,
    );
    expect(pending[0]!.n).toBe(0);
    const verdict = await verifyOrgChain(t.deps.db, orgId);
    expect(verdict.ok).toBe(true);
  }
  expect(all.length).toBe(8 * 25 * 2);
  expect(new Set(all).size).toBe(all.length);
}, 60_000);
