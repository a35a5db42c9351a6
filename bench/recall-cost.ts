// Where one POST /v1/memories/recall spends its time, at 1k memories, c=1, with the production
// pipeline (rate limit on Valkey, key cache, audit, access tracking, metering):
// `node_modules/.bin/bun run bench/recall-cost.ts [--memories=1000] [--requests=300]`. Prints (1)
// end-to-end HTTP p50/p95 for AUTO, VECTOR and LEXICAL beside two baselines measured in the same
// run — a bare Bun.serve JSON echo over the same loopback client (the HTTP floor) and in-process
// BM25 over the same texts — and (2) each stage timed alone in-process against the same app, p50
// over the same queries, "before" (the path main took) beside "after" (this path).
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";
import { loadavg } from "node:os";
import type { Actor } from "../src/domain/actor";
import { createKeyAuthenticator } from "../src/domain/keys/authenticate";
import { createKeyCache } from "../src/domain/keys/key-cache";
import { executeRecall, planRecall, type RecallInput } from "../src/domain/recall/recall";
import { recordAudit } from "../src/domain/audit/record";
import { chargeInTransaction } from "../src/domain/budgets/charge";
import { strategyNamed } from "../src/domain/recall/registry";
import { limitRecallTransaction } from "../src/data/queries/recall/common";
import { withTenant } from "../src/data/with-tenant";
import { takeRequestTokens } from "../src/http/pipeline/6-rate-limit";
import { inspectInput } from "../src/lib/validation/input-walk";
import { tenantBucketPolicyOf } from "../src/domain/ratelimit/tenant-policy";
import { recallBody, RecallResponse } from "../src/operations/schemas/recall";
import { logRequest } from "../src/http/pipeline/3-access-log";
import { createLogger } from "../src/observability/log";
import { startBenchApp } from "./lib/bench-app";
import { corpus, queries } from "./lib/corpus";
import { AGENT, loadCorpus, recallLoop } from "./lib/load-corpus";
import { bm25 } from "./lib/quality-set";
import { loop, percentile } from "./lib/stats";

const args = new Map(
  process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string]),
);
const MEMORIES = Number(args.get("memories") ?? 1000);
const REQUESTS = Number(args.get("requests") ?? 300);
const STRATEGIES = ["AUTO", "VECTOR", "LEXICAL"] as const;
/**
 * `--before=<base url>,<key>`: another server (e.g. the previous commit, started with the same
 * corpus under agent "bench-agent") to time end to end beside this one, request by request
 * alternately.
 */
const beforeServer = args.get("before")?.split(",") as [string, string] | undefined;

const fmt = (ms: number) => (Number.isNaN(ms) ? "—" : ms < 0.1 ? ms.toFixed(3) : ms.toFixed(2));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/**
 * p50 of `before` and of `after` over `n` runs each, alternating call by call so both see the same
 * machine load (this box is shared; see the load average printed with the table).
 */
async function pairP50(
  n: number,
  before: (i: number) => Promise<unknown> | unknown,
  after: (i: number) => Promise<unknown> | unknown,
): Promise<[number, number]> {
  for (let i = 0; i < Math.min(20, n); i++) {
    await before(i);
    await after(i);
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < n; i++) {
    let t0 = performance.now();
    await before(i);
    a.push(performance.now() - t0);
    t0 = performance.now();
    await after(i);
    b.push(performance.now() - t0);
  }
  return [
    percentile(
      a.sort((x, y) => x - y),
      50,
    ),
    percentile(
      b.sort((x, y) => x - y),
      50,
    ),
  ];
}

/** p50 of `fn` over `n` sequential runs (after a short warm-up), in ms. */
async function p50(n: number, fn: (i: number) => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < Math.min(20, n); i++) await fn(i);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

