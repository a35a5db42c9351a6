// Embedded mode drops superuser too (issue 15, item 5): `svc serve` migrates in PGlite's superuser
// session, then reopens the data directory as the svc_serving login, which is checked like a
// server's serving login. A serving login that is a superuser, has BYPASSRLS or owns a table is
// refused at boot.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  checkServingLogin,
  EMBEDDED_SERVING_LOGIN,
  openEmbeddedServing,
} from "../../src/app/database-roles";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";
import { openEmbedded } from "../../src/data/embedded";
import { migrate } from "../../src/data/migrate";
import { servingLoginProblems } from "../../src/data/serving-login";
import { runSvc } from "../harness/process";

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-roles-embedded-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const configFor = (dir: string) =>
  loadConfig({}, { SVC_DATA_DIR: dir, LOG_LEVEL: "warn" } as Partial<Config>);
const env = (dir: string) => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: process.env.HOME ?? "/tmp",
  SVC_DATA_DIR: dir,
  LOG_LEVEL: "warn",
  PORT: "0",
});

test("serve's embedded session is the non-superuser serving login, which passes the check", async () => {
  const config = configFor(freshDir());
  const { db, applied } = await openEmbeddedServing(config, "svc-test");
  try {
    expect(applied.length).toBeGreaterThan(0);
    const [who] =
      await db.primary`SELECT current_user AS login, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user`;
    expect(who).toEqual({ login: EMBEDDED_SERVING_LOGIN, rolsuper: false, rolbypassrls: false });
    expect((await servingLoginProblems(db.primary)).problems).toEqual([]);
    await checkServingLogin(db);
    await expect(db.primary`SELECT count(*) FROM memories`).rejects.toThrow(/permission denied/);
  } finally {
    await db.close();
  }
}, 120_000);

async function prepare(dir: string, sql: string): Promise<void> {
  const owner = await openEmbedded(dir, {
    statementTimeoutMs: 30_000,
    applicationName: "svc-test",
  });
  try {
    await migrate(owner.primary);
    await owner.primary.unsafe(sql);
  } finally {
    await owner.close();
  }
}

test("serve refuses an embedded serving login with BYPASSRLS", async () => {
  const dir = freshDir();
  await prepare(dir, `CREATE ROLE ${EMBEDDED_SERVING_LOGIN} LOGIN NOSUPERUSER BYPASSRLS`);
  const r = await runSvc(["serve"], env(dir));
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toMatch(/refusing to serve: the database login "svc_serving".*it has BYPASSRLS/);
}, 120_000);

test("serve refuses an embedded serving login that owns a table", async () => {
  const dir = freshDir();
  await prepare(
    dir,
    `CREATE ROLE ${EMBEDDED_SERVING_LOGIN} LOGIN NOSUPERUSER NOBYPASSRLS; ALTER TABLE worker_heartbeats OWNER TO ${EMBEDDED_SERVING_LOGIN}`,
  );
  const r = await runSvc(["serve"], env(dir));
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toMatch(/refusing to serve: the database login "svc_serving".*it owns 1 table/);
}, 120_000);

test("serve refuses an embedded serving login that is a superuser", async () => {
  const dir = freshDir();
  await prepare(dir, `CREATE ROLE ${EMBEDDED_SERVING_LOGIN} LOGIN SUPERUSER`);
  const r = await runSvc(["serve"], env(dir));
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toMatch(
    /refusing to serve: the database login "svc_serving".*it is a superuser/,
  );
}, 120_000);
