// Direct uploads (STORAGE_BACKEND=s3) through HTTP against a real S3-compatible server (s3rver on
// loopback): upload-url hands out a correctly signed (SigV4, checked here since s3rver does not)
// and expiring PUT URL; the bytes go straight to the bucket; finalize checks existence, size and
// format and runs the file pipeline, in both database modes, ending with recallable memories. Every
// refusal is a clear 4xx problem.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeDeps, openDeps } from "../../../src/app/build-deps";
import type { Deps } from "../../../src/operations/deps";
import { loadConfig } from "../../../src/config/load";
import type { Config } from "../../../src/config/schema";
import { migrate } from "../../../src/data/migrate";
import { withTenant } from "../../../src/data/with-tenant";
import { systemActor } from "../../../src/domain/actor";
import { ensureOrg } from "../../../src/domain/keys/bootstrap";
import { createKey } from "../../../src/domain/keys/manage";
import { createApp, handleRequest } from "../../../src/app/create-app";
import { createLogger } from "../../../src/observability/log";
import { ingestWatchdogTask } from "../../../src/queue/tasks/svc.ingest_watchdog";
import { startWorker, type RunningWorker } from "../../../src/queue/worker";
import { show, testApp, type TestApp, type Tenant } from "../../harness/app";
import { eventually } from "../../queue/wait";
import { formOf } from "./file-cases";
import { DEEP_FACT, documentWithDeepFact } from "./fixtures";
import { ingestApp, settledJob, type IngestApp } from "./helpers";
import {
  S3_REGION,
  S3_SECRET,
  startS3Server,
  verifyPresignedUrl,
  type S3TestServer,
} from "./s3-server";
import { seedEmbeddedDataDir } from "../../harness/pglite-template";

const MAX_FILE = 200_000;
const QUESTION = "How many trawlers does the lighthouse keeper on Skerryvore count?";
const encoder = new TextEncoder();

let s3: S3TestServer;
let app: IngestApp;
let tenant: Tenant;
beforeAll(async () => {
  s3 = await startS3Server();
  app = await ingestApp("s3-upload", {
    ...s3.config,
    INGEST_MAX_FILE_BYTES: MAX_FILE,
    INGEST_CHUNK_CHARS: 600,
  });
  tenant = await app.t.tenant("s3-upload");
});
afterAll(async () => {
  await app.close();
  await s3.close();
});

const announce = (body: Record<string, unknown>, t: TestApp = app.t, key = tenant.key) =>
  t.request("POST", "/v1/ingest/upload-url", { key, body });
const finalize = (jobId: string, t: TestApp = app.t, key = tenant.key) =>
  t.request("POST", `/v1/ingest/finalize/${jobId}`, { key });
const put = (
  ticket: { upload: { url: string; headers: Record<string, string> } },
  bytes: Uint8Array,
) => fetch(ticket.upload.url, { method: "PUT", headers: ticket.upload.headers, body: bytes });
/** The bucket's object keys under the tenant's prefix (the service chooses them). */
async function objectsOf(orgId: string, jobId: string): Promise<string[]> {
  const listed = await s3.client.list({ prefix: `${orgId}/${jobId}/` });
  return (listed.contents ?? []).map((o) => o.key);
}
const jobCount = async () =>
  (
    await withTenant(app.t.deps.db, tenant.orgId, (tx) => tx`SELECT count(*)::int AS n FROM jobs`)
  )[0]!.n as number;
const expectProblem = (
  r: Awaited<ReturnType<TestApp["request"]>>,
  status: number,
  detail: RegExp,
) => {
  expect(r.status, show(r)).toBe(status);
  expect(r.headers.get("content-type")).toStartWith("application/problem+json");
  expect(r.body.detail).toMatch(detail);
};

