// A `svc worker` SIGKILLed in the middle of a refine run (dedupe, infer, summarize in small
// batches) leaves only whole batches behind; a second worker resumes the run after the stalled
// delivery's lease lapses, and the final graph equals one run: every duplicate merged once, every
// inferred edge written once, one summary per cluster, and refine_changes numbered without gaps or
// repeats.
import { afterAll, beforeAll, expect, test } from "bun:test";
import {
  insertEdges,
  insertMemos,
  type NewEdge,
  type NewMemo,
} from "../../src/data/queries/forge/refine/graph-writes";
import { withTenant } from "../../src/data/with-tenant";
import { normalizeName } from "../../src/domain/graph/normalize";
import { newId } from "../../src/lib/ids";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { show, TEST_QUEUE_PREFIX, testApp, type TestApp } from "../harness/app";
import { chaosWorkers } from "../harness/chaos-workers";
import { eventually } from "../queue/wait";

const GROUPS = 600;
const COUNTRIES = 60;
const prefix = `${TEST_QUEUE_PREFIX}-killrefine`;
const refineEnv = { REFINE_ENABLED: "true", REFINE_BATCH_SIZE: "20", REFINE_LEASE_SECONDS: "2" };
let t: TestApp;

const workers = chaosWorkers({ SVC_QUEUE_PREFIX: prefix, ...refineEnv });

beforeAll(async () => {
  t = await testApp({ SVC_QUEUE_PREFIX: prefix, REFINE_ENABLED: true });
});
afterAll(async () => {
  await workers.killAll();
  await (t.deps.queue as BullmqQueue).queue.obliterate({ force: true });
  await t.close();
}, 30_000);

/**
 * Per group: "City i" and "C i" share an ontology URI and both lie in "Region i", which lies in a
 * country.
 */
async function seed(orgId: string) {
  const memos: NewMemo[] = [];
  const edges: NewEdge[] = [];
  const memo = (name: string, uri: string | null = null) => {
    const m: NewMemo = {
      memo_id: newId("memo"),
      agent_id: "agent",
      memo_type: "PLACE",
      name,
      normalized_name: normalizeName(name),
      ontology_uri: uri,
      origin: "extracted",
    };
    memos.push(m);
    return m.memo_id;
  };
  const edge = (src: string, dst: string) =>
    edges.push({
      edge_id: newId("edge"),
      agent_id: "agent",
      src_memo_id: src,
      dst_memo_id: dst,
      relation: "LOCATED_IN",
      fact: "located in",
      origin: "extracted",
      confidence: 0.9,
      weight: 0.6,
    });
  const countries = Array.from({ length: COUNTRIES }, (_, j) => memo(`Country ${j}`));
  for (let i = 0; i < GROUPS; i++) {
    const region = memo(`Region ${i}`);
    edge(memo(`City ${i}`, `urn:place:${i}`), region);
    edge(memo(`C ${i}`, `urn:place:${i}`), region);
    edge(region, countries[i % COUNTRIES]!);
  }
  await withTenant(t.deps.db, orgId, async (tx) => {
    await insertMemos(tx, orgId, memos);
    await insertEdges(tx, orgId, edges);
  });
}

test("kill -9 mid-refine, then a second worker: the final graph equals one run", async () => {
  const tenant = await t.tenant("kill-refine");
  await seed(tenant.orgId);
  const first = workers.spawn();
  const started = await t.request("POST", "/v1/refine", {
    key: tenant.key,
    body: { passes: ["dedupe", "infer", "summarize"] },
  });
  expect(started.status, show(started)).toBe(202);
  const jobId = started.body.job_id as string;
  const progress = () =>
    withTenant(t.deps.db, tenant.orgId, async (tx) => {
      const [row] =
        await tx`SELECT state, (progress->>'seq')::int AS seq, (SELECT count(*)::int FROM refine_changes WHERE job_id = ${jobId}) AS changes FROM jobs WHERE job_id = ${jobId}`;
      return row as { state: string; seq: number | null; changes: number };
    });
  await eventually(
    async () => ((await progress()).seq ?? 0) >= 60,
    "the run to be under way",
    60_000,
  );
  first.kill("SIGKILL");
  await first.exited;

  const afterKill = await progress();
  expect(afterKill.state, "the killed worker stopped before finishing").toBe("running");
  expect(afterKill.changes, "the saved progress counts exactly the committed changes").toBe(
    afterKill.seq ?? 0,
  );

  workers.spawn();
  const final = await eventually(
    async () => {
      const r = await t.request("GET", `/v1/refine/${jobId}?limit=1`, { key: tenant.key });
      return ["succeeded", "failed"].includes(r.body?.state) ? r.body : null;
    },
    "the resumed run to finish",
    180_000,
  );
  expect(final.state, JSON.stringify(final)).toBe("succeeded");

  const facts = await withTenant(t.deps.db, tenant.orgId, async (tx) => {
    const [row] = await tx`SELECT
      (SELECT count(*)::int FROM memos WHERE retired_reason = 'merged') AS merged,
      (SELECT count(*)::int FROM memos WHERE ontology_uri IS NOT NULL AND retired_at IS NULL) AS live_cities,
      (SELECT count(*)::int FROM edges WHERE origin = 'inferred' AND expired_at IS NULL) AS inferred,
      (SELECT count(*)::int FROM (SELECT 1 FROM edges WHERE expired_at IS NULL GROUP BY src_memo_id, relation, dst_memo_id HAVING count(*) > 1) d) AS duplicate_edges,
      (SELECT count(*)::int FROM memos WHERE memo_type = 'SUMMARY' AND retired_at IS NULL) AS summaries,
      (SELECT count(*)::int FROM refine_changes WHERE job_id = ${jobId}) AS changes,
      (SELECT max(seq)::int FROM refine_changes WHERE job_id = ${jobId}) AS max_seq,
      (SELECT count(*)::int FROM (SELECT 1 FROM refine_changes WHERE job_id = ${jobId} GROUP BY pass, action, target_id HAVING count(*) > 1) d) AS repeated_changes,
      (SELECT count(*)::int FROM refine_changes WHERE job_id = ${jobId} AND action = 'summarize') AS summaries_reported`;
    return row as Record<string, number> & { summaries_reported: number; summaries: number };
  });
  expect(facts).toEqual({
    merged: GROUPS,
    live_cities: GROUPS,
    // City i → Region i → Country j: one extra hop per surviving city (regions are one hop from
    // their country).
    inferred: GROUPS,
    duplicate_edges: 0,
    summaries: facts.summaries_reported,
    changes: final.changes_total,
    max_seq: final.changes_total,
    repeated_changes: 0,
    summaries_reported: facts.summaries_reported,
  });
  expect(facts.summaries).toBeGreaterThan(0);
  const counts = (name: string) => final.passes.find((p: any) => p.name === name).counts;
  expect(counts("dedupe")).toMatchObject({
    memos_merged: GROUPS,
    merged_by_ontology: GROUPS,
    edges_collapsed: GROUPS,
  });
  expect(counts("infer")).toEqual({ edges_inferred_transitive: GROUPS });
}, 300_000);
