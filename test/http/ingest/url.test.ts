// URL ingest against a loopback server (allowed through INGEST_FETCH_ALLOW_CIDRS): an HTML page is
// reduced to its readable text and recall finds a sentence from deep inside; a redirect to a
// metadata address fails the job as fetch-refused; a private address is refused at submission.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { show, type Tenant } from "../../harness/app";
import { DEEP_FACT, documentWithDeepFact } from "./fixtures";
import { ingestApp, settledJob, type IngestApp } from "./helpers";

const page = `<!doctype html><html><head><title>Coastal almanac</title><script>var tracking = "SECRET-TRACKER";</script></head>
<body><nav>Home | Tides | Contact</nav><main><h1>Coastal almanac</h1>${documentWithDeepFact(20)
  .split("\n\n")
  .map((p) => `<p>${p}</p>`)
  .join("\n")}</main>
<footer>Copyright footer text</footer></body></html>`;

let app: IngestApp;
let tenant: Tenant;
let server: ReturnType<typeof Bun.serve>;
let base: string;
beforeAll(async () => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/almanac")
        return new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } });
      if (path === "/to-metadata")
        return Response.redirect("http://169.254.169.254/latest/meta-data/", 302);
      return new Response("not found", { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
  app = await ingestApp("ingest-url", {
    INGEST_FETCH_ALLOW_CIDRS: "127.0.0.1/32",
    INGEST_CHUNK_CHARS: 600,
    DISTILL_ENABLED: false,
  });
  tenant = await app.t.tenant("ingest-url");
});
afterAll(async () => {
  await app.close();
  server.stop(true);
});

describe("URL ingest", () => {
  test("an HTML page on the loopback server becomes its readable text; recall finds the deep sentence", async () => {
    const r = await app.t.request("POST", "/v1/ingest", {
      key: tenant.key,
      body: { agent_id: "surfer", url: `${base}/almanac` },
    });
    expect(r.status, show(r)).toBe(202);
    const job = await settledJob(app.t, tenant.key, r.body.job_id);
    expect(job, JSON.stringify(job)).toMatchObject({
      state: "succeeded",
      loader: "html",
      detected_type: "text/html",
      source: { kind: "url", url: `${base}/almanac` },
    });
    const memories = await Promise.all(
      job.memory_ids.map(
        async (id: string) =>
          (await app.t.request("GET", `/v1/memories/${id}`, { key: tenant.key })).body,
      ),
    );
    const all = memories.map((m) => m.content).join("\n");
    expect(all).not.toContain("SECRET-TRACKER");
    expect(all).not.toContain("Copyright footer");
    expect(all).not.toContain("<p>");
    expect(memories[0].metadata).toMatchObject({
      title: "Coastal almanac",
      source: `${base}/almanac`,
      source_kind: "url",
    });
    const recalled = await app.t.request("POST", "/v1/memories/recall", {
      key: tenant.key,
      body: {
        agent_id: "surfer",
        query: "How many trawlers does the Skerryvore lighthouse keeper count?",
        top_k: 3,
      },
    });
    expect(recalled.body.results[0]?.content).toContain(DEEP_FACT);
  }, 30_000);

  test("a redirect to a metadata address fails the job; a private address is refused at submission", async () => {
    const r = await app.t.request("POST", "/v1/ingest", {
      key: tenant.key,
      body: { agent_id: "surfer", url: `${base}/to-metadata` },
    });
    expect(r.status, show(r)).toBe(202);
    const job = await settledJob(app.t, tenant.key, r.body.job_id);
    expect(job).toMatchObject({
      state: "failed",
      failure_reason: "fetch-refused",
      memory_count: 0,
    });
    expect(job.error).toContain("169.254.169.254");
    const refused = await app.t.request("POST", "/v1/ingest", {
      key: tenant.key,
      body: { agent_id: "surfer", url: "http://192.168.1.20/admin" },
    });
    expect(refused.status, show(refused)).toBe(422);
    expect(JSON.stringify(refused.body.errors)).toContain("/url");
  }, 30_000);
});