describe("upload-url", () => {
  test("hands out a SigV4-signed PUT URL for a key under the tenant and job; the job awaits the upload", async () => {
    const r = await announce({
      agent_id: "uploader",
      filename: "notes (draft).md",
      content_type: "text/markdown",
      size: 1234,
    });
    expect(r.status, show(r)).toBe(201);
    expect(r.body).toMatchObject({
      kind: "ingest",
      state: "awaiting_upload",
      agent_id: "uploader",
      finalize_url: `/v1/ingest/finalize/${r.body.job_id}`,
      upload: { method: "PUT", headers: { "content-type": "text/markdown" }, max_bytes: 1234 },
    });
    const url = new URL(r.body.upload.url);
    expect(url.origin).toBe(s3.endpoint);
    expect(decodeURIComponent(url.pathname)).toMatch(
      new RegExp(`^/svc-uploads/${tenant.orgId}/${r.body.job_id}/[0-9a-f-]{36}-notes_draft_.md$`),
    );
    const expiresAt = Date.parse(r.body.upload.expires_at);
    expect(expiresAt - Date.now()).toBeGreaterThan(800_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(900_000);
    expect(Number(url.searchParams.get("X-Amz-Expires"))).toBe(900);

    const check = (u: string, secret = S3_SECRET, method = "PUT") =>
      verifyPresignedUrl(u, { method, secret, region: S3_REGION });
    expect(check(r.body.upload.url)).toEqual({ ok: true });
    // The verifier can fail: another secret, method, key, expiry or signature is refused.
    expect(check(r.body.upload.url, "not-the-secret")).toEqual({
      ok: false,
      reason: "signature does not match",
    });
    expect(check(r.body.upload.url, S3_SECRET, "GET")).toEqual({
      ok: false,
      reason: "signature does not match",
    });
    const otherKey = r.body.upload.url.replace(r.body.job_id, "job_00000000000000000000000000");
    expect(check(otherKey)).toEqual({ ok: false, reason: "signature does not match" });
    const longer = r.body.upload.url.replace("X-Amz-Expires=900", "X-Amz-Expires=9000");
    expect(check(longer)).toEqual({ ok: false, reason: "signature does not match" });
    const sig = url.searchParams.get("X-Amz-Signature")!;
    const tampered = r.body.upload.url.replace(sig, sig.replace(/^./, sig[0] === "a" ? "b" : "a"));
    expect(check(tampered)).toEqual({ ok: false, reason: "signature does not match" });
    expect(
      verifyPresignedUrl(r.body.upload.url, {
        method: "PUT",
        secret: S3_SECRET,
        region: S3_REGION,
        now: new Date(expiresAt + 60_000),
      }),
    ).toMatchObject({ ok: false, reason: expect.stringContaining("expired") });

    // The secret signs but never travels: not in the answer, the description or the logs.
    expect(r.text).not.toContain(S3_SECRET);
    expect((await app.t.request("GET", "/openapi.json")).text).not.toContain(S3_SECRET);
    expect(app.t.logLines.join("\n")).not.toContain(S3_SECRET);
    const job = await app.t.request("GET", `/v1/ingest/${r.body.job_id}`, { key: tenant.key });
    expect(job.body).toMatchObject({
      state: "awaiting_upload",
      source: {
        kind: "upload",
        filename: "notes (draft).md",
        byte_size: 1234,
        declared_type: "text/markdown",
      },
    });
    expect(job.body.source.object_key).toBeUndefined();
  });

  test("bad announcements are 4xx problems naming the field, and create no job", async () => {
    const before = await jobCount();
    expect(before).toBeGreaterThan(0);
    expectProblem(
      await announce({ agent_id: "u", filename: "a.pdf", size: MAX_FILE + 1 }),
      413,
      /INGEST_MAX_FILE_BYTES/,
    );
    expectProblem(await announce({ agent_id: "u", filename: "a.pdf", size: 0 }), 422, /size/);
    expectProblem(await announce({ agent_id: "u", size: 10 }), 422, /filename/);
    expectProblem(await announce({ agent_id: " ", filename: "a.txt", size: 10 }), 422, /agent_id/);
    expectProblem(
      await announce({
        agent_id: "u",
        filename: "a.txt",
        size: 10,
        content_type: "text/plain\r\nx-evil: 1",
      }),
      422,
      /content_type/,
    );
    expectProblem(
      await announce({ agent_id: "u", filename: "a\u0000.txt", size: 10 }),
      422,
      /filename/,
    );
    expectProblem(
      await announce({
        agent_id: "u",
        filename: "a.txt",
        size: 10,
        dataset_id: "ds_00000000000000000000000000",
      }),
      422,
      /dataset_id/,
    );
    expect(await jobCount()).toBe(before);
  });
});

describe("finalize", () => {
  test("round trip: PUT to the bucket, finalize, the file pipeline runs, memories are recallable, the object is deleted", async () => {
    const ds = (
      await app.t.request("POST", "/v1/datasets", {
        key: tenant.key,
        body: { name: "direct uploads" },
      })
    ).body.dataset_id;
    const bytes = encoder.encode(documentWithDeepFact(30));
    const ticket = (
      await announce({
        agent_id: "reader",
        dataset_id: ds,
        filename: "handbook.txt",
        content_type: "text/plain",
        size: bytes.byteLength,
      })
    ).body;
    const uploaded = await put(ticket, bytes);
    expect(uploaded.status).toBe(200);
    expect(await objectsOf(tenant.orgId, ticket.job_id)).toHaveLength(1);

    const r = await finalize(ticket.job_id);
    expect(r.status, show(r)).toBe(202);
    expect(r.body).toMatchObject({ job_id: ticket.job_id, state: "queued", dataset_id: ds });
    const job = await settledJob(app.t, tenant.key, ticket.job_id);
    expect(job.state, JSON.stringify(job)).toBe("succeeded");
    expect(job).toMatchObject({
      loader: "text",
      detected_type: "text/plain",
      source: {
        kind: "upload",
        filename: "handbook.txt",
        detected_type: "text/plain",
        loader: "text",
      },
    });
    expect(job.memory_count).toBeGreaterThan(5);
    const first = (
      await app.t.request("GET", `/v1/memories/${job.memory_ids[0]}`, { key: tenant.key })
    ).body;
    expect(first).toMatchObject({
      dataset_id: ds,
      metadata: { source: "handbook.txt", source_kind: "upload", chunk_index: 0 },
    });

    const recalled = await app.t.request("POST", "/v1/memories/recall", {
      key: tenant.key,
      body: { agent_id: "reader", query: QUESTION, top_k: 3 },
    });
    expect(recalled.status, show(recalled)).toBe(200);
    expect(recalled.body.results[0].content).toContain(DEEP_FACT);
    await eventually(
      async () => (await objectsOf(tenant.orgId, ticket.job_id)).length === 0,
      "the ingested object to be deleted",
    );

    // Finalizing again changes nothing and returns the job.
    const again = await finalize(ticket.job_id);
    expect(again.status, show(again)).toBe(202);
    expect(again.body.job_id).toBe(ticket.job_id);
    expect(again.body.state).toBe("succeeded");
  }, 60_000);

  test("unknown, malformed and foreign job ids are 404; a job that is not an upload is 404", async () => {
    expectProblem(await finalize("job_00000000000000000000000000"), 404, /not found/);
    expectProblem(await finalize("x"), 404, /not found/);
    const text = await app.t.request("POST", "/v1/ingest", {
      key: tenant.key,
      body: { agent_id: "a", text: "plain text, not an upload" },
    });
    expectProblem(await finalize(text.body.job_id), 404, /not found/);
    const ticket = (await announce({ agent_id: "a", filename: "a.txt", size: 5 })).body;
    const other = await app.t.tenant("s3-other");
    expectProblem(await finalize(ticket.job_id, app.t, other.key), 404, /not found/);
  });

  test("before the upload: 409, and the job keeps waiting", async () => {
    const ticket = (await announce({ agent_id: "a", filename: "later.txt", size: 12 })).body;
    expectProblem(await finalize(ticket.job_id), 409, /nothing was uploaded/);
    expect(
      (await app.t.request("GET", `/v1/ingest/${ticket.job_id}`, { key: tenant.key })).body.state,
    ).toBe("awaiting_upload");
    // Then the upload arrives and finalize works.
    expect((await put(ticket, encoder.encode("twelve bytes"))).status).toBe(200);
    expect((await finalize(ticket.job_id)).status).toBe(202);
    expect((await settledJob(app.t, tenant.key, ticket.job_id)).state).toBe("succeeded");
  }, 30_000);

  test("a size other than announced: 409 naming both, the object is deleted, a correct re-upload then finalizes", async () => {
    const ticket = (await announce({ agent_id: "a", filename: "sized.txt", size: 20 })).body;
    expect((await put(ticket, encoder.encode("only fifteen ch"))).status).toBe(200);
    const r = await finalize(ticket.job_id);
    expectProblem(r, 409, /15 bytes but 20 were announced/);
    expect(r.body).toMatchObject({ declared_size: 20, uploaded_size: 15 });
    expect(await objectsOf(tenant.orgId, ticket.job_id)).toEqual([]);
    expect(
      (await app.t.request("GET", `/v1/ingest/${ticket.job_id}`, { key: tenant.key })).body.state,
    ).toBe("awaiting_upload");
    expect((await put(ticket, encoder.encode("exactly twenty bytes"))).status).toBe(200);
    expect((await finalize(ticket.job_id)).status).toBe(202);
  });

  test("an object larger than INGEST_MAX_FILE_BYTES: 413 and deleted (the URL does not bound the size)", async () => {
    const ticket = (await announce({ agent_id: "a", filename: "big.txt", size: MAX_FILE })).body;
    expect((await put(ticket, new Uint8Array(MAX_FILE + 10).fill(0x61))).status).toBe(200);
    expectProblem(await finalize(ticket.job_id), 413, /INGEST_MAX_FILE_BYTES/);
    expect(await objectsOf(tenant.orgId, ticket.job_id)).toEqual([]);
  });

  test("bytes no loader reads: 415 from the sniffed content, whatever was declared; images without multimodal too", async () => {
    const garbage = new Uint8Array(512).map((_, i) => (i * 37 + 11) % 256);
    const ticket = (
      await announce({
        agent_id: "a",
        filename: "data.txt",
        content_type: "text/plain",
        size: garbage.byteLength,
      })
    ).body;
    expect((await put(ticket, garbage)).status).toBe(200);
    expectProblem(await finalize(ticket.job_id), 415, /not a format any loader reads/);
    expect(await objectsOf(tenant.orgId, ticket.job_id)).toEqual([]);

    const png = new Uint8Array([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      ...new Array(56).fill(0),
    ]);
    const image = (
      await announce({
        agent_id: "a",
        filename: "photo.png",
        content_type: "image/png",
        size: png.byteLength,
      })
    ).body;
    expect((await put(image, png)).status).toBe(200);
    expectProblem(await finalize(image.job_id), 415, /MULTIMODAL_ENABLED/);
  });
});

describe("the S3 backend under the file pipeline", () => {
  test("POST /v1/ingest/file stores the upload in the bucket; the worker reads it and deletes it", async () => {
    const bytes = encoder.encode(documentWithDeepFact(12));
    const r = await app.t.request("POST", "/v1/ingest/file", {
      key: tenant.key,
      rawBody: formOf(
        { agent_id: "multipart" },
        { bytes, filename: "via-api.txt", type: "text/plain" },
      ),
    });
    expect(r.status, show(r)).toBe(202);
    const job = await settledJob(app.t, tenant.key, r.body.job_id);
    expect(job).toMatchObject({
      state: "succeeded",
      source: { kind: "file", filename: "via-api.txt" },
    });
    await eventually(
      async () => (await objectsOf(tenant.orgId, r.body.job_id)).length === 0,
      "the ingested object to be deleted",
    );
  }, 30_000);

  test("a vanished object reads as missing (ENOENT), which the worker reports as upload-missing", async () => {
    const storage = app.t.deps.storage;
    expect(storage.backend).toBe("s3");
    expect(await storage.stat(`${tenant.orgId}/nothing-here`)).toBeNull();
    const error = await storage.openLocal(`${tenant.orgId}/nothing-here`, tmpdir()).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as NodeJS.ErrnoException).code).toBe("ENOENT");
  });
});

