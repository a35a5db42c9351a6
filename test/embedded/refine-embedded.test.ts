// Refine on PGlite (embedded mode, in-process queue and worker), through HTTP exactly as on
// PostgreSQL: NYC / New York City sharing an ontology URI merge into one node with all their edges,
// a summary is written once per cluster and reused by the next run, infer adds marked edges, and a
// dry run of every pass changes nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeDeps, openDeps } from "../../src/app/build-deps";
import type { Deps } from "../../src/operations/deps";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";
import { migrate } from "../../src/data/migrate";
import { withTenant } from "../../src/data/with-tenant";
import { systemActor } from "../../src/domain/actor";
import { ensureOrg } from "../../src/domain/keys/bootstrap";
import { createKey } from "../../src/domain/keys/manage";
import { createApp, handleRequest } from "../../src/app/create-app";
import { createLogger } from "../../src/observability/log";
import { startWorker, type RunningWorker } from "../../src/queue/worker";
import { edgeRow, passOf, refine, type Caller } from "../http/refine/helpers";
import { seedGraph } from "../http/refine/seed-graph";
import { seedEmbeddedDataDir } from "../harness/pglite-template";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-embedded-refine-"));
let deps: Deps;
let worker: RunningWorker;
let caller: Caller;
let orgId: string;
let key: string;

beforeAll(async () => {
  const config = loadConfig({}, {
    SVC_DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    RATE_LIMIT_ENABLED: false,
    EMBEDDING_DIMENSIONS: 128,
    REFINE_ENABLED: true,
  } as Partial<Config>);
  await seedEmbeddedDataDir(dataDir); // a migrated copy: no initdb per file
  deps = await openDeps(config, {
    log: createLogger("error"),
    applicationName: "svc-embedded-refine",
  });
  await migrate(deps.db.primary);
  worker = await startWorker(deps);
  const handle = handleRequest(createApp(deps), deps);
  caller = {
    request: (async (
      method: string,
      url: string,
      options: { key?: string | null; body?: unknown } = {},
    ) => {
      const response = await handle(
        new Request(`http://localhost${url}`, {
          method,
          headers: {
            ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
            ...(options.body === undefined ? {} : { "content-type": "application/json" }),
          },
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
        }),
      );
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        body: text ? JSON.parse(text) : null,
        text,
      };
    }) as Caller["request"],
  };
  orgId = await ensureOrg(deps.db, "embedded-refine");
  key = (await createKey(deps.db, systemActor(orgId), "test")).key;
}, 60_000);

afterAll(async () => {
  await worker.close();
  await closeDeps(deps);
  rmSync(dataDir, { recursive: true, force: true });
});

const snapshot = () =>
  withTenant(deps.db, orgId, async (tx) => ({
    memos: await tx`SELECT memo_id, retired_at, merged_into, aliases FROM memos ORDER BY memo_id`,
    edges:
      await tx`SELECT edge_id, src_memo_id, dst_memo_id, weight, expired_at FROM edges ORDER BY edge_id`,
  }));

test("dedupe, summarize and infer on PGlite: one NYC node with all edges, a reused summary, and a dry run that changes nothing", async () => {
  const uri = "http://www.wikidata.org/entity/Q60";
  const g = await seedGraph(
    deps.db,
    orgId,
    "agent",
    [
      { name: "NYC", type: "PLACE", ontology_uri: uri },
      { name: "New York City", type: "PLACE", ontology_uri: uri },
      { name: "Ada", type: "PERSON" },
      { name: "Bob", type: "PERSON" },
      { name: "USA", type: "PLACE" },
      { name: "Carol", type: "PERSON" },
    ],
    [
      { src: "Ada", relation: "LIVES_IN", dst: "NYC" },
      { src: "Bob", relation: "LIVES_IN", dst: "New York City" },
      { src: "NYC", relation: "LOCATED_IN", dst: "USA" },
      { src: "New York City", relation: "LOCATED_IN", dst: "USA" },
      { src: "Ada", relation: "REPORTS_TO", dst: "Carol" },
    ],
  );

  const before = await snapshot();
  const dry = await refine(caller, key, {
    passes: ["dedupe", "infer", "summarize", "reweight", "prune"],
    dry_run: true,
  });
  expect(dry.state, JSON.stringify(dry)).toBe("succeeded");
  expect(dry.changes.items.map((c: any) => c.action)).toEqual(
    expect.arrayContaining(["merge", "infer", "summarize"]),
  );
  expect(await snapshot()).toEqual(before);

  const run = await refine(caller, key, { passes: ["dedupe", "infer", "summarize"] });
  expect(run.state, JSON.stringify(run)).toBe("succeeded");
  expect(passOf(run, "dedupe").counts).toMatchObject({
    memos_merged: 1,
    merged_by_ontology: 1,
    edges_collapsed: 1,
  });
  const merge = run.changes.items.find((c: any) => c.action === "merge");
  const canon = merge.detail.merged_into as string;
  expect([g.memo.NYC, g.memo["New York City"]]).toContain(canon);
  const data = await caller.request(
    "GET",
    `/v1/graph/data?agent_id=agent&around=${merge.target_id}`,
    { key },
  );
  expect(data.status).toBe(200);
  expect(data.body.around.memo_ids).toEqual([canon]);
  expect(
    data.body.edges
      .map((e: any) => e.relation)
      .filter((r: string) => r !== "SUMMARIZES")
      .sort(),
  ).toEqual(["LIVES_IN", "LIVES_IN", "LOCATED_IN"]);
  expect(passOf(run, "infer").counts).toEqual({ edges_inferred_inverse: 1 });
  expect(passOf(run, "summarize").counts).toMatchObject({ clusters: 1, summaries_written: 1 });

  const next = await refine(caller, key, { passes: ["summarize"] });
  expect(passOf(next, "summarize").counts).toEqual({ clusters: 1, summaries_reused: 1 });
  const [summaries] = await withTenant(
    deps.db,
    orgId,
    (tx) => tx`SELECT count(*)::int AS n FROM memos WHERE memo_type = 'SUMMARY'`,
  );
  expect(summaries!.n).toBe(1);
}, 60_000);

test("feedback then refine on PGlite: a negative signal lowers the edge's weight, and enough of them prune it", async () => {
  const g = await seedGraph(
    deps.db,
    orgId,
    "agent-feedback",
    [{ name: "Ada" }, { name: "Acme" }],
    [{ src: "Ada", relation: "WORKS_AT", dst: "Acme", weight: 0.5 }],
  );
  const edge = g.edge[0]!;
  const feedback = async () =>
    expect(
      (await caller.request("POST", "/v1/feedback", { key, body: { signal: -1, edge_id: edge } }))
        .status,
    ).toBe(201);
  await feedback();
  const first = await refine(caller, key, {
    agent_id: "agent-feedback",
    passes: ["reweight", "prune"],
  });
  expect(passOf(first, "reweight").counts).toMatchObject({ signals: 1, edges_reweighted: 1 });
  expect((await edgeRow(deps.db, orgId, edge)).weight).toBeCloseTo(0.35, 5);
  for (let i = 0; i < 5; i++) await feedback();
  const second = await refine(caller, key, {
    agent_id: "agent-feedback",
    passes: ["reweight", "prune"],
  });
  expect(passOf(second, "prune").counts.edges_pruned).toBe(1);
  expect((await edgeRow(deps.db, orgId, edge)).expired_reason).toBe("pruned");
}, 60_000);
