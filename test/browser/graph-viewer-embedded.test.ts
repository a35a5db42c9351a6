// The /graph viewer in embedded mode (PGlite), in headless Chromium: the same page over a seeded
// graph, its facts and grounding memories, and the as_of slider reading the superseded edge back.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { closeDeps, openDeps } from "../../src/app/build-deps";
import type { Deps } from "../../src/operations/deps";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";
import { migrate } from "../../src/data/migrate";
import { ensureVectorIndex } from "../../src/data/queries/memories/vector-index";
import { systemActor } from "../../src/domain/actor";
import { ensureOrg } from "../../src/domain/keys/bootstrap";
import { createKey } from "../../src/domain/keys/manage";
import { createApp, handleRequest } from "../../src/app/create-app";
import { createLogger } from "../../src/observability/log";
import { seedGraph } from "../graph/seed-graph";
import { seedEmbeddedDataDir } from "../harness/pglite-template";

const DAY = 86_400_000;
const dataDir = mkdtempSync(path.join(tmpdir(), "svc-embedded-viewer-"));
let deps: Deps;
let key: string;
let server: ReturnType<typeof Bun.serve>;
let browser: Browser;
let memoryIds: string[];

beforeAll(async () => {
  const config = loadConfig({}, {
    SVC_DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    RATE_LIMIT_ENABLED: false,
    EMBEDDING_DIMENSIONS: 128,
  } as Partial<Config>);
  await seedEmbeddedDataDir(dataDir); // a migrated copy: no initdb per file
  deps = await openDeps(config, {
    log: createLogger("error"),
    applicationName: "svc-embedded-viewer",
  });
  await migrate(deps.db.primary);
  await ensureVectorIndex(deps.db.primary, 128);
  const handle = handleRequest(createApp(deps), deps);
  const orgId = await ensureOrg(deps.db, "embedded-viewer");
  key = (await createKey(deps.db, systemActor(orgId), "test")).key;
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: handle });
  const stored = await fetch(`http://127.0.0.1:${server.port}/v1/memories/batch`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      memories: ["In 2019 Alice moved to Paris.", "In 2023 Alice moved to Berlin."].map(
        (content) => ({ agent_id: "emb", content }),
      ),
    }),
  });
  expect(stored.status).toBe(201);
  memoryIds = ((await stored.json()) as { memories: Array<{ memory_id: string }> }).memories.map(
    (m) => m.memory_id,
  );
  await seedGraph(
    deps.db,
    orgId,
    "emb",
    [
      { key: "alice", type: "PERSON", name: "Alice", sources: memoryIds },
      { key: "paris", type: "PLACE", name: "Paris", sources: [memoryIds[0]!] },
      { key: "berlin", type: "PLACE", name: "Berlin", sources: [memoryIds[1]!] },
    ],
    [
      {
        key: "paris",
        from: "alice",
        rel: "LIVES_IN",
        to: "paris",
        fact: "In 2019 Alice moved to Paris.",
        validAt: "2019-06-01T00:00:00Z",
        invalidAt: "2023-03-01T00:00:00Z",
        expiredReason: "superseded",
        sources: [memoryIds[0]!],
      },
      {
        key: "berlin",
        from: "alice",
        rel: "LIVES_IN",
        to: "berlin",
        fact: "In 2023 Alice moved to Berlin.",
        validAt: "2023-03-01T00:00:00Z",
        weight: 0.9,
        sources: [memoryIds[1]!],
      },
    ],
  );
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", chromiumSandbox: false });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.stop(true);
  await closeDeps(deps);
  rmSync(dataDir, { recursive: true, force: true });
});

test("on PGlite: load, search, facts and sources, and the slider", async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  const facts = () =>
    page.evaluate(
      () =>
        (globalThis as any).svcGraphViewer.cy.edges().map((e: any) => e.data("fact")) as string[],
    );

  await page.goto(`http://127.0.0.1:${server.port}/graph`);
  await page.fill("#key", key);
  await page.click("#key-form button[type=submit]");
  await page.fill("#agent", "emb");
  await page.click("#agent-form button[type=submit]");
  await page.locator("#status", { hasText: "3 nodes · 1 edges · current graph" }).waitFor();
  expect(await facts()).toEqual(["In 2023 Alice moved to Berlin."]);

  await page.fill("#search", "alice");
  await page.press("#search", "Enter");
  await page.locator("#details h2", { hasText: "Alice" }).waitFor();
  expect(await page.locator("#details li.fact q").allTextContents()).toEqual([
    "In 2023 Alice moved to Berlin.",
  ]);
  expect(
    (
      await page
        .locator("#details ul.sources a")
        .evaluateAll((links) => links.map((l) => l.getAttribute("data-memory-id")))
    ).sort(),
  ).toEqual([...memoryIds].sort());

  await page.fill("#as-of", String(Math.floor(Date.parse("2020-01-01T00:00:00Z") / DAY)));
  await page.locator("#status", { hasText: "as of 2020-01-01" }).waitFor();
  expect(await facts()).toEqual(["In 2019 Alice moved to Paris."]);
  expect(problems).toEqual([]);
  await page.close();
}, 60_000);
