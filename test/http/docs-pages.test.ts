// The API docs pages load their definition with and without a trailing slash: every URL a page uses
// is absolute (a relative spec URL under /docs/ would resolve to /docs/openapi.json) and each
// answers 200.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../harness/app";

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t.close();
});

const urlsIn = (html: string) =>
  [...html.matchAll(/(?:src|href|spec-url)="([^"]+)"|url: "([^"]+)"/g)].map((m) => m[1] ?? m[2]!);

describe("docs pages", () => {
  for (const page of ["/docs", "/docs/", "/redoc", "/redoc/"]) {
    test(`${page} is public HTML whose spec and assets are absolute and load`, async () => {
      const r = await t.request("GET", page, { key: null });
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toStartWith("text/html");
      const urls = urlsIn(r.text);
      expect(urls).toContain("/openapi.json");
      expect(urls.length).toBeGreaterThanOrEqual(page.startsWith("/docs") ? 3 : 2);
      for (const url of urls) {
        expect(url, `${page} uses ${url}`).toStartWith("/");
        const loaded = await t.request("GET", url, { key: null });
        expect(loaded.status, `${page} → ${url}`).toBe(200);
      }
    });
  }

  test("the pages are not part of the API definition", async () => {
    const spec = (await t.request("GET", "/openapi.json", { key: null })).body as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(spec.paths).length).toBeGreaterThan(10);
    expect(Object.keys(spec.paths).filter((p) => /^\/(docs|redoc)/.test(p))).toEqual([]);
  });
});