describe("expiry", () => {
  let short: TestApp;
  beforeAll(async () => {
    short = await testApp({
      INGEST_ENABLED: true,
      ...s3.config,
      STORAGE_S3_UPLOAD_EXPIRES_SECONDS: 1,
      STORAGE_S3_FINALIZE_GRACE_SECONDS: 0,
    });
  });
  afterAll(() => short.close());

  test("an expired URL fails the signature check and the server; finalize is 410 and the job fails upload-expired", async () => {
    const who = await short.tenant("s3-expiry");
    const ticket = (
      await announce({ agent_id: "late", filename: "late.txt", size: 4 }, short, who.key)
    ).body;
    // Valid at the instant it was signed (checked at that instant: with a 1 s lifetime a busy
    // machine can reach the check after it expired), expired 2 s later.
    const signed = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/
      .exec(new URL(ticket.upload.url).searchParams.get("X-Amz-Date")!)!
      .slice(1);
    const [year, month, day, hour, minute, second] = signed.map(Number) as number[];
    const signedAt = new Date(Date.UTC(year!, month! - 1, day, hour, minute, second));
    expect(
      verifyPresignedUrl(ticket.upload.url, {
        method: "PUT",
        secret: S3_SECRET,
        region: S3_REGION,
        now: signedAt,
      }),
    ).toEqual({ ok: true });
    await Bun.sleep(2100);
    expect(
      verifyPresignedUrl(ticket.upload.url, {
        method: "PUT",
        secret: S3_SECRET,
        region: S3_REGION,
      }),
    ).toMatchObject({ ok: false, reason: expect.stringContaining("expired") });
    const late = await put(ticket, encoder.encode("late"));
    expect(late.status).toBe(403);
    expectProblem(await finalize(ticket.job_id, short, who.key), 410, /expired/);
    const job = (await short.request("GET", `/v1/ingest/${ticket.job_id}`, { key: who.key })).body;
    expect(job).toMatchObject({ state: "failed", failure_reason: "upload-expired" });
    expectProblem(await finalize(ticket.job_id, short, who.key), 410, /request a new upload URL/);
  });

  test("svc.ingest_watchdog fails abandoned uploads with upload-expired and deletes their objects", async () => {
    const who = await short.tenant("s3-abandon");
    const ticket = (
      await announce({ agent_id: "gone", filename: "left.txt", size: 4 }, short, who.key)
    ).body;
    expect((await put(ticket, encoder.encode("left"))).status).toBe(200);
    expect(await objectsOf(who.orgId, ticket.job_id)).toHaveLength(1);
    await Bun.sleep(1100);
    const result = await ingestWatchdogTask.run({}, short.deps, {
      jobId: "watchdog-test",
      attempt: 1,
    });
    expect(result.uploads_expired).toBeGreaterThanOrEqual(1);
    const job = (await short.request("GET", `/v1/ingest/${ticket.job_id}`, { key: who.key })).body;
    expect(job).toMatchObject({ state: "failed", failure_reason: "upload-expired" });
    expect(await objectsOf(who.orgId, ticket.job_id)).toEqual([]);
    expectProblem(await finalize(ticket.job_id, short, who.key), 410, /request a new upload URL/);
  });
});

