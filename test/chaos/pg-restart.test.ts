// T8: `pg_ctl restart -m immediate` (crash-style, WAL recovery on start) of a throwaway PostgreSQL
// under write load, 3 times: /v1/ready goes false then true within 10 s, writes resume, and every
// acknowledged write is still there afterwards. Never touches the shared 5432 cluster.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  destroyPostgres,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "../harness/chaos-pg";
import { callServe, startServe, type ServeChild } from "../harness/chaos-serve";
import { runSvc, serviceEnv } from "../harness/process";

const RESTARTS = 3 * Number(process.env.SVC_TEST_LONG ?? "1");
const READY_TARGET_MS = 10_000;

let pg: ThrowawayPostgres;
let serve: ServeChild;

beforeAll(async () => {
  pg = await startThrowawayPostgres();
  const env = { ...pg.env, SVC_QUEUE_PREFIX: `chaos-pgr-${process.pid}` };
  const migrated = await runSvc(["migrate"], serviceEnv(env));
  if (migrated.code !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
  serve = await startServe(env);
}, 120_000);
afterAll(async () => {
  await serve?.stop();
  if (pg) await destroyPostgres(pg);
}, 30_000);

const call = (method: string, path: string, body?: unknown) => callServe(serve, method, path, body);

describe(`PostgreSQL crash-restart × ${RESTARTS}`, () => {
  test("/v1/ready recovers within 10 s, writes resume, no acknowledged write lost", async () => {
    const acknowledged: string[] = [];
    const unexpected: string[] = [];
    let seq = 0;
    let slowest = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const t0 = Date.now();
        const r = await call("POST", "/v1/memories", {
          agent_id: "restart",
          content: `restart write ${seq++}`,
        });
        slowest = Math.max(slowest, Date.now() - t0);
        if (r.status === 201) acknowledged.push(r.body.memory_id);
        else if (r.status !== 503)
          unexpected.push(`${r.status} ${JSON.stringify(r.body)?.slice(0, 200)}`);
        if (!serve.alive()) break;
        await Bun.sleep(5);
      }
    })();
    const recoveries: number[] = [];
    for (let i = 0; i < RESTARTS && serve.alive(); i++) {
      await Bun.sleep(500);
      const before = acknowledged.length;
      const started = Date.now();
      await pg.restart("immediate");
      let sawNotReady = false;
      while (Date.now() - started < 30_000) {
        const ready = await call("GET", "/v1/ready");
        if (ready.status !== 200) sawNotReady = true;
        else if (Date.now() - started > 50 || sawNotReady) break;
        await Bun.sleep(50);
      }
      recoveries.push(Date.now() - started);
      const deadline = Date.now() + 10_000;
      while (acknowledged.length === before && Date.now() < deadline) await Bun.sleep(50);
      if (acknowledged.length === before)
        unexpected.push(`restart ${i}: no write acknowledged within 10 s of recovery`);
    }
    writing = false;
    await writer;
    console.log(
      `pg restart: recovery ms ${recoveries.join(", ")}; acknowledged writes ${acknowledged.length}; slowest write ${slowest} ms; unexpected ${unexpected.length}`,
    );
    expect(
      serve.alive(),
      `svc serve must survive the restarts; its stderr:\n${serve.stderr().slice(-3000)}`,
    ).toBe(true);
    expect(
      unexpected.slice(0, 10),
      "writes answer 201 or 503 and resume after each restart",
    ).toEqual([]);
    expect(recoveries.length).toBe(RESTARTS);
    for (const ms of recoveries) expect(ms).toBeLessThanOrEqual(READY_TARGET_MS);
    const missing: string[] = [];
    for (const id of acknowledged)
      if ((await call("GET", `/v1/memories/${id}`)).status !== 200) missing.push(id);
    expect(missing).toEqual([]);
  }, 300_000);
});
