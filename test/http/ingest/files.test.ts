// POST /v1/ingest/file through the real app and worker on PostgreSQL: a PDF, a DOCX, a CSV, a
// Markdown file and a TypeScript file each become chunk memories with their positions, recall finds
// what is buried deep inside (CODE finds a function by name), and the chained distill fills the
// graph. Oversize, corrupt, encrypted, text-less and mislabelled files get a 4xx or a failed job,
// never a 5xx.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { withTenant } from "../../../src/data/with-tenant";
import { show, type Tenant } from "../../harness/app";
import { eventually } from "../../queue/wait";
import { buildDocx, buildPdf, buildZip, encryptedOfficeFile } from "./documents";
import { fileCases, formOf, type FileCase } from "./file-cases";
import { ingestApp, settledJob, type IngestApp } from "./helpers";

const MAX_FILE = 300_000;
let app: IngestApp;
let tenant: Tenant;
let spoolDir: string;
beforeAll(async () => {
  spoolDir = `/tmp/svc-ingest-files-${process.pid}`;
  app = await ingestApp("ingest-files", {
    DISTILL_ENABLED: true,
    INGEST_CHUNK_CHARS: 600,
    INGEST_CODE_CHUNK_CHARS: 1200,
    INGEST_MAX_FILE_BYTES: MAX_FILE,
    INGEST_SPOOL_DIR: spoolDir,
  });
  tenant = await app.t.tenant("ingest-files");
});
afterAll(() => app.close());

const upload = (
  fields: Record<string, string>,
  file?: { bytes: Uint8Array; filename: string; type: string },
  key = tenant.key,
) => app.t.request("POST", "/v1/ingest/file", { key, rawBody: formOf(fields, file) });

async function uploadAndSettle(
  fields: Record<string, string>,
  file: { bytes: Uint8Array; filename: string; type: string },
) {
  const r = await upload(fields, file);
  expect(r.status, show(r)).toBe(202);
  return settledJob(app.t, tenant.key, r.body.job_id);
}

const memoryOf = async (id: string) =>
  (await app.t.request("GET", `/v1/memories/${id}`, { key: tenant.key })).body;

