// The /graph viewer in headless Chromium (Debian's, driven by playwright-core) against the real app
// over real HTTP on PostgreSQL: a distilled graph; the page and its assets public, with a strict
// CSP that the page never trips; key in sessionStorage only; load an agent, search, click a node
// and an edge, open a memory's history; the event-time slider makes the superseded edge appear and
// the current one disappear.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { testApp, type TestApp, type Tenant } from "../harness/app";
import { fixtureExtractor } from "../graph/fixture-extractor";
import { distill, storeAll } from "../graph/helpers";

const DAY = 86_400_000;
const agent = "viewer-agent";
let t: TestApp;
let a: Tenant;
let server: ReturnType<typeof Bun.serve>;
let base: string;
let browser: Browser;
let memoryIds: string[];

beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("viewer");
  memoryIds = await storeAll(t, a, agent, [
    "Alice works at Acme. Acme has its headquarters in Berlin.",
    "Bob knows Alice.",
    "In 2019 Alice moved to Paris.",
    "In 2023 Alice moved to Berlin.",
    "Bob uses Postgres.",
  ]);
  expect((await distill(t, a, fixtureExtractor(), agent, memoryIds)).state).toBe("succeeded");
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: t.handle });
  base = `http://127.0.0.1:${server.port}`;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", chromiumSandbox: false });
});
afterAll(async () => {
  await browser?.close();
  server?.stop(true);
  await t?.close();
});

// What cytoscape holds: the facts of the drawn edges, and where a node is drawn on the page.
const drawnFacts = (page: Page) =>
  page.evaluate(
    () =>
      (globalThis as any).svcGraphViewer.cy
        .edges()
        .map((e: any) => e.data("fact"))
        .sort() as string[],
  );
async function clickNode(page: Page, name: string) {
  const at = await page.evaluate(
    (n) =>
      (globalThis as any).svcGraphViewer.cy
        .nodes()
        .filter((x: any) => x.data("name") === n)[0]
        .renderedPosition(),
    name,
  );
  const box = (await page.locator("#graph").boundingBox())!;
  await page.mouse.click(box.x + at.x, box.y + at.y);
}
async function clickEdge(page: Page, fact: string) {
  const at = await page.evaluate(
    (f) =>
      (globalThis as any).svcGraphViewer.cy
        .edges()
        .filter((x: any) => x.data("fact") === f)[0]
        .renderedMidpoint(),
    fact,
  );
  const box = (await page.locator("#graph").boundingBox())!;
  await page.mouse.click(box.x + at.x, box.y + at.y);
}

