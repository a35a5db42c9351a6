// T7: pg_terminate_backend on every backend of a real `svc serve` mid-request, 50 times: the
// process survives every time, affected requests get a 503 problem+json (never a 500), and no batch
// is partial.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { rng } from "../../bench/lib/corpus";
import {
  callServe,
  startServe,
  terminateServeBackends,
  type ServeChild,
} from "../harness/chaos-serve";
import { testServingDatabaseUrl } from "../harness/env";

const CYCLES = 50 * Number(process.env.SVC_TEST_LONG ?? "1");
const WRITERS = 4;
const BATCH = 50;
// A request hung on a poisoned connection would otherwise stall the test forever.
const REQUEST_TIMEOUT_MS = 10_000;
const SEED = Number(process.env.SVC_TEST_SEED ?? Date.now() % 1_000_000);

let serve: ServeChild;
let admin: postgres.Sql;

beforeAll(async () => {
  console.log(`pg-terminate seed=${SEED} (replay with SVC_TEST_SEED=${SEED})`);
  serve = await startServe();
  // The serving login: a role may terminate its own backends, and the owner is no member of it.
  admin = postgres(testServingDatabaseUrl(), { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await serve?.stop();
  await admin?.end();
}, 30_000);

type Outcome = { tag: string; status: number; contentType: string };

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; contentType: string }> {
  const { status, contentType } = await callServe(serve, method, path, body, REQUEST_TIMEOUT_MS);
  return { status, contentType };
}

function batchStore(tag: string): Promise<Outcome> {
  const memories = Array.from({ length: BATCH }, (_, i) => ({
    agent_id: "chaos",
    content: `chaos ${tag} item ${i}`,
    metadata: { tag },
  }));
  return call("POST", "/v1/memories/batch", { memories }).then((r) => ({ tag, ...r }));
}

async function storedPerTag(): Promise<Map<string, number>> {
  const [org] = await admin`SELECT id FROM orgs WHERE name = ${serve.orgName}`;
  const rows = await admin.begin(async (tx) => {
    await tx`SELECT set_config('role', 'svc_app', true), set_config('app.current_org_id', ${org!.id}, true)`;
    return tx<
      { tag: string; n: number }[]
    >`SELECT metadata->>'tag' AS tag, count(*)::int AS n FROM memories WHERE agent_id = 'chaos' GROUP BY 1`;
  });
  return new Map(rows.map((r) => [r.tag, r.n]));
}

describe(`pg_terminate_backend mid-request × ${CYCLES}`, () => {
  test("process alive every cycle, affected requests 503 problem+json, batches all-or-nothing", async () => {
    const random = rng(SEED);
    const outcomes: Outcome[] = [];
    let alive = 0;
    let terminated = 0;
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const inFlight = [
        ...Array.from({ length: WRITERS }, (_, w) => batchStore(`c${cycle}w${w}`)),
        call("GET", "/v1/limits").then((r) => ({ tag: "read", ...r })),
      ];
      await Bun.sleep(Math.floor(random() * 15));
      terminated += await terminateServeBackends(admin);
      outcomes.push(...(await Promise.all(inFlight)));
      if (serve.alive() && (await call("GET", "/v1/health")).status === 200) alive++;
    }
    // status 0: no answer within REQUEST_TIMEOUT_MS. Known residual (docs/reliability.md): under
    // this nemesis postgres.js 3.4.9 occasionally strands a query on a connection killed
    // mid-handshake, about 1 request in 250–750 (0–4 of 250 observed); bounded at 3% so a
    // regression to anything worse still fails.
    const unanswered = outcomes.filter((o) => o.status === 0);
    const bad = outcomes.filter(
      (o) => !(o.status >= 200 && o.status < 300) && o.status !== 503 && o.status !== 0,
    );
    const unavailable = outcomes.filter((o) => o.status === 503);
    console.log(
      `cycles=${CYCLES} alive=${alive} backends-terminated=${terminated} requests=${outcomes.length} 503=${unavailable.length} unanswered=${unanswered.length} other-non-2xx=${bad.length}`,
    );
    expect(
      alive,
      `svc serve must survive every cycle; its stderr:\n${serve.stderr().slice(-3000)}`,
    ).toBe(CYCLES);
    expect(bad, "only 2xx or 503 are acceptable").toEqual([]);
    expect(unanswered.length, "requests left unanswered").toBeLessThanOrEqual(
      Math.ceil(outcomes.length * 0.03),
    );

    expect(unavailable.every((o) => o.contentType.includes("application/problem+json"))).toBe(true);
    expect(terminated).toBeGreaterThanOrEqual(CYCLES);
    expect(
      unavailable.length,
      "the nemesis should land on some in-flight requests",
    ).toBeGreaterThan(0);

    const stored = await storedPerTag();
    expect(
      [...stored].filter(([, n]) => n !== BATCH),
      "every batch is all-or-nothing",
    ).toEqual([]);
    const acknowledged = outcomes
      .filter((o) => o.tag !== "read" && o.status >= 200 && o.status < 300)
      .map((o) => o.tag);
    expect(
      acknowledged.filter((tag) => stored.get(tag) !== BATCH),
      "every acknowledged batch is stored",
    ).toEqual([]);
  }, 600_000);
});
