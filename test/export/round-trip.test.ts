// Export and import end to end: an embedded (PGlite) instance's tenant is exported over GET
// /v1/export and with `svc export | svc import` into PostgreSQL, exported again there, and the two
// streams carry the same content line for line. Import is idempotent, all or nothing, refuses an
// altered or truncated stream naming the line, and writes one audit row per batch.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeDeps, openDeps } from "../../src/app/build-deps";
import type { Deps } from "../../src/operations/deps";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";
import { migrate } from "../../src/data/migrate";
import { ensureVectorIndex } from "../../src/data/queries/memories/vector-index";
import { withTenant } from "../../src/data/with-tenant";
import { systemActor } from "../../src/domain/actor";
import { drainAudit } from "../../src/domain/audit/drain";
import { lineVerifier } from "../../src/domain/export/format";
import { importStream } from "../../src/domain/export/import";
import { ensureOrg } from "../../src/domain/keys/bootstrap";
import { createKey } from "../../src/domain/keys/manage";
import { createApp, handleRequest } from "../../src/app/create-app";
import { createLogger } from "../../src/observability/log";
import { testApp, type TestApp } from "../harness/app";
import { TEST_QUEUE_PREFIX, TEST_VALKEY_URL, testDatabaseEnv } from "../harness/env";
import { BUN, MAIN } from "../harness/process";
import { seedGraph } from "../graph/seed-graph";
import { lexemesMissing } from "../http/recall/lexemes";
import { seedEmbeddedDataDir } from "../harness/pglite-template";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-export-src-"));
const sourceOrg = `export-src-${process.pid}`;
let source: Deps | null = null;
let sourceKey = "";
let otherKey = "";
let apiExport = "";
let pg: TestApp;

