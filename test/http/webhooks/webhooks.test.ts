// Webhooks end to end in both database modes: endpoints, the outbox written with each effect,
// signed deliveries to a receiver started here, retries after 500s, dead after
// WEBHOOKS_MAX_ATTEMPTS.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { insertIngestJob } from "../../../src/data/queries/ingest/jobs";
import { withTenant } from "../../../src/data/with-tenant";
import { systemActor } from "../../../src/domain/actor";
import { failExpiredUpload } from "../../../src/domain/ingest/expire-uploads";
import { deliverDueWebhooks } from "../../../src/domain/webhooks/deliver";
import { newId } from "../../../src/lib/ids";
import { startWorker } from "../../../src/queue/worker";
import { show, type Tenant, type TestApp } from "../../harness/app";
import { twoTenantModes } from "../../harness/two-tenant-modes";
import { erase } from "../erasure/helpers";
import { signatureValid, startReceiver, type Receiver } from "./receiver";

const MAX_ATTEMPTS = 3;
const CONFIG = {
  WEBHOOKS_ALLOW_LOOPBACK: true,
  WEBHOOKS_RETRY_BASE_MS: 20,
  WEBHOOKS_RETRY_MAX_MS: 50,
  WEBHOOKS_MAX_ATTEMPTS: MAX_ATTEMPTS,
};
const ALL_EVENTS = [
  "memory.stored",
  "memory.updated",
  "memory.forgotten",
  "job.succeeded",
  "job.failed",
];