describe("graph viewer", () => {
  test("the page and its assets are public, typed, and served under a strict CSP; the data still needs a key", async () => {
    expect((await fetch(`${base}/graph/`)).status).toBe(200);
    const page = await fetch(`${base}/graph`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe");
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<style|\sstyle="|\son[a-z]+="/); // nothing inline
    for (const [path, type] of [
      ["cytoscape.esm.min.mjs", "text/javascript"],
      ["viewer.js", "text/javascript"],
      ["viewer.css", "text/css"],
    ] as const) {
      const res = await fetch(`${base}/_assets/graph-viewer/${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toStartWith(type);
      expect((await res.text()).length).toBeGreaterThan(500);
    }
    expect((await fetch(`${base}/v1/graph/data?agent_id=${agent}`)).status).toBe(401);
  });

  test("key, agent, search, node and edge details, memory history, and the event-time slider", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    const apiCalls: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.startsWith("/v1/"))
        apiCalls.push(
          `${r.headers().authorization === `Bearer ${a.key}` ? "key" : "NO KEY"} ${new URL(r.url()).pathname}`,
        );
    });

    await page.goto(`${base}/graph`);
    await page.fill("#key", a.key);
    await page.click("#key-form button[type=submit]");
    expect(
      await page.evaluate(() => {
        const w = globalThis as any;
        return [
          w.sessionStorage.getItem("svc.graphViewer.key"),
          w.localStorage.length,
          w.document.cookie,
        ];
      }),
    ).toEqual([a.key, 0, ""]);
    expect(await page.inputValue("#key")).toBe("");

    await page.fill("#agent", agent);
    await page.click("#agent-form button[type=submit]");
    await page.locator("#status", { hasText: "6 nodes · 5 edges · current graph" }).waitFor();
    expect(await drawnFacts(page)).toEqual([
      "Acme has its headquarters in Berlin.",
      "Alice works at Acme.",
      "Bob knows Alice.",
      "Bob uses Postgres.",
      "In 2023 Alice moved to Berlin.",
    ]);
    expect(await page.locator("#legend-list li").allTextContents()).toEqual([
      "ORG",
      "PERSON",
      "PLACE",
      "TOOL",
    ]);

    // Search by name: Enter selects the match and shows its facts and the memories grounding it.
    await page.fill("#search", "alic");
    await page.press("#search", "Enter");
    await expect(page.locator("#details h2").textContent()).resolves.toBe("Alice");
    const aliceFacts = await page.locator("#details li.fact q").allTextContents();
    expect(aliceFacts.sort()).toEqual([
      "Alice works at Acme.",
      "Bob knows Alice.",
      "In 2023 Alice moved to Berlin.",
    ]);
    const aliceSources = await page
      .locator("#details ul.sources a")
      .evaluateAll((links) => links.map((l) => l.getAttribute("href")));
    expect(aliceSources.sort()).toEqual(
      memoryIds
        .slice(0, 4)
        .map((id) => `/v1/memories/${id}/history`)
        .sort(),
    );
    await page.fill("#search", "");

    // A click on a node on the canvas.
    await clickNode(page, "Bob");
    await expect(page.locator("#details h2").textContent()).resolves.toBe("Bob");
    expect((await page.locator("#details li.fact q").allTextContents()).sort()).toEqual([
      "Bob knows Alice.",
      "Bob uses Postgres.",
    ]);
    expect((await page.locator("#details ul.sources a").allTextContents()).sort()).toEqual(
      [`${memoryIds[1]} (v1)`, `${memoryIds[4]} (v1)`].sort(),
    );

    // A source link fetches the memory's history with the key and shows it in the panel.
    await page.locator(`#details ul.sources a[data-memory-id="${memoryIds[1]}"]`).click();
    await page.locator("#history li.version p", { hasText: "Bob knows Alice." }).waitFor();
    expect(await page.locator("#history h2").textContent()).toBe(`History of ${memoryIds[1]}`);
    expect(page.url()).toBe(`${base}/graph`);

    // A click on an edge.
    await clickEdge(page, "Bob uses Postgres.");
    await expect(page.locator("#details h2").textContent()).resolves.toBe("USES");
    expect(await page.locator("#details li.fact q").allTextContents()).toEqual([
      "Bob uses Postgres.",
    ]);
    expect(await page.locator("#details ul.sources a").allTextContents()).toEqual([
      `${memoryIds[4]} (v1)`,
    ]);

    // The slider back to 2020: Alice lived in Paris then (a closed edge, drawn dashed), not yet in
    // Berlin.
    await page.fill("#as-of", String(Math.floor(Date.parse("2020-01-01T00:00:00Z") / DAY)));
    await page.locator("#status", { hasText: "as of 2020-01-01" }).waitFor();
    let facts = await drawnFacts(page);
    expect(facts).toContain("In 2019 Alice moved to Paris.");
    expect(facts).not.toContain("In 2023 Alice moved to Berlin.");
    expect(
      await page.evaluate(() =>
        (globalThis as any).svcGraphViewer.cy
          .edges()
          .filter((e: any) => e.data("relation") === "LIVES_IN")
          .map((e: any) => [e.hasClass("closed"), e.style("line-style")]),
      ),
    ).toEqual([[true, "dashed"]]);

    // And forward to now: Berlin is back, Paris gone.
    await page.fill("#as-of", (await page.getAttribute("#as-of", "max")) as string);
    await page.locator("#status", { hasText: "current graph" }).waitFor();
    facts = await drawnFacts(page);
    expect(facts).toContain("In 2023 Alice moved to Berlin.");
    expect(facts).not.toContain("In 2019 Alice moved to Paris.");

    // The picture for docs/: every edge either timeline knows, the superseded one dashed, Alice
    // selected.
    await page.check("#include-expired");
    await page.locator("#status", { hasText: "6 nodes · 6 edges · current graph" }).waitFor();
    await page.fill("#search", "Alice");
    await page.press("#search", "Enter");
    await page.locator("#details h2", { hasText: "Alice" }).waitFor();
    // The committed docs/graph-viewer.png is refreshed on demand (SVC_SCREENSHOT=1), not on every
    // run.
    const shot = await page.screenshot(
      process.env.SVC_SCREENSHOT === "1" ? { path: "docs/graph-viewer.png" } : {},
    );
    expect(shot.byteLength).toBeGreaterThan(10_000);

    expect(apiCalls.length).toBeGreaterThan(5);
    expect(apiCalls.filter((c) => c.startsWith("NO KEY"))).toEqual([]);
    expect(problems).toEqual([]); // no CSP violation, no script error
    await page.close();
  }, 60_000);

  test("a wrong key shows the API's problem, not a broken page", async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/graph`);
    await page.fill("#key", "svc_sk_not_a_key");
    await page.click("#key-form button[type=submit]");
    await page.fill("#agent", agent);
    await page.click("#agent-form button[type=submit]");
    await page.locator("#status.error", { hasText: "401" }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).svcGraphViewer.cy.elements().length)).toBe(
      0,
    );
    await page.close();
  }, 30_000);
});
