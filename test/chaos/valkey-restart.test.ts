// T9: kill -9 a throwaway Valkey (AOF everysec) under write load while serve, worker and beat run,
// then restart it: no acknowledged write is lost (PostgreSQL is the truth), the beat's audit-drain
// schedule resumes (rows pending before the restart are drained), and the chain still verifies.
// Resumption takes a second or two on a quiet machine and much longer on a busy one: its bound is a
// hang detector, not a speed check (speed belongs in bench/).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { startThrowawayValkey, type ThrowawayValkey } from "../harness/chaos-pg";
import {
  callServe,
  spawnSvc,
  startServe,
  type ServeChild,
  type SvcChild,
} from "../harness/chaos-serve";
import { testDatabaseUrl } from "../harness/env";
import { runSvc, serviceEnv } from "../harness/process";

const KILLS = 2 * Number(process.env.SVC_TEST_LONG ?? "1");
const RESUME_DEADLINE_MS = 180_000;

let valkey: ThrowawayValkey;
let serve: ServeChild;
let worker: SvcChild;
let beat: SvcChild;
let admin: postgres.Sql;
let env: Record<string, string>;
let writing = false;

beforeAll(async () => {
  valkey = await startThrowawayValkey();
  env = {
    VALKEY_URL: valkey.url,
    SVC_QUEUE_PREFIX: `chaos-vk-${process.pid}`,
    AUDIT_DRAIN_INTERVAL_SECONDS: "1",
    SVC_AUDIT_LISTEN_ENABLED: "false",
    RATE_LIMIT_ENABLED: "true",
    RATE_LIMIT_REQUESTS: "100000",
    RATE_LIMIT_BURST: "100000",
  };
  serve = await startServe(env);
  worker = spawnSvc(["worker"], env);
  beat = spawnSvc(["beat"], env);
  admin = postgres(testDatabaseUrl(), { max: 1, onnotice: () => {} });
}, 60_000);
afterAll(async () => {
  writing = false; // a timed-out test's writer must not outlive it
  await Promise.allSettled([serve?.stop(), worker?.kill(), beat?.kill()]);
  await valkey?.destroy();
  await admin?.end();
}, 30_000);

const call = (method: string, path: string, body?: unknown) => callServe(serve, method, path, body);

async function orgId(): Promise<string> {
  return (await admin`SELECT id FROM orgs WHERE name = ${serve.orgName}`)[0]!.id;
}

async function pendingBefore(org: string, at: Date): Promise<number> {
  const rows = await admin.begin(async (tx) => {
    await tx`SELECT set_config('role', 'svc_app', true), set_config('app.current_org_id', ${org}, true)`;
    return tx`SELECT count(*)::int AS n FROM audit_pending WHERE occurred_at <= ${at}`;
  });
  return rows[0]!.n;
}

describe(`Valkey kill -9 and AOF restart × ${KILLS}`, () => {
  test("no acknowledged write lost, the drain schedule resumes, the chain verifies", async () => {
    const acknowledged: string[] = [];
    const unexpected: string[] = [];
    let seq = 0;
    writing = true;
    const writer = (async () => {
      while (writing) {
        const r = await call("POST", "/v1/memories", {
          agent_id: "valkey-chaos",
          content: `valkey write ${seq++}`,
        });
        if (r.status === 201) acknowledged.push(r.body.memory_id);
        else unexpected.push(`${r.status} ${JSON.stringify(r.body)?.slice(0, 200)}`);
        await Bun.sleep(10);
      }
    })();
    const org = await orgId();
    const resumes: number[] = [];
    const pendingAtRestart: number[] = [];
    for (let i = 0; i < KILLS; i++) {
      await Bun.sleep(1500);
      await valkey.kill();
      await Bun.sleep(1000 + Math.floor(Math.random() * 1000));
      const restartedAt = new Date();
      pendingAtRestart.push(await pendingBefore(org, restartedAt));
      await valkey.start();
      const started = Date.now();
      while (
        Date.now() - started < RESUME_DEADLINE_MS &&
        (await pendingBefore(org, restartedAt)) > 0
      )
        await Bun.sleep(200);
      resumes.push(Date.now() - started);
    }
    writing = false;
    await writer;
    console.log(
      `valkey restart: audit rows pending at restart ${pendingAtRestart.join(", ")}, drained ${resumes.join(", ")} ms after restart; acknowledged ${acknowledged.length}; non-201 ${unexpected.length}`,
    );
    expect(
      [serve.alive(), worker.alive(), beat.alive()],
      `serve/worker/beat must survive:\n${serve.stderr().slice(-1500)}\n${worker.stderr().slice(-1500)}\n${beat.stderr().slice(-1500)}`,
    ).toEqual([true, true, true]);
    expect(unexpected.slice(0, 10), "writes never depend on Valkey").toEqual([]);
    for (const ms of resumes)
      expect(ms, "the drain schedule resumes after the restart").toBeLessThan(RESUME_DEADLINE_MS);
    expect(
      pendingAtRestart.every((n) => n > 0),
      "with Valkey down the drain stalls, so rows must be waiting at each restart",
    ).toBe(true);
    const missing: string[] = [];
    for (const id of acknowledged)
      if ((await call("GET", `/v1/memories/${id}`)).status !== 200) missing.push(id);
    expect(missing).toEqual([]);
    const drainedBy = Date.now() + RESUME_DEADLINE_MS;
    while (Date.now() < drainedBy && (await pendingBefore(org, new Date())) > 0)
      await Bun.sleep(200);
    expect(await pendingBefore(org, new Date()), "audit_pending empties").toBe(0);
    const verify = await runSvc(["audit", "verify", "--org", org], serviceEnv(env));
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    const rows = await admin.begin(async (tx) => {
      await tx`SELECT set_config('role', 'svc_app', true), set_config('app.current_org_id', ${org}, true)`;
      return tx`SELECT count(*)::int AS n, count(DISTINCT seq)::int AS seqs FROM audit_log WHERE operation = 'store'`;
    });
    expect(rows[0]!.n, "one audit row per acknowledged store, no duplicate seq").toBe(
      rows[0]!.seqs,
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(acknowledged.length);
  }, 900_000);
});
