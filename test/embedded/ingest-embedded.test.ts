// Ingest in embedded mode (PGlite, in-process queue and worker), through HTTP: datasets, text
// ingest with dedupe and the distill chain, and a dataset delete that detaches.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeDeps, openDeps } from "../../src/app/build-deps";
import type { Deps } from "../../src/operations/deps";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";
import { migrate } from "../../src/data/migrate";
import { systemActor } from "../../src/domain/actor";
import { ensureOrg } from "../../src/domain/keys/bootstrap";
import { createKey } from "../../src/domain/keys/manage";
import { createApp, handleRequest } from "../../src/app/create-app";
import { createLogger } from "../../src/observability/log";
import { startWorker, type RunningWorker } from "../../src/queue/worker";
import { buildPdf } from "../http/ingest/documents";
import { fileCases, formOf } from "../http/ingest/file-cases";
import { DEEP_FACT, documentWithDeepFact } from "../http/ingest/fixtures";
import { eventually } from "../queue/wait";
import { seedEmbeddedDataDir } from "../harness/pglite-template";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-embedded-ingest-"));
let deps: Deps;
let worker: RunningWorker;
let key: string;
let handle: (r: Request) => Promise<Response>;

async function call(
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const form = body instanceof FormData;
  const response = await handle(
    new Request(`http://localhost${url}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined || form ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const settled = (jobId: string) =>
  eventually(
    async () => {
      const r = await call("GET", `/v1/ingest/${jobId}`);
      return ["succeeded", "failed", "rejected"].includes(r.body?.state) ? r.body : null;
    },
    `job ${jobId}`,
    30_000,
  );

beforeAll(async () => {
  const config = loadConfig({}, {
    SVC_DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    RATE_LIMIT_ENABLED: false,
    EMBEDDING_DIMENSIONS: 256,
    INGEST_ENABLED: true,
    DISTILL_ENABLED: true,
    INGEST_FETCH_ALLOW_CIDRS: "127.0.0.1/32",
    INGEST_CHUNK_CHARS: 600,
    INGEST_CODE_CHUNK_CHARS: 1200,
    INGEST_MAX_FILE_BYTES: 300_000,
  } as Partial<Config>);
  await seedEmbeddedDataDir(dataDir); // a migrated copy: no initdb per file
  deps = await openDeps(config, {
    log: createLogger("error"),
    applicationName: "svc-embedded-ingest",
  });
  await migrate(deps.db.primary);
  worker = await startWorker(deps);
  handle = handleRequest(createApp(deps), deps);
  const orgId = await ensureOrg(deps.db, "embedded-ingest");
  key = (await createKey(deps.db, systemActor(orgId), "test")).key;
}, 60_000);

afterAll(async () => {
  await worker.close();
  await closeDeps(deps);
  rmSync(dataDir, { recursive: true, force: true });
});

test("datasets and text ingest on PGlite: chunks, deep recall, dedupe, the distill chain, detach on delete", async () => {
  const ds = await call("POST", "/v1/datasets", { name: "embedded handbook" });
  expect(ds.status, JSON.stringify(ds.body)).toBe(201);
  const datasetId = ds.body.dataset_id as string;
  const text = documentWithDeepFact(30);
  const submitted = await call("POST", "/v1/ingest", {
    agent_id: "reader",
    dataset_id: datasetId,
    text,
  });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
  const job = await settled(submitted.body.job_id);
  expect(job.state, JSON.stringify(job)).toBe("succeeded");
  expect(job.memory_count).toBeGreaterThan(5);
  expect(job.distill_job_id).toMatch(/^job_/);

  const recalled = await call("POST", "/v1/memories/recall", {
    agent_id: "reader",
    query: "How many trawlers does the Skerryvore lighthouse keeper count?",
    top_k: 3,
  });
  expect(recalled.body.results[0].content).toContain(DEEP_FACT);

  const again = await settled(
    (await call("POST", "/v1/ingest", { agent_id: "reader", dataset_id: datasetId, text })).body
      .job_id,
  );
  expect(again.duplicate_of?.job_id).toBe(job.job_id);
  expect((await call("GET", `/v1/datasets/${datasetId}`)).body.counts).toMatchObject({
    documents: 1,
    memories: job.memory_count,
    jobs: 2,
  });

  const deleted = await call("DELETE", `/v1/datasets/${datasetId}`);
  expect(deleted.body.counts).toMatchObject({ memories: 0, detached_memories: job.memory_count });
  const memory = await call("GET", `/v1/memories/${job.memory_ids[0]}`);
  expect(memory.body).toMatchObject({ dataset_id: null, deleted_at: null });
  const stillThere = await call("POST", "/v1/memories/recall", {
    agent_id: "reader",
    query: "Skerryvore trawlers",
    top_k: 3,
  });
  expect(stillThere.body.results[0].content).toContain(DEEP_FACT);
}, 60_000);

test("file uploads on PGlite: PDF, DOCX, CSV, Markdown and TypeScript recall from deep inside and distill into the graph; bad files fail cleanly", async () => {
  for (const c of fileCases()) {
    const agent = `files-${c.loader}`;
    const submitted = await call("POST", "/v1/ingest/file", formOf({ agent_id: agent }, c));
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const job = await settled(submitted.body.job_id);
    expect(job, c.loader).toMatchObject({ state: "succeeded", loader: c.loader });
    const recalled = await call("POST", "/v1/memories/recall", {
      agent_id: agent,
      top_k: 3,
      ...c.recall,
    });
    expect(recalled.body.results[0]?.content ?? "", c.loader).toContain(c.expected);
    await eventually(
      async () =>
        (await call("GET", `/v1/distill/${job.distill_job_id}`)).body?.state === "succeeded" ||
        null,
      `distill of the ${c.loader} file`,
      45_000,
    );
    const graph = await call("GET", `/v1/graph/data?agent_id=${agent}`);
    expect(graph.status, JSON.stringify(graph.body)).toBe(200);
    expect(graph.body.nodes.length, c.loader).toBeGreaterThan(0);
  }
  const corrupt = await call(
    "POST",
    "/v1/ingest/file",
    formOf(
      { agent_id: "broken" },
      {
        bytes: buildPdf([["Some words."]]).slice(0, 300),
        filename: "broken.pdf",
        type: "application/pdf",
      },
    ),
  );
  expect(corrupt.status).toBe(202);
  expect(await settled(corrupt.body.job_id)).toMatchObject({
    state: "failed",
    failure_reason: "corrupt",
  });
  const oversize = await call(
    "POST",
    "/v1/ingest/file",
    formOf(
      { agent_id: "x" },
      { bytes: new Uint8Array(300_001).fill(0x61), filename: "big.txt", type: "text/plain" },
    ),
  );
  expect(oversize.status).toBe(413);
  const unreadable = await call(
    "POST",
    "/v1/ingest/file",
    formOf(
      { agent_id: "x" },
      {
        bytes: new Uint8Array(1024).map((_, i) => (i * 37) % 256),
        filename: "x.bin",
        type: "application/pdf",
      },
    ),
  );
  expect(unreadable.status).toBe(415);
}, 180_000);

test("URL ingest on PGlite: a page on a loopback server becomes recallable text; a private address is refused", async () => {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () =>
      new Response(
        `<html><head><title>Harbour log</title></head><body><nav>menu</nav><p>${DEEP_FACT}</p></body></html>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      ),
  });
  try {
    const r = await call("POST", "/v1/ingest", {
      agent_id: "surfer",
      url: `http://127.0.0.1:${server.port}/log`,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const job = await settled(r.body.job_id);
    expect(job, JSON.stringify(job)).toMatchObject({ state: "succeeded", loader: "html" });
    const recalled = await call("POST", "/v1/memories/recall", {
      agent_id: "surfer",
      query: DEEP_FACT,
      strategy: "LEXICAL",
      top_k: 3,
    });
    expect(recalled.body.results[0]?.content).toContain(DEEP_FACT);
    const refused = await call("POST", "/v1/ingest", {
      agent_id: "surfer",
      url: "http://192.168.1.20/admin",
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body.errors)).toContain("/url");
  } finally {
    server.stop(true);
  }
}, 60_000);
