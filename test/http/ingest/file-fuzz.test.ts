// Random and damaged files through POST /v1/ingest/file: whatever the bytes, name and declared
// type, the answer is 202, 413, 415 or 422 (never a 5xx), and an accepted job ends succeeded or
// failed with a failure_reason (never stuck, never an unexplained failure).
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { show, type Tenant } from "../../harness/app";
import { buildDocx, buildPdf, encryptedOfficeFile } from "./documents";
import { formOf } from "./file-cases";
import { ingestApp, settledJob, type IngestApp } from "./helpers";

let app: IngestApp;
let tenant: Tenant;
beforeAll(async () => {
  app = await ingestApp("ingest-file-fuzz", {
    INGEST_MAX_FILE_BYTES: 64_000,
    DISTILL_ENABLED: false,
  });
  tenant = await app.t.tenant("ingest-file-fuzz");
});
afterAll(() => app.close());

const seeds = [
  buildPdf([["Alpha beta gamma."], ["Delta epsilon."]]),
  buildDocx(["First paragraph.", "Second paragraph."]),
  encryptedOfficeFile(),
  new TextEncoder().encode('id,name\n1,"unterminated\n2,b\n'),
  new TextEncoder().encode("# Title\n\n```ts\nfunction broken( {\n"),
  new TextEncoder().encode("export class { ;;; function ( => }\n"),
  new TextEncoder().encode("<!doctype html><html><body><p>unclosed <b>tags"),
];

/** A seed document, cut, with random bytes spliced in. */
const damaged = fc
  .record({
    seed: fc.nat({ max: seeds.length - 1 }),
    cut: fc.double({ min: 0.05, max: 1, noNaN: true }),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    noise: fc.uint8Array({ minLength: 0, maxLength: 64 }),
  })
  .map(({ seed, cut, at, noise }) => {
    const base = seeds[seed]!;
    const kept = base.slice(0, Math.max(1, Math.floor(base.length * cut)));
    const pos = Math.floor(kept.length * at);
    return new Uint8Array([...kept.slice(0, pos), ...noise, ...kept.slice(pos)]);
  });

const fileArb = fc.record({
  bytes: fc.oneof(damaged, fc.uint8Array({ minLength: 0, maxLength: 2048 })),
  filename: fc.constantFrom(
    "a.pdf",
    "a.docx",
    "a.csv",
    "a.md",
    "a.ts",
    "a.py",
    "a.txt",
    "a.html",
    "noext",
    "a.png",
    "../../etc/passwd",
    "x".repeat(300),
  ),
  type: fc.constantFrom(
    "application/pdf",
    "text/plain",
    "text/csv",
    "application/octet-stream",
    "image/png",
    "text/markdown",
    "application/typescript",
    "",
  ),
});

test("no file shape yields a 5xx or a stuck or unexplained job", async () => {
  await fc.assert(
    fc.asyncProperty(fileArb, async (file) => {
      const r = await app.t.request("POST", "/v1/ingest/file", {
        key: tenant.key,
        rawBody: formOf({ agent_id: "fuzz" }, file),
      });
      expect([202, 413, 415, 422], show(r)).toContain(r.status);
      if (r.status !== 202) return;
      const job = await settledJob(app.t, tenant.key, r.body.job_id, 20_000);
      expect(["succeeded", "failed"], JSON.stringify(job)).toContain(job.state);
      if (job.state === "failed") expect(job.failure_reason, JSON.stringify(job)).not.toBeNull();
    }),
    { numRuns: 60, seed: Number(process.env.SVC_TEST_SEED ?? 4242) },
  );
}, 240_000);
