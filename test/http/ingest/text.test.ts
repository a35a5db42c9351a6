// POST /v1/ingest with text through the real worker: chunks become memories with positions, recall
// finds a sentence from deep inside, identical content is not stored twice, audit rows mark
// submission and completion, and INGEST_AUTO_DISTILL chains exactly one distill job (or says why
// not).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withTenant } from "../../../src/data/with-tenant";
import { drainAudit } from "../../../src/domain/audit/drain";
import { show, type Tenant } from "../../harness/app";
import { eventually } from "../../queue/wait";
import { DEEP_FACT, documentWithDeepFact } from "./fixtures";
import { ingestApp, settledJob, type IngestApp } from "./helpers";

let app: IngestApp;
let tenant: Tenant;
beforeAll(async () => {
  app = await ingestApp("ingest-text", {
    DISTILL_ENABLED: true,
    INGEST_CHUNK_CHARS: 600,
    INGEST_CHUNK_OVERLAP_CHARS: 100,
  });
  tenant = await app.t.tenant("ingest-text");
});
afterAll(() => app.close());

const submit = (body: unknown, key = tenant.key) =>
  app.t.request("POST", "/v1/ingest", { key, body });

describe("text ingest", () => {
  test("a long text becomes chunk memories with offsets; recall finds the deep sentence; one distill job is chained", async () => {
    const ds = (
      await app.t.request("POST", "/v1/datasets", { key: tenant.key, body: { name: "handbook" } })
    ).body.dataset_id;
    const text = documentWithDeepFact(30);
    const r = await submit({ agent_id: "reader", dataset_id: ds, text });
    expect(r.status, show(r)).toBe(202);
    expect(r.body).toMatchObject({
      kind: "ingest",
      state: "queued",
      agent_id: "reader",
      dataset_id: ds,
      status_url: `/v1/ingest/${r.body.job_id}`,
    });
    const job = await settledJob(app.t, tenant.key, r.body.job_id);
    expect(job.state, JSON.stringify(job)).toBe("succeeded");
    expect(job).toMatchObject({
      loader: "text",
      detected_type: "text/plain",
      failure_reason: null,
      duplicate_of: null,
      source: { kind: "text", chars: text.length },
    });
    expect(job.memory_count).toBeGreaterThan(5);
    expect(job.memory_ids.length).toBe(job.memory_count);

    const memories = await Promise.all(
      job.memory_ids.map((id: string) =>
        app.t.request("GET", `/v1/memories/${id}`, { key: tenant.key }),
      ),
    );
    for (const [i, m] of memories.entries()) {
      expect(m.body.dataset_id).toBe(ds);
      expect(m.body.content.length).toBeLessThanOrEqual(600);
      expect(m.body.metadata).toMatchObject({
        chunk_index: i,
        source_kind: "text",
        ingest_job_id: job.job_id,
        loader: "text",
      });
      const { char_start, char_end } = m.body.metadata.position;
      expect(text.slice(char_start, char_end)).toBe(m.body.content);
      // Never a split word: a chunk starts and ends at a boundary.
      expect(char_start === 0 || /\s/.test(text[char_start - 1]!)).toBe(true);
      expect(char_end === text.length || /[\s]/.test(text[char_end]!)).toBe(true);
    }
    const holder = memories.find((m) => m.body.content.includes(DEEP_FACT))!;
    expect(holder.body.metadata.chunk_index).toBeGreaterThan(job.memory_count / 2);
    const recalled = await app.t.request("POST", "/v1/memories/recall", {
      key: tenant.key,
      body: {
        agent_id: "reader",
        query: "How many trawlers does the lighthouse keeper on Skerryvore count?",
        top_k: 3,
      },
    });
    expect(recalled.status, show(recalled)).toBe(200);
    expect(recalled.body.results[0].content).toContain(DEEP_FACT);

    expect(job.distill_job_id).toMatch(/^job_/);
    const distill = await withTenant(
      app.t.deps.db,
      tenant.orgId,
      async (tx) =>
        (
          await tx`SELECT kind, parent_job_id, payload FROM jobs WHERE job_id = ${job.distill_job_id}`
        )[0],
    );
    expect(distill).toEqual({
      kind: "distill",
      parent_job_id: job.job_id,
      payload: { agent_id: "reader", memory_ids: job.memory_ids },
    });
    // The worker picked up the chained job (svc.forge_distill: until the distill pipeline lands it
    // ends `rejected`).
    await eventually(
      async () =>
        (
          await withTenant(
            app.t.deps.db,
            tenant.orgId,
            (tx) => tx`SELECT state FROM jobs WHERE job_id = ${job.distill_job_id}`,
          )
        )[0]?.state !== "queued",
      "the chained distill job to be picked up",
    );

    const dataset = await app.t.request("GET", `/v1/datasets/${ds}`, { key: tenant.key });
    expect(dataset.body.counts).toMatchObject({
      documents: 1,
      memories: job.memory_count,
      jobs: 1,
    });

    const audit = await eventually(async () => {
      await drainAudit(app.t.deps.db);
      const rows =
        (await app.t.request("GET", "/v1/audit?operation=ingest&limit=50", { key: tenant.key }))
          .body?.items ?? [];
      const mine = rows.filter((row: { target_ids: string[] }) =>
        row.target_ids.includes(job.job_id),
      );
      return mine.length >= 2 ? mine : null;
    }, "ingest audit rows");
    expect(audit.map((row: { detail: { phase: string } }) => row.detail.phase).sort()).toEqual([
      "completed",
      "submitted",
    ]);
    expect(
      audit.find((row: { detail: { phase: string } }) => row.detail.phase === "completed").detail,
    ).toMatchObject({ memories: job.memory_count, distill_job_id: job.distill_job_id });

    const again = await submit({ agent_id: "reader", dataset_id: ds, text });
    const duplicate = await settledJob(app.t, tenant.key, again.body.job_id);
    expect(duplicate).toMatchObject({
      state: "succeeded",
      duplicate_of: { job_id: job.job_id },
      memory_ids: job.memory_ids,
      distill_job_id: null,
    });
    expect(duplicate.warnings.join(" ")).toContain("already ingested");
    expect(
      (await app.t.request("GET", `/v1/datasets/${ds}`, { key: tenant.key })).body.counts,
    ).toMatchObject({ documents: 1, memories: job.memory_count, jobs: 2 });
    // The same text for another agent (or another dataset) is that agent's own document.
    const other = await settledJob(
      app.t,
      tenant.key,
      (await submit({ agent_id: "someone-else", dataset_id: ds, text })).body.job_id,
    );
    expect(other.duplicate_of).toBeNull();
    expect(other.memory_count).toBe(job.memory_count);
  }, 60_000);

  test("with DISTILL_ENABLED=false nothing is chained and the job says why", async () => {
    const off = await ingestApp("ingest-text-nodistill");
    try {
      const key = (await off.t.tenant("nodistill")).key;
      const r = await off.t.request("POST", "/v1/ingest", {
        key,
        body: { agent_id: "a", text: "Alpha team owns the billing service." },
      });
      const job = await settledJob(off.t, key, r.body.job_id);
      expect(job).toMatchObject({
        state: "succeeded",
        memory_count: 1,
        distill_job_id: null,
        distill_skipped: "distill is disabled on this server (DISTILL_ENABLED=false)",
      });
      expect(job.warnings).toContain(
        "not distilled: distill is disabled on this server (DISTILL_ENABLED=false)",
      );
    } finally {
      await off.close();
    }
  }, 30_000);

  test("bad submissions are 422s naming the field and create nothing", async () => {
    const cases: Array<[unknown, string]> = [
      [{ agent_id: "a" }, "/"],
      [{ agent_id: "a", text: "x", url: "https://example.com" }, "/"],
      [{ agent_id: "a", text: "   " }, "/text"],
      [{ agent_id: "a", text: "nul \u0000 here" }, "/text"],
      [{ agent_id: "a", url: "file:///etc/passwd" }, "/url"],
      [{ agent_id: "a", url: "http://user:pw@example.com/" }, "/url"],
      [{ agent_id: "a", url: "http://127.0.0.1:8080/admin" }, "/url"],
      [{ agent_id: "a", url: "http://[::ffff:169.254.169.254]/latest/meta-data" }, "/url"],
      [{ agent_id: "a", url: "http://10.0.0.8/" }, "/url"],
      [{ agent_id: "a", url: "not a url" }, "/url"],
      [{ agent_id: "a", text: "x", dataset_id: "ds_00000000000000000000000000" }, "dataset_id"],
      [{ agent_id: "a", text: "x", extra: 1 }, "/extra"],
    ];
    for (const [body, field] of cases) {
      const r = await submit(body);
      expect(r.status, `${JSON.stringify(body)} → ${show(r)}`).toBe(422);
      expect(JSON.stringify(r.body.errors), JSON.stringify(body)).toContain(`"path":"${field}"`);
    }
    const jobs = await withTenant(
      app.t.deps.db,
      tenant.orgId,
      (tx) => tx`SELECT count(*)::int AS n FROM jobs WHERE payload ->> 'agent_id' = 'a'`,
    );
    expect(jobs[0]!.n).toBe(0);
    expect(
      (await app.t.request("GET", "/v1/ingest/job_00000000000000000000000000", { key: tenant.key }))
        .status,
    ).toBe(404);
  });
});
