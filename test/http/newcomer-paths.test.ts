// What a newcomer meets first over HTTP: GET / without a key points to the docs; a POST-only path
// asked with GET or PATCH is a 405 naming POST (not "Memory recall was not found"); an empty PATCH
// says what it needs in a sentence that reads.
import { afterAll, beforeAll, expect, test } from "bun:test";
import pkg from "../../package.json";
import { show, testApp, type TestApp, type Tenant } from "../harness/app";

let t: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  t = await testApp();
  tenant = await t.tenant("newcomer");
});
afterAll(() => t.close());

test("GET / answers without a key, pointing to /docs and /openapi.json", async () => {
  const r = await t.request("GET", "/");
  expect(r.status, show(r)).toBe(200);
  expect(r.body).toMatchObject({
    service: "svc",
    version: pkg.version,
    docs: "/docs",
    openapi: "/openapi.json",
  });
  const docs = await t.request("GET", r.body.docs);
  expect(docs.status).toBe(200);
});

test("GET and PATCH on the POST-only memory paths are 405 with Allow: POST, and change nothing", async () => {
  for (const path of [
    "/v1/memories/recall",
    "/v1/memories/recall/stream",
    "/v1/memories/batch",
    "/v1/memories/forget",
  ]) {
    for (const method of ["GET", "PATCH"]) {
      const r = await t.request(method, path, {
        key: tenant.key,
        body: method === "PATCH" ? { content: "x" } : undefined,
      });
      expect(r.status, `${method} ${path}: ${show(r)}`).toBe(405);
      expect(r.headers.get("allow")).toBe("POST");
      expect(r.body.type).toEndWith("/errors/method-not-allowed");
      expect(r.body.detail).toContain(`POST ${path}`);
    }
  }
  // Without a key the pipeline still answers 401 first: the 405 reveals nothing to strangers.
  expect((await t.request("GET", "/v1/memories/recall")).status).toBe(401);
  // A real memory id still reaches GET /v1/memories/{memory_id}.
  const stored = await t.request("POST", "/v1/memories", {
    key: tenant.key,
    body: { agent_id: "a", content: "still reachable" },
  });
  expect(
    (await t.request("GET", `/v1/memories/${stored.body.memory_id}`, { key: tenant.key })).status,
  ).toBe(200);
});

test("an empty PATCH is a 422 whose detail reads as a sentence", async () => {
  const stored = await t.request("POST", "/v1/memories", {
    key: tenant.key,
    body: { agent_id: "a", content: "patch me" },
  });
  const r = await t.request("PATCH", `/v1/memories/${stored.body.memory_id}`, {
    key: tenant.key,
    body: {},
  });
  expect(r.status, show(r)).toBe(422);
  expect(r.body.detail).toBe(
    "the request body must give at least one of content, metadata, importance, occurred_at",
  );
});
