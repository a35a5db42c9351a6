// How large each tenant's share is when the operator sets none (issue 23): heavy operations keep a
// database core busy each, so one tenant holds at most half the database's cores (and a fifth of
// the pool); the 2-core host of the noisy-neighbour benchmark gets one heavy slot, not two.
import { expect, test } from "bun:test";
import { tenantShareOf } from "../../src/app/build-deps";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";

const limitsOf = (overrides: Partial<Config>, kind: "postgres" | "embedded" = "postgres") =>
  tenantShareOf(
    loadConfig({}, { DATABASE_URL: "postgres://x@127.0.0.1/x", ...overrides } as Partial<Config>),
    { kind },
  ).limits;

test("heavy work holds at most half the database's cores, and a fifth of the pool", () => {
  expect(limitsOf({ DATABASE_POOL_MAX: 10, DATABASE_CPU_CORES: 2 }).heavyPerTenant).toBe(1);
  expect(limitsOf({ DATABASE_POOL_MAX: 10, DATABASE_CPU_CORES: 8 }).heavyPerTenant).toBe(2);
  expect(limitsOf({ DATABASE_POOL_MAX: 40, DATABASE_CPU_CORES: 8 }).heavyPerTenant).toBe(4);
  expect(limitsOf({ DATABASE_POOL_MAX: 10, DATABASE_CPU_CORES: 1 }).heavyPerTenant).toBe(1);
  expect(limitsOf({ DATABASE_POOL_MAX: 10 }, "embedded").heavyPerTenant).toBe(1);
});

test("an operator's setting wins over the cores", () => {
  const set = { DATABASE_POOL_MAX: 10, DATABASE_CPU_CORES: 2, TENANT_HEAVY_CONCURRENCY: 3 };
  expect(limitsOf(set).heavyPerTenant).toBe(3);
  expect(limitsOf({ DATABASE_POOL_MAX: 10, DATABASE_CPU_CORES: 2 }).perTenant).toBe(5);
});

test("heavy time: a tenth of the database's cores per tenant unless the operator sets it", () => {
  expect(limitsOf({ DATABASE_CPU_CORES: 2 }).heavyMsPerSecond).toBe(200);
  expect(limitsOf({ DATABASE_CPU_CORES: 8 }).heavyMsPerSecond).toBe(800);
  expect(limitsOf({ DATABASE_CPU_CORES: 2, TENANT_HEAVY_CPU_SHARE: 0.5 }).heavyMsPerSecond).toBe(
    1000,
  );
});