async function call(key: string, method: string, url: string, body?: unknown) {
  const response = await handleRequest(
    createApp(source!),
    source!,
  )(
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
  if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return {
    text,
    body: /application\/(problem\+)?json/.test(response.headers.get("content-type") ?? "")
      ? JSON.parse(text)
      : null,
  };
}

/** The content of a stream: every record but the header, the audit head and the end record. */
const content = (stream: string) =>
  stream
    .trim()
    .split("\n")
    .filter((l) => !/^\{"k":"(header|audit_head|end)"/.test(l))
    .map((l) => l.replace(/"h":"[0-9a-f]{64}",/, ""));
const kinds = (stream: string) =>
  stream
    .trim()
    .split("\n")
    .map((l) => /^\{"k":"([a-z_]+)"/.exec(l)![1]);
const linesOf = async function* (text: string) {
  yield* text.split("\n");
};

beforeAll(async () => {
  pg = await testApp();
  const config = loadConfig({}, {
    SVC_DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    RATE_LIMIT_ENABLED: false,
    EMBEDDING_DIMENSIONS: 128,
    INGEST_ENABLED: true,
    REFINE_ENABLED: true,
  } as Partial<Config>);
  await seedEmbeddedDataDir(dataDir); // a migrated copy: no initdb per file
  source = await openDeps(config, {
    log: createLogger("error"),
    applicationName: "svc-export-src",
  });
  await migrate(source.db.primary);
  await ensureVectorIndex(source.db.primary, 128);
  const orgId = await ensureOrg(source.db, sourceOrg);
  sourceKey = (await createKey(source.db, systemActor(orgId), "test")).key;
  otherKey = (
    await createKey(
      source.db,
      systemActor(await ensureOrg(source.db, `${sourceOrg}-other`)),
      "test",
    )
  ).key;

  const dataset = (await call(sourceKey, "POST", "/v1/datasets", { name: "handbook" })).body;
  const a = (
    await call(sourceKey, "POST", "/v1/memories", {
      agent_id: "ops",
      content: "Alice manages the Berlin office",
      metadata: { team: "ops" },
      importance: 0.7,
      dataset_id: dataset.dataset_id,
    })
  ).body;
  await call(sourceKey, "PATCH", `/v1/memories/${a.memory_id}`, {
    content: "Alice manages the Munich office",
  });
  const b = (
    await call(sourceKey, "POST", "/v1/memories", {
      agent_id: "ops",
      content: "Bob was hired in 2021",
      occurred_at: "2021-03-04",
    })
  ).body;
  const gone = (
    await call(sourceKey, "POST", "/v1/memories", {
      agent_id: "ops",
      content: "A secret to forget",
    })
  ).body;
  await call(sourceKey, "POST", "/v1/memories/forget", { memory_id: gone.memory_id });
  const conversation = (
    await call(sourceKey, "POST", "/v1/conversations", { agent_id: "ops", title: "standup" })
  ).body;
  await call(sourceKey, "POST", `/v1/conversations/${conversation.conversation_id}/turns`, {
    role: "user",
    content: "Who runs Munich?",
  });
  await call(sourceKey, "POST", `/v1/conversations/${conversation.conversation_id}/turns`, {
    role: "assistant",
    content: "Alice does.",
  });
  await call(sourceKey, "POST", "/v1/sessions", { agent_id: "ops" });
  await call(sourceKey, "POST", "/v1/feedback", { memory_id: b.memory_id, signal: 1 });
  await seedGraph(
    source.db,
    orgId,
    "ops",
    [
      { key: "alice", type: "PERSON", name: "Alice", sources: [b.memory_id] },
      { key: "munich", type: "PLACE", name: "Munich" },
    ],
    [
      {
        key: "e1",
        from: "alice",
        rel: "WORKS_IN",
        to: "munich",
        validAt: "2022-01-01T00:00:00Z",
        invalidAt: "2024-01-01T00:00:00Z",
        sources: [b.memory_id],
      },
    ],
  );
  await call(otherKey, "POST", "/v1/memories", {
    agent_id: "ops",
    content: "Another tenant's memory",
  });
  await drainAudit(source.db, {});
}, 120_000);

afterAll(async () => {
  if (source) await closeDeps(source);
  await pg?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("export and import", () => {
  test("GET /v1/export streams the caller's tenant as a verifiable chain", async () => {
    apiExport = (await call(sourceKey, "GET", "/v1/export")).text;
    const verifier = lineVerifier();
    for (const line of apiExport.trim().split("\n")) verifier.check(line);
    verifier.finish();
    const counts = Object.groupBy(kinds(apiExport), (k) => k!);
    expect(counts.memory).toHaveLength(6); // Alice v1 + v2, Bob, the forgotten one, two turns
    for (const kind of [
      "header",
      "dataset",
      "session",
      "conversation",
      "turn",
      "memo",
      "memo_source",
      "edge",
      "edge_source",
      "feedback",
      "audit_head",
      "end",
    ])
      expect(counts[kind]?.length ?? 0, kind).toBeGreaterThan(0);
    expect(apiExport).toContain('"invalid_at": "2024-01-01T00:00:00+00:00"');
    expect(apiExport).not.toContain("Another tenant's memory");
    expect(apiExport).toContain('"deleted_at": "20'); // the forgotten version travels with its deletion
    const head = JSON.parse(
      /\{"k":"audit_head","h":"[0-9a-f]{64}","d":(.*)\}/.exec(apiExport)![1]!,
    );
    expect(head.seq).toBeGreaterThan(0);
    expect(head.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test("svc export | svc import moves the tenant from embedded to PostgreSQL with identical content", async () => {
    await closeDeps(source!);
    source = null;
    const targetOrg = `export-dst-${process.pid}`;
    const script = `SVC_DATA_DIR="$SRC_DIR" "$BUN" "$MAIN" export --org "$SRC_ORG" | DATABASE_URL="$DST_URL" DATABASE_MIGRATION_URL="$DST_OWNER_URL" VALKEY_URL="$DST_VALKEY" SVC_QUEUE_PREFIX="$DST_PREFIX" "$BUN" "$MAIN" import --org "$DST_ORG"`;
    const proc = Bun.spawn(["bash", "-o", "pipefail", "-c", script], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? "/tmp",
        LOG_LEVEL: "warn",
        BUN,
        MAIN,
        SRC_DIR: dataDir,
        SRC_ORG: sourceOrg,
        DST_URL: testDatabaseEnv().DATABASE_URL,
        DST_OWNER_URL: testDatabaseEnv().DATABASE_MIGRATION_URL,
        DST_VALKEY: TEST_VALKEY_URL,
        DST_PREFIX: `${TEST_QUEUE_PREFIX}-import`,
        DST_ORG: targetOrg,
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect(code, stderr).toBe(0);
    const summary = JSON.parse(stdout.trim());
    expect(summary.rows).toBe(
      kinds(apiExport).filter((k) => !["header", "audit_head", "end"].includes(k!)).length,
    );
    expect(summary.inserted).toBe(summary.rows);
    expect(summary.batches).toBeGreaterThan(5);
    expect(stderr).toContain("svc: export:"); // progress lines on a non-TTY stderr

    const key = (await createKey(pg.deps.db, systemActor(summary.org_id), "test")).key;
    const again = await pg.request("GET", "/v1/export", { key });
    expect(again.status).toBe(200);
    expect(content(again.text)).toEqual(content(apiExport));

    // The moved data works: history with both versions, the forgotten memory still forgotten.
    const memories = content(apiExport)
      .filter((l) => l.startsWith('{"k":"memory"'))
      .map((l) => JSON.parse(l.slice(l.indexOf('"d":') + 4, -1)));
    const alice = memories.find((m) => m.content === "Alice manages the Munich office");
    const history = await pg.request("GET", `/v1/memories/${alice.memory_id}/history`, { key });
    expect(history.body.versions.map((v: any) => [v.version, v.content])).toEqual([
      [1, "Alice manages the Berlin office"],
      [2, "Alice manages the Munich office"],
    ]);
    const forgotten = memories.find((m) => m.content === "A secret to forget");
    expect((await pg.request("GET", `/v1/memories/${forgotten.memory_id}`, { key })).status).toBe(
      410,
    );
    const recalled = await pg.request("POST", "/v1/memories/recall", {
      key,
      body: { agent_id: "ops", query: "Who was hired in 2021", strategy: "LEXICAL" },
    });
    expect(recalled.body.results[0].content).toBe("Bob was hired in 2021");
    // LEXICAL's postings are derived, not exported: the import's inserts post them (sql/0430).
    expect(await lexemesMissing(pg.deps.db, summary.org_id)).toEqual([]);
    const someWords = await pg.request("POST", "/v1/memories/recall", {
      key,
      body: { agent_id: "ops", query: "Munich weather", strategy: "LEXICAL" },
    });
    expect(someWords.body.results.map((r: { content: string }) => r.content)).toContain(
      "Alice manages the Munich office",
    );

    // Importing the same stream again changes nothing; each batch left one audit row.
    const repeat = await importStream(pg.deps.db, systemActor(summary.org_id), linesOf(apiExport));
    expect(repeat.inserted).toBe(0);
    expect(repeat.skipped).toBe(summary.rows);
    await drainAudit(pg.deps.db, {});
    const audit = await pg.request("GET", "/v1/audit?operation=import&limit=200", { key });
    expect(audit.body.items).toHaveLength(summary.batches + 1 + repeat.batches + 1); // batches plus one summary per import
  }, 120_000);

  test("an altered or truncated stream is refused with its line number, and nothing is imported", async () => {
    const tenant = await pg.tenant("import-refused");
    const lines = apiExport.trim().split("\n");
    const target = lines.findIndex((l) => l.includes("Bob was hired in 2021"));
    const altered = [...lines];
    altered[target] = altered[target]!.replace("2021", "2022");
    const refusal = await importStream(
      pg.deps.db,
      systemActor(tenant.orgId),
      linesOf(altered.join("\n")),
    ).catch((e) => e);
    expect(refusal.detail).toStartWith(
      `The export stream is refused at line ${target + 1}: hash mismatch`,
    );

    const truncated = await importStream(
      pg.deps.db,
      systemActor(tenant.orgId),
      linesOf(lines.slice(0, -3).join("\n")),
    ).catch((e) => e);
    expect(truncated.detail).toContain(
      `the stream ends after line ${lines.length - 3} without its end record (truncated)`,
    );

    const dropped = lines.filter((_, i) => i !== 3);
    expect(
      (
        await importStream(
          pg.deps.db,
          systemActor(tenant.orgId),
          linesOf(dropped.join("\n")),
        ).catch((e) => e)
      ).detail,
    ).toContain("refused at line 4: hash mismatch");

    const count = await withTenant(
      pg.deps.db,
      tenant.orgId,
      async (tx) => (await tx`SELECT count(*)::int AS n FROM memories`)[0]!.n,
    );
    expect(count).toBe(0);

    const file = path.join(dataDir, "altered.ndjson");
    writeFileSync(file, altered.join("\n") + "\n");
    const proc = Bun.spawn([BUN, MAIN, "import", "--org", tenant.name, file], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: "/tmp",
        ...testDatabaseEnv(),
        VALKEY_URL: TEST_VALKEY_URL,
        SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-import`,
        LOG_LEVEL: "warn",
      },
      stderr: "pipe",
      stdout: "pipe",
    });
    const [exit, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    expect(exit, stderr).toBe(1);
    expect(stderr).toContain(`refused at line ${target + 1}`);
  }, 120_000);
});
