// A `svc worker` SIGKILLed while its webhook deliveries are in flight (the receiver holds every
// request open): a second worker sends every event once the lease lapses; nothing is lost, and each
// resent event carries the same Svc-Event-Id as its interrupted first attempt.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { show, TEST_QUEUE_PREFIX, testApp, type TestApp, type Tenant } from "../harness/app";
import { chaosWorkers } from "../harness/chaos-workers";
import { eventually } from "../queue/wait";
import { signatureValid } from "../http/webhooks/receiver";

const EVENTS = 5;
const prefix = `${TEST_QUEUE_PREFIX}-kwebhooks`;
const WEBHOOKS = {
  WEBHOOKS_ALLOW_LOOPBACK: "true",
  WEBHOOKS_LEASE_SECONDS: "3",
  WEBHOOKS_TIMEOUT_MS: "2500",
};
let t: TestApp;
let tenant: Tenant;

type Hit = { eventId: string; answered: boolean; headers: Record<string, string>; body: string };
const hits: Hit[] = [];
let holding = true;
const held: Array<() => void> = [];
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    const body = await request.text();
    const hit: Hit = {
      eventId: request.headers.get("svc-event-id")!,
      answered: !holding,
      headers: Object.fromEntries(request.headers),
      body,
    };
    hits.push(hit);
    if (holding) await new Promise<void>((resolve) => held.push(resolve));
    return new Response("ok");
  },
});

const workers = chaosWorkers({ SVC_QUEUE_PREFIX: prefix, WORKER_CONCURRENCY: "2", ...WEBHOOKS });

beforeAll(async () => {
  t = await testApp({ SVC_QUEUE_PREFIX: prefix, WEBHOOKS_ALLOW_LOOPBACK: true });
  tenant = await t.tenant("kill-webhooks");
});
afterAll(async () => {
  await workers.killAll();
  holding = false;
  held.forEach((release) => release());
  receiver.stop(true);
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
}, 30_000);

test("kill -9 mid-delivery loses no event; the duplicate carries the same event id", async () => {
  const created = await t.request("POST", "/v1/webhooks", {
    key: tenant.key,
    body: { url: `http://127.0.0.1:${receiver.port}/hook`, events: ["memory.stored"] },
  });
  expect(created.status, show(created)).toBe(201);
  const first = workers.spawn();
  for (let i = 0; i < EVENTS; i++) {
    const r = await t.request("POST", "/v1/memories", {
      key: tenant.key,
      body: { agent_id: "hooked", content: `event ${i}` },
    });
    expect(r.status, show(r)).toBe(201);
  }
  // The worker heard the commit (NOTIFY) and is now blocked inside at least one delivery.
  await eventually(async () => hits.length > 0, "a delivery in flight", 60_000);
  first.kill("SIGKILL");
  await first.exited;
  const interrupted = new Set(hits.map((h) => h.eventId));
  holding = false;
  held.splice(0).forEach((release) => release());

  workers.spawn();
  const answered = await eventually(
    async () => {
      const ids = new Set(hits.filter((h) => h.answered).map((h) => h.eventId));
      return ids.size === EVENTS && ids;
    },
    `all ${EVENTS} events answered by the second worker`,
    60_000,
  );
  for (const id of interrupted) expect(answered.has(id)).toBe(true);
  for (const hit of hits)
    expect(
      signatureValid(
        { path: "/hook", headers: hit.headers, body: hit.body, json: null },
        created.body.secret,
      ),
    ).toBe(true);

  const log = await eventually(
    async () => {
      const r = await t.request("GET", `/v1/webhooks/${created.body.endpoint_id}/deliveries`, {
        key: tenant.key,
      });
      return (
        r.body.items.length === EVENTS &&
        r.body.items.every((d: { state: string }) => d.state === "delivered") &&
        r.body.items
      );
    },
    "every delivery settled as delivered",
    30_000,
  );
  expect(new Set(log.map((d: { event_id: string }) => d.event_id))).toEqual(answered);
}, 180_000);
