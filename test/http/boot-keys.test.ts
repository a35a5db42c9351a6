// Boot-time keys: SVC_API_KEY becomes the default org's bootstrap key; a development key is seeded
// only on loopback when no key exists; off loopback a live development key stops the boot.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { openPostgres, type Database } from "../../src/data/pools";
import { migrate } from "../../src/data/migrate";
import { ensureBootKeys, isLoopback } from "../../src/domain/keys/bootstrap";
import { hasKeyShape, hasValidChecksum } from "../../src/domain/keys/format";
import { databaseUrlFor, TEST_ADMIN_DATABASE_URL } from "../harness/env";
import { dropDatabase } from "../harness/databases";
import { testApp } from "../harness/app";

const name = `svc_boot_${process.pid}_${Date.now().toString(36)}`;
const admin = postgres(TEST_ADMIN_DATABASE_URL, { max: 1, onnotice: () => {} });
let db: Database;

beforeAll(async () => {
  await admin.unsafe(`CREATE DATABASE ${name}`);
  db = openPostgres(databaseUrlFor(name), undefined, {
    max: 2,
    statementTimeoutMs: 5000,
    applicationName: "svc-boot-test",
  });
  await migrate(db.primary);
});
afterAll(async () => {
  await db.close();
  await admin.end();
  await dropDatabase(name);
});

describe("boot keys", () => {
  test("loopback detection", () => {
    expect(["127.0.0.1", "127.1.2.3", "localhost", "::1"].every(isLoopback)).toBe(true);
    expect(["0.0.0.0", "10.0.0.1", "example.com", "::"].some(isLoopback)).toBe(false);
  });

  test("off loopback with no key: nothing is seeded", async () => {
    expect(await ensureBootKeys(db, { defaultOrg: "default", host: "0.0.0.0" })).toEqual({});
  });

  test("on loopback with no key: one development key, seeded once", async () => {
    const first = await ensureBootKeys(db, { defaultOrg: "default", host: "127.0.0.1" });
    expect(hasKeyShape(first.developmentKey!) && hasValidChecksum(first.developmentKey!)).toBe(
      true,
    );
    expect(
      (await ensureBootKeys(db, { defaultOrg: "default", host: "127.0.0.1" })).developmentKey,
    ).toBeUndefined();
  });

  test("off loopback, a live development key refuses to boot", async () => {
    expect(ensureBootKeys(db, { defaultOrg: "default", host: "0.0.0.0" })).rejects.toThrow(
      "development API key",
    );
  });

  test("SVC_API_KEY authenticates as the default org's bootstrap key", async () => {
    const bootstrap = "svc_sk_ThisIsMyOwnBootstrapKeyWithoutChecksum01";
    const t = await testApp({ SVC_API_KEY: bootstrap });
    try {
      const outcome = await ensureBootKeys(t.deps.db, {
        bootstrapKey: bootstrap,
        defaultOrg: `default-${name}`,
        host: "127.0.0.1",
      });
      await ensureBootKeys(t.deps.db, {
        bootstrapKey: bootstrap,
        defaultOrg: `default-${name}`,
        host: "127.0.0.1",
      });
      const r = await t.request("GET", "/v1/api-keys", { key: bootstrap });
      expect(r.status).toBe(200);
      expect(r.body.items.filter((k: { kind: string }) => k.kind === "bootstrap").length).toBe(1);
      expect(outcome.bootstrapOrgId).toBeString();
    } finally {
      await t.close();
    }
  });
});
