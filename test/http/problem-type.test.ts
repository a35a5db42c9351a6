// Issue 15 item 5: problem `type` URIs come from configuration only (SVC_DOCS_URL, else
// SVC_PUBLIC_URL, else the bind address); whatever Host a request claims is never reflected.
import { afterAll, expect, test } from "bun:test";
import { testApp, type TestApp } from "../harness/app";

const opened: TestApp[] = [];
afterAll(async () => {
  for (const t of opened) await t.close();
});

async function typeOf(
  overrides: Record<string, unknown>,
  url = "http://evil.example/docs/errors/nope",
): Promise<string> {
  const t = await testApp(overrides);
  opened.push(t);
  const r = await t.handle(
    new Request(url, { headers: { host: "evil.example", "x-forwarded-host": "evil.example" } }),
  );
  expect(r.status).toBe(404);
  return ((await r.json()) as { type: string }).type;
}

test("a forged Host header never reaches the problem type", async () => {
  expect(await typeOf({})).toBe("http://127.0.0.1:8080/docs/errors/not-found");
  expect(await typeOf({ HOST: "0.0.0.0", PORT: 9090 })).toBe(
    "http://localhost:9090/docs/errors/not-found",
  );
  expect(await typeOf({ HOST: "::1" })).toBe("http://[::1]:8080/docs/errors/not-found");
});

test("SVC_PUBLIC_URL and SVC_DOCS_URL decide the base, in that order of precedence", async () => {
  expect(await typeOf({ SVC_PUBLIC_URL: "https://memory.example.com/" })).toBe(
    "https://memory.example.com/docs/errors/not-found",
  );
  expect(
    await typeOf({
      SVC_PUBLIC_URL: "https://memory.example.com",
      SVC_DOCS_URL: "https://docs.example.com/svc",
    }),
  ).toBe("https://docs.example.com/svc/errors/not-found");
});
