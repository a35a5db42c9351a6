// Odd but schema-valid input must never produce a 5xx: tiny floats, extreme JSON numbers, NUL
// characters.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { testApp, show, type TestApp, type Tenant } from "../../harness/app";

let t: TestApp;
let a: Tenant;
beforeAll(async () => {
  t = await testApp();
  a = await t.tenant();
});
afterAll(() => t.close());

test("an importance below float4 precision is stored (rounded), not a 500", async () => {
  const r = await t.request("POST", "/v1/memories", {
    key: a.key,
    body: { agent_id: "x", content: "tiny", importance: 9.966221081770774e-111 },
  });
  expect(r.status, show(r)).toBe(201);
  expect(r.body.importance).toBe(0);
  const p = await t.request("PATCH", `/v1/memories/${r.body.memory_id}`, {
    key: a.key,
    body: { importance: 4.7e-50 },
  });
  expect(p.status, show(p)).toBe(200);
  const b = await t.request("POST", "/v1/memories/batch", {
    key: a.key,
    body: { memories: [{ agent_id: "x", content: "y", importance: 1e-300 }] },
  });
  expect(b.status, show(b)).toBe(201);
});

test("extreme numbers inside metadata round-trip", async () => {
  const metadata = {
    big: -2.5960411768160786e164,
    small: -7.340278435560388e-32,
    n: null,
    f: false,
  };
  const r = await t.request("POST", "/v1/memories", {
    key: a.key,
    body: { agent_id: "x", content: "numbers", metadata },
  });
  expect(r.status, show(r)).toBe(201);
  expect(r.body.metadata).toEqual(metadata);
});

test.each([
  [{ agent_id: "x", content: "nul \u0000 inside" }, "content"],
  [{ agent_id: "x\u0000", content: "ok" }, "agent_id"],
  [{ agent_id: "x", content: "ok", metadata: { k: "v\u0000" } }, "metadata"],
  [{ agent_id: "x", content: "ok", metadata: { "k\u0000": 1 } }, "metadata"],
  [{ agent_id: "x", content: "ok", dataset_id: "d\u0000" }, "dataset_id"],
])("NUL characters are a 422, not a 500 (case %#)", async (body, field) => {
  const r = await t.request("POST", "/v1/memories", { key: a.key, body });
  expect(r.status, show(r)).toBe(422);
  expect(JSON.stringify(r.body.errors)).toContain(field);
});

test("NUL in PATCH content is a 422", async () => {
  const m = await t.request("POST", "/v1/memories", {
    key: a.key,
    body: { agent_id: "x", content: "patch me" },
  });
  const r = await t.request("PATCH", `/v1/memories/${m.body.memory_id}`, {
    key: a.key,
    body: { content: "bad\u0000" },
  });
  expect(r.status, show(r)).toBe(422);
});

test("NUL in the forget agent_id is a 422", async () => {
  const r = await t.request("POST", "/v1/memories/forget", {
    key: a.key,
    body: { memory_id: "mem_x", agent_id: "a\u0000" },
  });
  expect(r.status, show(r)).toBe(422);
});