describe("file ingest", () => {
  test("GET /v1/ingest/loaders lists every loader with its types and the multimodal flag", async () => {
    const r = await app.t.request("GET", "/v1/ingest/loaders", { key: tenant.key });
    expect(r.status, show(r)).toBe(200);
    const byId = Object.fromEntries(r.body.loaders.map((l: { id: string }) => [l.id, l]));
    expect(Object.keys(byId).sort()).toEqual([
      "audio",
      "code",
      "csv",
      "docx",
      "html",
      "image",
      "markdown",
      "pdf",
      "text",
    ]);
    // MULTIMODAL_ENABLED is off here: the media loaders are listed but unavailable.
    expect(byId.image).toMatchObject({
      needs_multimodal: true,
      available: false,
      mime_types: expect.arrayContaining(["image/png", "image/jpeg"]),
    });
    expect(byId.audio).toMatchObject({
      needs_multimodal: true,
      available: false,
      extensions: expect.arrayContaining([".mp3", ".wav"]),
    });
    expect(byId.pdf).toMatchObject({
      mime_types: ["application/pdf"],
      extensions: [".pdf"],
      needs_multimodal: false,
      available: true,
    });
    expect(byId.code.extensions).toEqual(expect.arrayContaining([".ts", ".tsx", ".js", ".py"]));
    expect(byId.markdown.mime_types).toContain("text/markdown");
  });

  for (const c of fileCases()) {
    test(`${c.loader}: chunks with positions, deep recall, distill fills the graph`, async () => {
      const agent = `reader-${c.loader}`;
      const ds = (
        await app.t.request("POST", "/v1/datasets", {
          key: tenant.key,
          body: { name: `files-${c.loader}` },
        })
      ).body.dataset_id;
      const job = await uploadAndSettle({ agent_id: agent, dataset_id: ds }, c);
      expect(job.state, JSON.stringify(job)).toBe("succeeded");
      expect(job).toMatchObject({
        loader: c.loader,
        failure_reason: null,
        dataset_id: ds,
        source: { kind: "file", filename: c.filename },
      });
      expect(job.memory_count).toBeGreaterThan(2);
      const memories = await Promise.all(job.memory_ids.map(memoryOf));
      for (const [i, m] of memories.entries()) {
        expect(m).toMatchObject({
          dataset_id: ds,
          metadata: { chunk_index: i, loader: c.loader, source: c.filename, source_kind: "file" },
        });
        expect(m.content.length).toBeLessThanOrEqual(c.loader === "code" ? 8000 : 600);
      }
      checkPositions(c, memories);

      const recalled = await app.t.request("POST", "/v1/memories/recall", {
        key: tenant.key,
        body: { agent_id: agent, top_k: 3, ...c.recall },
      });
      expect(recalled.status, show(recalled)).toBe(200);
      expect(
        recalled.body.results[0]?.content ?? "",
        JSON.stringify(
          recalled.body.results.map((r: { content: string }) => r.content.slice(0, 80)),
        ),
      ).toContain(c.expected);
      const holder = memories.findIndex((m) => m.content.includes(c.expected));
      expect(holder).toBeGreaterThan(0);

      await expectGraphFilled(job);
      // The uploaded file is deleted from storage once the job is done; nothing is left in the
      // spool.
      expect(readdirSync(spoolDir).filter((f) => f.endsWith(".upload"))).toEqual([]);
    }, 60_000);
  }

  test("the type is recognised from the bytes: a PDF sent as text/plain named .txt is read as a PDF, with a warning", async () => {
    const pdf = fileCases()[0]!;
    const r = await upload(
      { agent_id: "liar" },
      { bytes: pdf.bytes, filename: "notes.txt", type: "text/plain" },
    );
    expect(r.status, show(r)).toBe(202);
    expect(r.body.warnings.join(" ")).toContain("the content is application/pdf");
    const job = await settledJob(app.t, tenant.key, r.body.job_id);
    expect(job).toMatchObject({
      state: "succeeded",
      loader: "pdf",
      detected_type: "application/pdf",
    });
    expect(job.warnings.join(" ")).toContain("declared as text/plain");
    // And a DOCX posted as application/pdf.
    const docx = await uploadAndSettle(
      { agent_id: "liar" },
      {
        bytes: buildDocx(["A short memo about the quarterly ferry schedule."]),
        filename: "memo.pdf",
        type: "application/pdf",
      },
    );
    expect(docx).toMatchObject({ state: "succeeded", loader: "docx" });
  }, 60_000);

  test("corrupt, encrypted and text-less documents end the job failed with a clear reason", async () => {
    const pdf = fileCases()[0]!.bytes;
    const cases: Array<
      [string, { bytes: Uint8Array; filename: string; type: string }, string, RegExp]
    > = [
      [
        "truncated PDF",
        { bytes: pdf.slice(0, 400), filename: "broken.pdf", type: "application/pdf" },
        "corrupt",
        /PDF cannot be read/,
      ],
      [
        "encrypted PDF",
        {
          bytes: buildPdf([["Secret plans for the harbour."]], { encrypted: true }),
          filename: "secret.pdf",
          type: "application/pdf",
        },
        "encrypted",
        /password-protected/,
      ],
      [
        "scanned PDF (no text layer)",
        { bytes: buildPdf([[], []]), filename: "scan.pdf", type: "application/pdf" },
        "empty",
        /no text could be extracted.*OCR/,
      ],
      [
        "encrypted DOCX",
        {
          bytes: encryptedOfficeFile(),
          filename: "locked.docx",
          type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        },
        "encrypted",
        /password-protected Office document/,
      ],
      [
        "truncated DOCX",
        {
          bytes: buildDocx(["Some text that will be cut."]).slice(0, 600),
          filename: "cut.docx",
          type: "application/octet-stream",
        },
        "corrupt",
        /zip/,
      ],
      [
        "DOCX without a document part",
        {
          bytes: buildZip([["word/other.xml", "<x/>"]]),
          filename: "hollow.docx",
          type: "application/octet-stream",
        },
        "corrupt",
        /DOCX cannot be read/,
      ],
      [
        "empty DOCX",
        { bytes: buildDocx([]), filename: "blank.docx", type: "application/octet-stream" },
        "empty",
        /no text could be extracted/,
      ],
      [
        "header-only CSV",
        { bytes: new TextEncoder().encode("a,b,c\n"), filename: "empty.csv", type: "text/csv" },
        "empty",
        /no text could be extracted/,
      ],
    ];
    for (const [label, file, reason, message] of cases) {
      const r = await upload({ agent_id: "broken" }, file);
      expect(r.status, `${label}: ${show(r)}`).toBe(202);
      const job = await settledJob(app.t, tenant.key, r.body.job_id);
      expect(job, label).toMatchObject({
        state: "failed",
        failure_reason: reason,
        memory_count: 0,
        distill_job_id: null,
      });
      expect(job.error, label).toMatch(message);
    }
  }, 90_000);

  test("oversize, unreadable and malformed uploads are 4xx problems and leave nothing behind", async () => {
    const before = await jobCount();
    const big = new Uint8Array(MAX_FILE + 1).fill(0x61);
    const oversize = await upload(
      { agent_id: "x" },
      { bytes: big, filename: "big.txt", type: "text/plain" },
    );
    expect(oversize.status, show(oversize)).toBe(413);
    expect(oversize.body.detail).toContain("INGEST_MAX_FILE_BYTES");
    // Without a Content-Length the cap still holds while the body streams.
    const chunked = await app.t.request("POST", "/v1/ingest/file", {
      key: tenant.key,
      headers: { "content-type": `multipart/form-data; boundary=${"b".repeat(8)}` },
      rawBody: streamOf(
        `--bbbbbbbb\r\nContent-Disposition: form-data; name="agent_id"\r\n\r\nx\r\n--bbbbbbbb\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
        MAX_FILE + 50_000,
      ),
    });
    expect(chunked.status, show(chunked)).toBe(413);

    const cases: Array<[string, Awaited<ReturnType<typeof upload>>, number, string]> = [
      [
        "random binary",
        await upload(
          { agent_id: "x" },
          {
            bytes: new Uint8Array(2048).map((_, i) => (i * 37) % 256),
            filename: "blob.bin",
            type: "application/octet-stream",
          },
        ),
        415,
        "not a format any loader reads",
      ],
      [
        "a PNG without multimodal",
        await upload(
          { agent_id: "x" },
          {
            bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
            filename: "photo.png",
            type: "image/png",
          },
        ),
        415,
        "MULTIMODAL_ENABLED",
      ],
      ["no file", await upload({ agent_id: "x" }), 422, "/file"],
      [
        "empty file",
        await upload(
          { agent_id: "x" },
          { bytes: new Uint8Array(0), filename: "empty.txt", type: "text/plain" },
        ),
        422,
        "/file",
      ],
      [
        "no agent_id",
        await upload(
          {},
          { bytes: new TextEncoder().encode("hello"), filename: "a.txt", type: "text/plain" },
        ),
        422,
        "/agent_id",
      ],
      [
        "blank agent_id",
        await upload(
          { agent_id: "  " },
          { bytes: new TextEncoder().encode("hello"), filename: "a.txt", type: "text/plain" },
        ),
        422,
        "/agent_id",
      ],
      [
        "unknown field",
        await upload(
          { agent_id: "x", colour: "red" },
          { bytes: new TextEncoder().encode("hello"), filename: "a.txt", type: "text/plain" },
        ),
        422,
        "/colour",
      ],
      [
        "unknown dataset",
        await upload(
          { agent_id: "x", dataset_id: "ds_00000000000000000000000000" },
          { bytes: new TextEncoder().encode("hello"), filename: "a.txt", type: "text/plain" },
        ),
        422,
        "dataset_id",
      ],
      [
        "JSON body",
        await app.t.request("POST", "/v1/ingest/file", {
          key: tenant.key,
          body: { agent_id: "x" },
        }),
        415,
        "multipart/form-data",
      ],
      [
        "broken multipart",
        await app.t.request("POST", "/v1/ingest/file", {
          key: tenant.key,
          headers: { "content-type": "multipart/form-data" },
          rawBody: "garbage",
        }),
        400,
        "multipart",
      ],
    ];
    for (const [label, r, status, mention] of cases) {
      expect(r.status, `${label}: ${show(r)}`).toBe(status);
      expect(r.headers.get("content-type"), label).toStartWith("application/problem+json");
      expect(JSON.stringify(r.body), label).toContain(mention);
    }
    expect(await jobCount()).toBe(before);
    expect(readdirSync(spoolDir).filter((f) => f.endsWith(".upload"))).toEqual([]);
  }, 60_000);

  test("another tenant can neither read the job nor upload into the dataset", async () => {
    const ds = (
      await app.t.request("POST", "/v1/datasets", {
        key: tenant.key,
        body: { name: "private-files" },
      })
    ).body.dataset_id;
    const mine = await uploadAndSettle(
      { agent_id: "owner", dataset_id: ds },
      {
        bytes: new TextEncoder().encode("The vault code is kept by the quartermaster."),
        filename: "vault.txt",
        type: "text/plain",
      },
    );
    expect(mine.state).toBe("succeeded");
    const other = await app.t.tenant("ingest-files-other");
    expect(
      (await app.t.request("GET", `/v1/ingest/${mine.job_id}`, { key: other.key })).status,
    ).toBe(404);
    const intrude = await upload(
      { agent_id: "owner", dataset_id: ds },
      { bytes: new TextEncoder().encode("planted"), filename: "p.txt", type: "text/plain" },
      other.key,
    );
    expect(intrude.status, show(intrude)).toBe(422);
    expect(JSON.stringify(intrude.body.errors)).toContain("dataset_id");
    const leaked = await app.t.request("POST", "/v1/memories/recall", {
      key: other.key,
      body: { agent_id: "owner", query: "vault code quartermaster", top_k: 5 },
    });
    expect(leaked.body.results).toEqual([]);
  }, 30_000);

  test("multipart is refused on every other route", async () => {
    const r = await app.t.request("POST", "/v1/ingest", {
      key: tenant.key,
      rawBody: formOf({ agent_id: "x", text: "hi" }),
    });
    expect(r.status, show(r)).toBe(415);
  });
});

const jobCount = async () =>
  (
    await withTenant(
      app.t.deps.db,
      tenant.orgId,
      (tx) => tx`SELECT count(*)::int AS n FROM jobs WHERE kind = 'ingest'`,
    )
  )[0]!.n as number;

/** A request body that streams `size` bytes of "a" after `prefix`, with no Content-Length. */
function streamOf(prefix: string, size: number): ReadableStream<Uint8Array> {
  let sent = -1;
  const block = new Uint8Array(16_384).fill(0x61);
  return new ReadableStream({
    pull(controller) {
      if (sent < 0) {
        controller.enqueue(new TextEncoder().encode(prefix));
        sent = 0;
        return;
      }
      if (sent >= size) {
        controller.enqueue(new TextEncoder().encode("\r\n--bbbbbbbb--\r\n"));
        controller.close();
        return;
      }
      controller.enqueue(block);
      sent += block.length;
    },
  });
}

function checkPositions(c: FileCase, memories: Array<{ content: string; metadata: any }>) {
  const text = new TextDecoder().decode(c.bytes);
  for (const m of memories) {
    const { position } = m.metadata;
    if (c.loader === "pdf") expect(position.page).toBeGreaterThanOrEqual(1);
    if (c.loader === "markdown" || c.loader === "code")
      expect(text.slice(position.char_start, position.char_end)).toBe(m.content);
    if (c.loader === "csv") {
      expect(m.content.split("\n")[0]).toBe("id,site,observation");
      expect(m.metadata.columns).toEqual(["id", "site", "observation"]);
      expect(position.row_end).toBeGreaterThanOrEqual(position.row_start);
    }
  }
  if (c.loader === "pdf")
    expect(memories.find((m) => m.content.includes(c.expected))!.metadata.position.page).toBe(3);
  if (c.loader === "markdown")
    expect(
      memories.find((m) => m.content.includes(c.expected))!.metadata.position.heading_path,
    ).toEqual(["Workshop guide", "Seasons", "Carnival"]);
  if (c.loader === "code") {
    const fn = memories.find((m) => m.content.includes(c.expected))!;
    expect(fn.metadata).toMatchObject({
      kind: "code",
      language: "typescript",
      symbol: "computeHarborTariff",
      path: c.filename,
    });
    expect(fn.content).toStartWith("/** Port dues");
    expect(fn.content.trimEnd()).toEndWith("}");
  }
}

async function expectGraphFilled(job: { distill_job_id: string; memory_ids: string[] }) {
  expect(job.distill_job_id).toMatch(/^job_/);
  await eventually(
    async () => {
      const [row] = await withTenant(
        app.t.deps.db,
        tenant.orgId,
        (tx) => tx`SELECT state FROM jobs WHERE job_id = ${job.distill_job_id}`,
      );
      return row?.state === "succeeded" ? true : null;
    },
    "the chained distill job to succeed",
    45_000,
  );
  const [linked] = await withTenant(
    app.t.deps.db,
    tenant.orgId,
    (tx) =>
      tx`SELECT count(*)::int AS n FROM memo_sources WHERE memory_id = ANY(${job.memory_ids})`,
  );
  expect(linked!.n).toBeGreaterThan(0);
}
