// Two database logins (issue 15, item 5): the owner migrates, the serving login serves and must not
// be able to bypass row-level security. On a throwaway cluster (it needs a superuser to create
// logins): svc migrate grants the serving login; serve, worker, beat and mcp refuse, with a clear
// message, a serving login that is a superuser, has BYPASSRLS, owns the tables (also as the single
// login, without DATABASE_MIGRATION_URL) or can SET ROLE to the owner; a proper serving login
// boots, stores, recalls and drains the audit trail through RLS.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { servingLoginProblems } from "../../src/data/serving-login";
import {
  destroyPostgres,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "../harness/chaos-pg";
import { TEST_VALKEY_URL } from "../harness/env";
import { BUN, MAIN, freePort, runSvc, waitFor } from "../harness/process";

let pg: ThrowawayPostgres;
const urlAs = (user: string) =>
  user === "svc_serving" ? pg.servingUrl : `postgres://${user}:pw@127.0.0.1:${pg.port}/svc`;
const OWNER = () => `postgres://svc:svc@127.0.0.1:${pg.port}/svc`;
const BOOT_KEY = `svc_sk_${"R".repeat(32)}`;
const env = (extra: Record<string, string>) => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: process.env.HOME ?? "/tmp",
  LOG_LEVEL: "warn",
  SVC_QUEUE_PREFIX: `roles-${process.pid}`,
  SVC_API_KEY: BOOT_KEY,
  ...extra,
});

/**
 * `svc serve` on a free port; its output is collected from the start (a full pipe would stall it).
 */
function serve(extra: Record<string, string>) {
  const port = freePort();
  const proc = Bun.spawn([BUN, MAIN, "serve"], {
    env: env({ ...extra, PORT: String(port), HOST: "127.0.0.1" }),
    stdout: "pipe",
    stderr: "pipe",
  });
  const logs = Promise.all([
    new Response(proc.stderr).text(),
    new Response(proc.stdout).text(),
  ]).then((parts) => parts.join(""));
  return { proc, port, logs };
}

/** Waits for the URL; if serve never answers, the failure shows what it printed. */
async function bootedOrLogs(url: string, started: ReturnType<typeof serve>): Promise<void> {
  try {
    await waitFor(url, 30_000);
  } catch (error) {
    started.proc.kill("SIGKILL");
    throw new Error(`${(error as Error).message}; svc serve printed:\n${await started.logs}`);
  }
}