describe("gating", () => {
  test("with STORAGE_BACKEND=fs the direct-upload routes are absent", async () => {
    const fsApp = await testApp({ INGEST_ENABLED: true });
    try {
      const who = await fsApp.tenant("s3-gate");
      expect(
        (
          await fsApp.request("POST", "/v1/ingest/upload-url", {
            key: who.key,
            body: { agent_id: "a", filename: "a.txt", size: 1 },
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await fsApp.request("POST", "/v1/ingest/finalize/job_00000000000000000000000000", {
            key: who.key,
          })
        ).status,
      ).toBe(404);
      const paths = Object.keys((await fsApp.request("GET", "/openapi.json")).body.paths);
      expect(paths).toContain("/v1/ingest/file");
      expect(paths.filter((p) => p.includes("upload-url") || p.includes("finalize"))).toEqual([]);
    } finally {
      await fsApp.close();
    }
  });
});

describe("an unreachable bucket", () => {
  test("finalize and file uploads answer 503 and change nothing; the job keeps waiting", async () => {
    const down = await testApp({
      INGEST_ENABLED: true,
      ...s3.config,
      STORAGE_S3_ENDPOINT: "http://127.0.0.1:9",
    });
    try {
      const who = await down.tenant("s3-down");
      const ticket = await announce({ agent_id: "a", filename: "a.txt", size: 4 }, down, who.key);
      expect(ticket.status, show(ticket)).toBe(201);
      expectProblem(await finalize(ticket.body.job_id, down, who.key), 503, /object storage/);
      expect(
        (await down.request("GET", `/v1/ingest/${ticket.body.job_id}`, { key: who.key })).body
          .state,
      ).toBe("awaiting_upload");
      const file = await down.request("POST", "/v1/ingest/file", {
        key: who.key,
        rawBody: formOf(
          { agent_id: "a" },
          { bytes: encoder.encode("some text"), filename: "a.txt", type: "text/plain" },
        ),
      });
      expectProblem(file, 503, /object storage/);
    } finally {
      await down.close();
    }
  });
});

describe("embedded mode (PGlite)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "svc-embedded-s3-"));
  let deps: Deps;
  let worker: RunningWorker;
  let key: string;
  let handle: (r: Request) => Promise<Response>;
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await handle(
      new Request(`http://localhost${url}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  beforeAll(async () => {
    const config = loadConfig({}, {
      SVC_DATA_DIR: dataDir,
      LOG_LEVEL: "error",
      RATE_LIMIT_ENABLED: false,
      EMBEDDING_DIMENSIONS: 256,
      INGEST_ENABLED: true,
      INGEST_CHUNK_CHARS: 600,
      INGEST_MAX_FILE_BYTES: MAX_FILE,
      ...s3.config,
    } as Partial<Config>);
    await seedEmbeddedDataDir(dataDir); // a migrated copy: no initdb per file
    deps = await openDeps(config, {
      log: createLogger("error"),
      applicationName: "svc-embedded-s3",
    });
    await migrate(deps.db.primary);
    worker = await startWorker(deps);
    handle = handleRequest(createApp(deps), deps);
    const orgId = await ensureOrg(deps.db, "embedded-s3");
    key = (await createKey(deps.db, systemActor(orgId), "test")).key;
  }, 60_000);
  afterAll(async () => {
    await worker.close();
    await closeDeps(deps);
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("upload-url, PUT, finalize and recall on PGlite", async () => {
    expect(deps.db.kind).toBe("embedded");
    const bytes = encoder.encode(`# Field notes\n\n${documentWithDeepFact(20)}`);
    const ticket = await call("POST", "/v1/ingest/upload-url", {
      agent_id: "reader",
      filename: "notes.md",
      content_type: "text/markdown",
      size: bytes.byteLength,
    });
    expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
    expect(
      verifyPresignedUrl(ticket.body.upload.url, {
        method: "PUT",
        secret: S3_SECRET,
        region: S3_REGION,
      }),
    ).toEqual({ ok: true });
    expect((await call("POST", `/v1/ingest/finalize/${ticket.body.job_id}`)).status).toBe(409);
    expect((await put(ticket.body, bytes)).status).toBe(200);
    const finalized = await call("POST", `/v1/ingest/finalize/${ticket.body.job_id}`);
    expect(finalized.status, JSON.stringify(finalized.body)).toBe(202);
    const job = await eventually(
      async () => {
        const r = await call("GET", `/v1/ingest/${ticket.body.job_id}`);
        return ["succeeded", "failed"].includes(r.body?.state) ? r.body : null;
      },
      "embedded upload job",
      30_000,
    );
    expect(job.state, JSON.stringify(job)).toBe("succeeded");
    expect(job).toMatchObject({
      loader: "markdown",
      source: { kind: "upload", filename: "notes.md" },
    });
    const recalled = await call("POST", "/v1/memories/recall", {
      agent_id: "reader",
      query: QUESTION,
      top_k: 3,
    });
    expect(recalled.body.results[0].content).toContain(DEEP_FACT);
  }, 60_000);
});