for (const mode of twoTenantModes("webhooks")) {
  describe(`webhooks (${mode.name})`, () => {
    let app: TestApp;
    let a: Tenant;
    let b: Tenant;
    let close: () => Promise<void>;
    let receiver: Receiver;
    let secret: string;
    let endpointId: string;

    beforeAll(async () => {
      ({
        app,
        tenants: [a, b],
        close,
      } = await mode.open(CONFIG));
      receiver = startReceiver();
    }, 180_000);
    afterAll(async () => {
      receiver?.stop();
      await close?.();
    });

    /** Runs the worker's delivery until nothing is due (waiting out the short test backoffs). */
    async function deliverAll(orgId: string) {
      for (let i = 0; i < 50; i++) {
        const run = await deliverDueWebhooks(app.deps, orgId);
        if (run.next_due_at === null) return;
        await Bun.sleep(Math.max(10, run.next_due_at.getTime() - Date.now() + 5));
      }
      throw new Error("deliveries still pending after 50 rounds");
    }

    const store = async (tenant: Tenant, content: string) => {
      const r = await app.request("POST", "/v1/memories", {
        key: tenant.key,
        body: { agent_id: "agent-w", content },
      });
      expect(r.status, show(r)).toBe(201);
      return r.body.memory_id as string;
    };

    test("an endpoint is created with a secret shown once, listed and read without it", async () => {
      const r = await app.request("POST", "/v1/webhooks", {
        key: a.key,
        body: { url: receiver.url(), events: ALL_EVENTS, description: "all" },
      });
      expect(r.status, show(r)).toBe(201);
      expect(r.body.secret).toStartWith("whsec_");
      ({ secret, endpoint_id: endpointId } = r.body);
      const list = await app.request("GET", "/v1/webhooks", { key: a.key });
      expect(list.body.items.map((e: any) => e.endpoint_id)).toEqual([endpointId]);
      expect(list.text).not.toContain(secret);
      const one = await app.request("GET", `/v1/webhooks/${endpointId}`, { key: a.key });
      expect(one.status, show(one)).toBe(200);
      expect(one.body.secret).toBeUndefined();
      for (const [method, path] of [
        ["GET", ""],
        ["DELETE", ""],
        ["POST", "/rotate-secret"],
        ["GET", "/deliveries"],
      ]) {
        const other = await app.request(method!, `/v1/webhooks/${endpointId}${path}`, {
          key: b.key,
        });
        expect(other.status, `${method} ${path}: ${show(other)}`).toBe(404);
      }
    });

    test("private, link-local and IPv4-compatible addresses are refused, naming the field", async () => {
      for (const url of [
        "http://10.0.0.1/x",
        "http://169.254.169.254/",
        "http://[::7f00:1]/",
        "ftp://example.com/",
      ]) {
        const r = await app.request("POST", "/v1/webhooks", {
          key: a.key,
          body: { url, events: ["memory.stored"] },
        });
        expect(r.status, `${url}: ${show(r)}`).toBe(422);
        expect(r.body.errors[0].path).toBe("url");
      }
    });

    test("store, PATCH and forget each deliver one signed event without content", async () => {
      const before = receiver.received.length;
      const id = await store(a, "the secret recipe is cardamom");
      expect(
        (
          await app.request("PATCH", `/v1/memories/${id}`, {
            key: a.key,
            body: { importance: 0.9 },
          })
        ).status,
      ).toBe(200);
      const f = await app.request("POST", "/v1/memories/forget", {
        key: a.key,
        body: { memory_ids: [id] },
      });
      expect(f.status, show(f)).toBe(200);
      await store(b, "tenant b has no endpoint");
      await deliverAll(a.orgId);
      await deliverAll(b.orgId);
      const got = receiver.received.slice(before);
      expect(got.map((r) => r.json.type)).toEqual([
        "memory.stored",
        "memory.updated",
        "memory.forgotten",
      ]);
      for (const r of got) {
        expect(signatureValid(r, secret)).toBe(true);
        expect(signatureValid(r, "whsec_wrong")).toBe(false);
        expect(r.headers["svc-event-id"]).toBe(r.json.id);
        expect(r.headers["svc-event-type"]).toBe(r.json.type);
        expect(r.json.data.memories).toEqual([
          expect.objectContaining({ memory_id: id, agent_id: "agent-w" }),
        ]);
        expect(r.body).not.toContain("cardamom");
      }
      expect(new Set(got.map((r) => r.json.id)).size).toBe(3);
      expect(got.map((r) => r.json.data.memories[0].version)).toEqual([1, 2, 2]);
    });

    test("a direct upload that expires unfinalized delivers one job.failed, like other jobs", async () => {
      const before = receiver.received.length;
      const jobId = newId("job");
      await withTenant(app.deps.db, a.orgId, async (tx) => {
        const row = await insertIngestJob(tx, {
          org_id: a.orgId,
          job_id: jobId,
          payload: {
            agent_id: "agent-w",
            source: {
              kind: "upload",
              object_key: `uploads/${jobId}`,
              expires_at: "2020-01-01T00:00:00Z",
            },
          },
          dataset_id: null,
          batch_id: null,
          state: "awaiting_upload",
        });
        // The second call finds the job already failed (finalize and the watchdog may both try).
        for (let i = 0; i < 2; i++) await failExpiredUpload(tx, systemActor(a.orgId), row);
      });
      await deliverAll(a.orgId);
      const got = receiver.received.slice(before);
      expect(got.map((r) => r.json.type)).toEqual(["job.failed"]);
      expect(signatureValid(got[0]!, secret)).toBe(true);
      expect(got[0]!.json.data).toMatchObject({
        job_id: jobId,
        kind: "ingest",
        state: "failed",
        agent_id: "agent-w",
        error: expect.stringContaining("expired"),
      });
    });

    test("a 500 is retried with the same event id until it is delivered", async () => {
      const before = receiver.received.length;
      receiver.failNext("/hook", 2);
      await store(a, "retry me");
      await deliverAll(a.orgId);
      const got = receiver.received.slice(before);
      expect(got.length).toBe(3);
      expect(new Set(got.map((r) => r.headers["svc-event-id"])).size).toBe(1);
      expect(got.map((r) => r.headers["svc-delivery-attempt"])).toEqual(["1", "2", "3"]);
      const log = await app.request("GET", `/v1/webhooks/${endpointId}/deliveries?limit=1`, {
        key: a.key,
      });
      expect(log.status, show(log)).toBe(200);
      expect(log.body.items[0]).toMatchObject({
        event_id: got[0]!.json.id,
        state: "delivered",
        attempts: 3,
        last_status: 200,
      });
    });

    test(`an endpoint that keeps failing gets a dead delivery after ${MAX_ATTEMPTS} attempts`, async () => {
      const r = await app.request("POST", "/v1/webhooks", {
        key: a.key,
        body: { url: receiver.url("/always-503"), events: ["memory.stored"] },
      });
      expect(r.status, show(r)).toBe(201);
      const before = receiver.received.filter((x) => x.path === "/always-503").length;
      await store(a, "nobody hears this");
      await deliverAll(a.orgId);
      expect(receiver.received.filter((x) => x.path === "/always-503").length - before).toBe(
        MAX_ATTEMPTS,
      );
      const log = await app.request("GET", `/v1/webhooks/${r.body.endpoint_id}/deliveries`, {
        key: a.key,
      });
      expect(log.body.items).toEqual([
        expect.objectContaining({
          state: "dead",
          attempts: MAX_ATTEMPTS,
          last_status: 503,
          next_attempt_at: null,
        }),
      ]);
      expect(
        (await app.request("DELETE", `/v1/webhooks/${r.body.endpoint_id}`, { key: a.key })).status,
      ).toBe(200);
      expect(
        (await app.request("GET", `/v1/webhooks/${r.body.endpoint_id}`, { key: a.key })).status,
      ).toBe(404);
    });

    test("include_content endpoints get the content; a rotated secret signs beside the previous one", async () => {
      const c = await app.request("POST", "/v1/webhooks", {
        key: a.key,
        body: { url: receiver.url("/content"), events: ["memory.stored"], include_content: true },
      });
      expect(c.status, show(c)).toBe(201);
      const rotated = await app.request("POST", `/v1/webhooks/${endpointId}/rotate-secret`, {
        key: a.key,
      });
      expect(rotated.status, show(rotated)).toBe(200);
      expect(rotated.body.secret).not.toBe(secret);
      const before = receiver.received.length;
      await store(a, "saffron and cardamom");
      await deliverAll(a.orgId);
      const got = receiver.received.slice(before);
      const withContent = got.find((r) => r.path === "/content")!;
      expect(withContent.json.data.memories[0].content).toBe("saffron and cardamom");
      expect(signatureValid(withContent, c.body.secret)).toBe(true);
      const plain = got.find((r) => r.path === "/hook")!;
      expect(plain.body).not.toContain("saffron");
      expect(signatureValid(plain, rotated.body.secret)).toBe(true);
      expect(signatureValid(plain, secret)).toBe(true);
    });

    test("a subject erasure delivers one signed subject.erased event with the value's digest only", async () => {
      const hook = await app.request("POST", "/v1/webhooks", {
        key: a.key,
        body: { url: receiver.url("/erased"), events: ["subject.erased"] },
      });
      expect(hook.status, show(hook)).toBe(201);
      const metadata = { user_id: "u-erase-me" };
      const stored = await app.request("POST", "/v1/memories", {
        key: a.key,
        body: { agent_id: "agent-e", content: "allergic to walnuts", metadata },
      });
      expect(stored.status, show(stored)).toBe(201);
      const worker = await startWorker(app.deps); // runs svc.erase_subject
      const done = await erase(app, a.key, {
        agent_id: "agent-e",
        subject: { key: "user_id", value: "u-erase-me" },
      }).finally(() => worker.close());
      expect(done.state, JSON.stringify(done)).toBe("succeeded");
      await deliverAll(a.orgId);
      const got = receiver.received.filter((r) => r.path === "/erased");
      expect(got.map((r) => r.json.type)).toEqual(["subject.erased"]);
      const [event] = got;
      expect(signatureValid(event!, hook.body.secret)).toBe(true);
      expect(event!.json.data).toMatchObject({
        erasure_id: done.erasure_id,
        agent_id: "agent-e",
        counts: { memories: 1 },
        subject: { key: "user_id", value_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      });
      expect(event!.body).not.toContain("u-erase-me");
      expect(event!.body).not.toContain("walnuts");
    });

    test("endpoint changes are audited", async () => {
      const { drainAudit } = await import("../../../src/domain/audit/drain");
      await drainAudit(app.deps.db, { orgId: a.orgId });
      const r = await app.request("GET", "/v1/audit?limit=200", { key: a.key });
      const ops = (r.body.items as Array<{ operation: string }>).map((x) => x.operation);
      expect(ops).toContain("webhook.create");
      expect(ops).toContain("webhook.rotate_secret");
      expect(ops).toContain("webhook.delete");
    });
  });
}