beforeAll(async () => {
  pg = await startThrowawayPostgres();
  const su = postgres(`postgres://postgres@127.0.0.1:${pg.port}/svc`, {
    max: 1,
    onnotice: () => {},
  });
  try {
    await su.unsafe(`
      CREATE ROLE svc_bypass LOGIN PASSWORD 'pw' NOSUPERUSER BYPASSRLS;
      GRANT svc_app TO svc_bypass;
      CREATE ROLE svc_escalate LOGIN PASSWORD 'pw' NOSUPERUSER NOBYPASSRLS;
      GRANT svc_app, svc TO svc_escalate;
      CREATE ROLE svc_root LOGIN PASSWORD 'pw' SUPERUSER;
      GRANT CONNECT ON DATABASE svc TO svc_serving, svc_bypass, svc_escalate;`);
  } finally {
    await su.end();
  }
  const migrated = await runSvc(
    ["migrate"],
    env({ DATABASE_MIGRATION_URL: OWNER(), DATABASE_URL: urlAs("svc_serving") }),
  );
  expect(migrated.code, migrated.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  if (pg) await destroyPostgres(pg);
});

describe("serving login", () => {
  test("after svc migrate, the serving login passes the check and owns nothing", async () => {
    const sql = postgres(urlAs("svc_serving"), { max: 1, onnotice: () => {} });
    try {
      expect((await servingLoginProblems(sql)).problems).toEqual([]);
      const owned =
        await sql`SELECT count(*)::int AS n FROM pg_class WHERE relowner = (SELECT oid FROM pg_roles WHERE rolname = current_user)`;
      expect(owned[0]!.n).toBe(0);
      // Outside a tenant transaction it reads no tenant row and cannot read the owner's tables it
      // was not granted.
      await expect(sql`SELECT count(*) FROM memories`).rejects.toThrow(/permission denied/);
    } finally {
      await sql.end();
    }
  });

  const refused: Array<[string, () => Record<string, string>, RegExp]> = [
    [
      "BYPASSRLS",
      () => ({ DATABASE_URL: urlAs("svc_bypass"), DATABASE_MIGRATION_URL: OWNER() }),
      /"svc_bypass".*it has BYPASSRLS/,
    ],
    [
      "owner of the tables",
      () => ({ DATABASE_URL: OWNER(), DATABASE_MIGRATION_URL: OWNER() }),
      /"svc".*it owns \d+ tables/,
    ],
    [
      "the single login owning the tables (no DATABASE_MIGRATION_URL)",
      () => ({ DATABASE_URL: OWNER() }),
      /"svc".*it owns \d+ tables/,
    ],
    [
      "able to SET ROLE to the owner",
      () => ({ DATABASE_URL: urlAs("svc_escalate"), DATABASE_MIGRATION_URL: OWNER() }),
      /it can SET ROLE to "svc", which owns \d+ tables/,
    ],
    [
      "superuser, even with a single login",
      () => ({ DATABASE_URL: urlAs("svc_root") }),
      /"svc_root".*it is a superuser/,
    ],
  ];
  for (const [what, extra, message] of refused) {
    test(`serve refuses a serving login that is ${what}`, async () => {
      const r = await runSvc(["serve"], env({ ...extra(), PORT: String(freePort()) }));
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain("refusing to serve");
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain("DATABASE_MIGRATION_URL");
    }, 60_000);
  }

  test("worker refuses a BYPASSRLS serving login too", async () => {
    const r = await runSvc(
      ["worker"],
      env({ DATABASE_URL: urlAs("svc_bypass"), VALKEY_URL: TEST_VALKEY_URL }),
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/refusing to serve.*BYPASSRLS/);
  }, 60_000);

  for (const command of [["worker"], ["beat"], ["mcp", "--key", BOOT_KEY]]) {
    test(`${command[0]} refuses the single owner login`, async () => {
      const r = await runSvc(
        command,
        env({ DATABASE_URL: OWNER(), VALKEY_URL: TEST_VALKEY_URL }),
        command[0] === "mcp",
      );
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/refusing to serve: the database login "svc".*it owns \d+ tables/);
    }, 60_000);
  }

  test("svc migrate still runs as the single owner login", async () => {
    const r = await runSvc(["migrate"], env({ DATABASE_URL: OWNER() }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("refusing to serve");
  }, 60_000);

  test("with nothing pending, serve boots on the serving login alone (the owner ran svc migrate)", async () => {
    const started = serve({ DATABASE_URL: urlAs("svc_serving") });
    const { proc, port } = started;
    try {
      await bootedOrLogs(`http://127.0.0.1:${port}/v1/ready`, started);
    } finally {
      proc.kill("SIGTERM");
      await proc.exited;
    }
  }, 60_000);

  test("a proper serving login boots (migrating as the owner), stores and recalls", async () => {
    const started = serve({ DATABASE_URL: urlAs("svc_serving"), DATABASE_MIGRATION_URL: OWNER() });
    const { proc, port, logs } = started;
    try {
      await bootedOrLogs(`http://127.0.0.1:${port}/v1/health`, started);
      const headers = { authorization: `Bearer ${BOOT_KEY}`, "content-type": "application/json" };
      const stored = await fetch(`http://127.0.0.1:${port}/v1/memories`, {
        method: "POST",
        headers,
        body: JSON.stringify({ agent_id: "roles", content: "the serving login stores this" }),
      });
      expect(stored.status, await stored.clone().text()).toBe(201);
      const recalled = await fetch(`http://127.0.0.1:${port}/v1/memories/recall`, {
        method: "POST",
        headers,
        body: JSON.stringify({ agent_id: "roles", query: "serving login" }),
      });
      expect(recalled.status, await recalled.clone().text()).toBe(200);
      // The in-process worker (no VALKEY_URL) drains the audit trail as the serving login too.
      let audited = 0;
      for (let i = 0; i < 100 && audited === 0; i++) {
        const page = (await (
          await fetch(`http://127.0.0.1:${port}/v1/audit`, { headers })
        ).json()) as { items: unknown[] };
        audited = page.items.length;
        if (audited === 0) await Bun.sleep(200);
      }
      expect(audited).toBeGreaterThan(0);
    } finally {
      proc.kill("SIGTERM");
      await proc.exited;
    }
    expect(await logs).not.toContain("permission denied");
  }, 90_000);
});