function echoServer() {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => Response.json({ echo: await request.json() }),
  });
  return { base: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

const app = await startBenchApp("recallcost", {
  RATE_LIMIT_ENABLED: true,
  RATE_LIMIT_REQUESTS: 1_000_000,
  RATE_LIMIT_BURST: 1_000_000,
});
const echo = echoServer();
try {
  const texts = corpus(MEMORIES);
  console.error(`[recall-cost] loading ${MEMORIES} memories …`);
  await loadCorpus(app, texts);
  await app.analyze();
  const qs = queries(REQUESTS);
  const { deps } = app;
  const startedLoad = load();

  // (1) End to end, with the baselines in the same run.
  const echoLatency = await loop(qs.length, 1, 60, async (i) => {
    const r = await fetch(`${echo.base}/v1/memories/recall`, {
      method: "POST",
      headers: { authorization: `Bearer ${app.key}`, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: AGENT, query: qs[i], top_k: 10 }),
    });
    await r.arrayBuffer();
    return r.ok;
  });
  const search = bm25(texts);
  const bm25P50 = await p50(qs.length, (i) => search(qs[i]!, 10));
  const endToEnd: Record<string, { p50: number; p95: number; errors: number }> = {};
  const before: Record<string, number> = {};
  const recallAt = async (base: string, key: string, query: string, strategy: string) => {
    const r = await fetch(`${base}/v1/memories/recall`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: AGENT, query, top_k: 10, strategy }),
    });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`recall answered ${r.status} at ${base}`);
  };
  const WARM_UP = 100; // enough for every pooled connection to have planned (and cached) each strategy's statements
  if (beforeServer) {
    for (const strategy of STRATEGIES) {
      for (let i = 0; i < WARM_UP; i++)
        await Promise.all([
          recallAt(beforeServer[0], beforeServer[1], qs[i]!, strategy),
          recallAt(app.base, app.key, qs[i]!, strategy),
        ]);
    }
    for (const strategy of STRATEGIES) {
      const [b, a] = await pairP50(
        qs.length,
        (i) => recallAt(beforeServer[0], beforeServer[1], qs[i]!, strategy),
        (i) => recallAt(app.base, app.key, qs[i]!, strategy),
      );
      before[strategy] = b;
      endToEnd[strategy] = { p50: a, p95: NaN, errors: 0 };
    }
  } else {
    // The strategies take turns, request by request, so each sees the same machine and the same
    // warm-up.
    for (const strategy of STRATEGIES) await recallLoop(app, qs.slice(0, WARM_UP), 1, strategy);
    const times = new Map<string, number[]>(STRATEGIES.map((s) => [s, []]));
    for (let i = 0; i < qs.length; i++) {
      for (const strategy of STRATEGIES) {
        const t0 = performance.now();
        await recallAt(app.base, app.key, qs[i]!, strategy);
        times.get(strategy)!.push(performance.now() - t0);
      }
    }
    for (const [strategy, t] of times) {
      t.sort((a, b) => a - b);
      endToEnd[strategy] = { p50: percentile(t, 50), p95: percentile(t, 95), errors: 0 };
    }
  }

  // (2) Stages, each alone against the same app and data.
  const identity = await deps.authenticate(app.key);
  const actor: Actor = {
    orgId: identity.orgId,
    keyId: identity.keyId,
    requestId: "bench",
    role: "tenant",
  };
  const uncached = createKeyAuthenticator(deps.db, undefined, createKeyCache(0));
  const tenantPolicy = tenantBucketPolicyOf(deps.config);
  const bodyCheck = TypeCompiler.Compile(recallBody(deps.config));
  const responseCodec = TypeCompiler.Compile(RecallResponse);
  const bodies = qs.map((query) => ({ agent_id: AGENT, query, top_k: 10, strategy: "VECTOR" }));
  const input = (i: number, strategy: RecallInput["strategy"]): RecallInput => ({
    agentId: AGENT,
    query: qs[i]!,
    topK: 10,
    strategy,
  });
  const vectorPlans = await Promise.all(
    qs.map((_, i) => planRecall(deps, actor, input(i, "VECTOR"))),
  );
  const outcomes = await Promise.all(
    vectorPlans.slice(0, 50).map((plan) => executeRecall(deps, actor, plan)),
  );
  const vector = strategyNamed("VECTOR");
  const searchOf = (i: number) => ({
    filter: { orgId: actor.orgId, agentId: AGENT },
    query: qs[i]!,
    topK: 10,
    now: new Date(),
    queryVector: vectorPlans[i]!.queryVector,
    dimensions: deps.embedder.dimensions,
    embeddingModel: deps.embedder.model,
    exactMaxRows: deps.config.RECALL_VECTOR_EXACT_MAX_ROWS,
    efSearch: deps.config.RECALL_HNSW_EF_SEARCH,
    maxScanTuples: deps.config.RECALL_HNSW_MAX_SCAN_TUPLES,
    asOf: null,
    params: {},
  });
  const n = qs.length;
  const stages: Array<{ stage: string; before: number; after: number; how: string }> = [];
  const stage = (name: string, [before, after]: [number, number], how: string) =>
    stages.push({ stage: name, before, after, how });
  const same = async (fn: (i: number) => unknown): Promise<[number, number]> => {
    const v = await p50(n, fn);
    return [v, v];
  };

  stage(
    "auth",
    await pairP50(
      n,
      () => uncached(app.key),
      () => deps.authenticate(app.key),
    ),
    "before: key-lookup transaction per request; after: in-process cache hit (LISTEN/NOTIFY invalidation)",
  );
  stage(
    "rate limit",
    await same(() =>
      takeRequestTokens(
        deps.limiter,
        { role: "tenant", ...identity },
        deps.bucketPolicy,
        tenantPolicy,
      ),
    ),
    "one EVALSHA to Valkey (key + tenant bucket), unchanged",
  );
  stage(
    "validation",
    await same((i) => {
      bodyCheck.Check(bodies[i]);
      inspectInput(bodies[i], "", deps.config.SVC_JSON_MAX_DEPTH);
    }),
    "TypeBox compiled check + input rules walk, unchanged",
  );
  stage(
    "AUTO routing",
    [NaN, await p50(n, (i) => planRecall(deps, actor, input(i, "AUTO")))],
    "the rules in-process; the graph entity-rule read they may need rides in the recall transaction (before: a read-only transaction of its own)",
  );
  stage(
    "embed (VECTOR)",
    await pairP50(
      n,
      (i) => deps.embedder.embed([qs[i]!], { orgId: actor.orgId }),
      (i) => deps.embedder.embedUncharged!([qs[i]!], { orgId: actor.orgId }),
    ),
    "before: reserve + settle transactions around the local embedder; after: in-process, charged in the recall transaction",
  );
  stage(
    "SQL: VECTOR search transaction",
    await same((i) =>
      withTenant(deps.db, actor.orgId, async (tx) => {
        limitRecallTransaction(tx, deps.config.RECALL_TIMEOUT_MS);
        return vector.run(tx, searchOf(i), undefined);
      }),
    ),
    "BEGIN, settings + search (pipelined), COMMIT",
  );
  const ids = outcomes[0]!.results.map((r) => r.memory_id);
  const auditLike = (tx: Parameters<typeof recordAudit>[0]) =>
    recordAudit(tx, actor, {
      operation: "recall",
      agentId: AGENT,
      targetIds: ids,
      detail: { bench: true },
    });
  const spend = { tokens: 10, embeddingCalls: 1 };
  // The access UPDATE recalls used to run (about 1.1 ms of server time in the statement log) cannot
  // run any more: its columns moved to memory_access, which the audit drain fills (sql/0133).
  stage(
    "writes after the search, in the transaction",
    [
      NaN,
      await p50(n, () =>
        withTenant(deps.db, actor.orgId, (tx) =>
          Promise.all([auditLike(tx), chargeInTransaction(tx, deps.config, actor.orgId, spend)]),
        ),
      ),
    ],
    "before: access UPDATE then audit INSERT, one round trip each; after: audit and budget charge pipelined in one, the access counted by the audit drain from the audit row",
  );
  stage(
    "whole recall transaction (VECTOR)",
    [NaN, await p50(n, (i) => executeRecall(deps, actor, vectorPlans[i]!))],
    "after: search, audit and charge in ONE tenant transaction",
  );
  // Elysia's response step: Encode; on failure (an unknown property) Clean, then Encode again.
  const elysiaEncode = (value: unknown) => {
    try {
      return responseCodec.Encode(value);
    } catch {
      return responseCodec.Encode(Value.Clean(RecallResponse, structuredClone(value)));
    }
  };
  const withWorkingColumns = outcomes.map((o) => ({
    ...o,
    results: o.results.map((r) => ({ ...r, distance: 0.5 })),
  }));
  stage(
    "response encode + JSON",
    await pairP50(
      n,
      (i) => JSON.stringify(elysiaEncode(withWorkingColumns[i % outcomes.length]!)),
      (i) => JSON.stringify(elysiaEncode(outcomes[i % outcomes.length]!)),
    ),
    "Elysia's TypeBox Encode of RecallResponse + JSON.stringify; before: rows carried VECTOR's distance, so Encode threw, Clean ran and Encode ran again",
  );

  const infoLog = createLogger("info", { write: () => {} });
  const req = new Request(`http://127.0.0.1/v1/memories/recall`, { method: "POST" });
  const res = new Response("{}", { status: 200 });
  stage(
    "access log line + metrics",
    await same(() =>
      logRequest(infoLog, deps.metrics, req, res, {
        requestId: "bench",
        startedAt: performance.now(),
        clientAddress: "127.0.0.1",
        route: "/v1/memories/recall",
        identity: { role: "tenant", ...identity },
      }),
    ),
    "one pino JSON line at LOG_LEVEL=info (to a null sink) + Prometheus counter and histogram, unchanged",
  );

  const lines: string[] = [];
  lines.push(
    `recall cost at ${MEMORIES} memories, ${REQUESTS} requests per row, c=1, ${new Date().toISOString().slice(0, 16)}Z, load average ${startedLoad} → ${load()}`,
    "",
  );
  lines.push(
    "| path | before p50 ms | p50 ms | p95 ms | × echo p50 | × BM25 p50 |",
    "|---|---|---|---|---|---|",
  );
  lines.push(
    `| baseline: bare Bun.serve JSON echo (same client, loopback) | | ${fmt(echoLatency.p50)} | ${fmt(echoLatency.p95)} | 1.0 | |`,
  );
  lines.push(
    `| baseline: in-process BM25 over the same ${MEMORIES} texts | | ${fmt(bm25P50)} | | | 1.0 |`,
  );
  for (const s of STRATEGIES) {
    const e = endToEnd[s]!;
    lines.push(
      `| POST /v1/memories/recall ${s}${e.errors ? ` (${e.errors} errors)` : ""} | ${before[s] === undefined ? "" : fmt(before[s]!)} | ${fmt(e.p50)} | ${fmt(e.p95)} | ${(e.p50 / echoLatency.p50).toFixed(1)} | ${(e.p50 / bm25P50).toFixed(1)} |`,
    );
  }
  lines.push(
    "",
    "| stage (alone, in-process) | before p50 ms | after p50 ms | what |",
    "|---|---|---|---|",
  );
  for (const s of stages)
    lines.push(`| ${s.stage} | ${fmt(s.before)} | ${fmt(s.after)} | ${s.how} |`);
  console.log(lines.join("\n"));
} finally {
  echo.stop();
  await app.stop();
}
