// Issue 15 items 1–3: one input rule for every string a request carries (body, query, path, field
// names), bounded depth and size for free-form JSON, one metadata contract, and lookups of
// user-chosen names that never reach Object.prototype. Each case used to be a 500 (or silent
// corruption) on some route.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { strategyNamed } from "../../src/domain/recall/registry";
import { show, testApp, type TestApp, type Tenant } from "../harness/app";

let t: TestApp;
let a: Tenant;
let conversationId: string;
beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("rules");
  conversationId = (
    await t.request("POST", "/v1/conversations", { key: a.key, body: { agent_id: "ag" } })
  ).body.conversation_id;
});
afterAll(() => t.close());

const NUL = "a\u0000b";
const LONE_SURROGATE = "a\ud800b";

function expect422(r: Awaited<ReturnType<TestApp["request"]>>, field: string) {
  expect(r.status, show(r)).toBe(422);
  expect(r.headers.get("content-type")).toStartWith("application/problem+json");
  expect(r.body.detail, show(r)).toContain(field);
}

describe("characters PostgreSQL cannot store are a 422 naming the field, on every route and location", () => {
  const cases: Array<[string, string, string, (bad: string) => unknown, string]> = [
    ["API key name", "POST", "/v1/api-keys", (bad) => ({ name: bad }), "name"],
    ["session agent_id", "POST", "/v1/sessions", (bad) => ({ agent_id: bad }), "agent_id"],
    [
      "session metadata value",
      "POST",
      "/v1/sessions",
      (bad) => ({ agent_id: "x", metadata: { k: bad } }),
      "metadata.k",
    ],
    [
      "session metadata key",
      "POST",
      "/v1/sessions",
      (bad) => ({ agent_id: "x", metadata: { [bad]: 1 } }),
      "field name",
    ],
    [
      "conversation title",
      "POST",
      "/v1/conversations",
      (bad) => ({ agent_id: "x", title: bad }),
      "title",
    ],
    [
      "conversation metadata, nested",
      "POST",
      "/v1/conversations",
      (bad) => ({ agent_id: "x", metadata: { a: [{ b: bad }] } }),
      "metadata.a[0].b",
    ],
    [
      "recall query",
      "POST",
      "/v1/memories/recall",
      (bad) => ({ agent_id: "x", query: bad }),
      "query",
    ],
    [
      "recall filter",
      "POST",
      "/v1/memories/recall",
      (bad) => ({ agent_id: "x", query: "q", filters: { dataset_id: bad } }),
      "filters.dataset_id",
    ],
    [
      "forget agent_id",
      "POST",
      "/v1/memories/forget",
      (bad) => ({ memory_id: "mem_x", agent_id: bad }),
      "agent_id",
    ],
    // Memory content keeps its documented behaviour: refused with a 422, never stored altered
    // (docs/memories.md).
    [
      "memory content",
      "POST",
      "/v1/memories",
      (bad) => ({ agent_id: "x", content: bad }),
      "content",
    ],
  ];
  for (const [label, method, path, body, field] of cases) {
    test(`${label}: NUL and an unpaired surrogate`, async () => {
      for (const bad of [NUL, LONE_SURROGATE])
        expect422(await t.request(method, path, { key: a.key, body: body(bad) }), field);
    });
  }

  test("a conversation turn's content and metadata", async () => {
    expect422(
      await t.request("POST", `/v1/conversations/${conversationId}/turns`, {
        key: a.key,
        body: { role: "user", content: NUL },
      }),
      "content",
    );
    expect422(
      await t.request("POST", `/v1/conversations/${conversationId}/turns`, {
        key: a.key,
        body: { role: "user", content: "ok", metadata: { [LONE_SURROGATE]: 1 } },
      }),
      "field name",
    );
  });

  test("query parameters (the audit agent_id filter) and path segments", async () => {
    expect422(
      await t.request("GET", "/v1/audit?agent_id=%00", { key: a.key }),
      "query parameter agent_id",
    );
    expect422(
      await t.request("GET", "/v1/memories/mem_%00", { key: a.key }),
      "path parameter memory_id",
    );
    expect422(
      await t.request("GET", "/v1/sessions/ses_%00", { key: a.key }),
      "path parameter session_id",
    );
  });

  test("nothing was stored by the refused requests", async () => {
    const keys = (await t.request("GET", "/v1/api-keys", { key: a.key })).body.items;
    expect(keys.map((k: { name: string }) => k.name)).toEqual(["test"]);
  });
});

describe("free-form JSON is bounded in depth and size, checked without recursion", () => {
  const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

  test("a recall filter nested 200,000 levels deep (400 KB) is a 422 naming the field, not a crash", async () => {
    const raw = `{"agent_id":"x","query":"q","filters":{"metadata":{"a":${"[".repeat(200_000)}${"]".repeat(200_000)}}}}`;
    const r = await t.request("POST", "/v1/memories/recall", {
      key: a.key,
      rawBody: raw,
      headers: { "content-type": "application/json" },
    });
    expect422(r, "filters.metadata.a");
    expect(r.body.detail).toContain(`deeper than ${t.config.SVC_JSON_MAX_DEPTH} levels`);
  });

  test("deep metadata on store, sessions and batches; deep arrays too", async () => {
    const metadata = JSON.parse(deep(100));
    expect422(
      await t.request("POST", "/v1/memories", {
        key: a.key,
        body: { agent_id: "x", content: "c", metadata },
      }),
      "metadata.a",
    );
    expect422(
      await t.request("POST", "/v1/sessions", { key: a.key, body: { agent_id: "x", metadata } }),
      "metadata.a",
    );
    const arrays = `{"memories":[{"agent_id":"x","content":"c","metadata":{"l":${"[".repeat(50_000)}${"]".repeat(50_000)}}}]}`;
    expect422(
      await t.request("POST", "/v1/memories/batch", {
        key: a.key,
        rawBody: arrays,
        headers: { "content-type": "application/json" },
      }),
      "memories[0].metadata.l",
    );
  });

  test("nesting up to the bound is accepted", async () => {
    // body (1) → filters (2) → metadata (3) → … : SVC_JSON_MAX_DEPTH levels in all.
    const metadata = JSON.parse(deep(t.config.SVC_JSON_MAX_DEPTH - 3));
    const r = await t.request("POST", "/v1/memories/recall", {
      key: a.key,
      body: { agent_id: "x", query: "q", strategy: "LEXICAL", filters: { metadata } },
    });
    expect(r.status, show(r)).toBe(200);
  });

  test("a free-form value larger than SVC_JSON_FREEFORM_MAX_BYTES is a 422 naming it", async () => {
    const big = { blob: "y".repeat(t.config.SVC_JSON_FREEFORM_MAX_BYTES) };
    const r = await t.request("POST", "/v1/memories/recall", {
      key: a.key,
      body: { agent_id: "x", query: "q", filters: { metadata: big } },
    });
    expect422(r, "filters.metadata");
    expect(r.body.detail).toContain(`at most ${t.config.SVC_JSON_FREEFORM_MAX_BYTES} bytes`);
  });
});

describe("one metadata contract", () => {
  test("memories, sessions, conversations and turns refuse the same metadata with the same words", async () => {
    const over = { v: "z".repeat(t.config.MEMORY_METADATA_MAX_BYTES) };
    const answers = await Promise.all([
      t.request("POST", "/v1/memories", {
        key: a.key,
        body: { agent_id: "x", content: "c", metadata: over },
      }),
      t.request("POST", "/v1/sessions", { key: a.key, body: { agent_id: "x", metadata: over } }),
      t.request("POST", "/v1/conversations", {
        key: a.key,
        body: { agent_id: "x", metadata: over },
      }),
      t.request("POST", `/v1/conversations/${conversationId}/turns`, {
        key: a.key,
        body: { role: "user", content: "c", metadata: over },
      }),
      t.request("POST", "/v1/memories", {
        key: a.key,
        body: { agent_id: "x", content: "c", metadata: [1] },
      }),
      t.request("POST", "/v1/sessions", { key: a.key, body: { agent_id: "x", metadata: [1] } }),
    ]);
    for (const r of answers) expect(r.status, show(r)).toBe(422);
    const messages = answers.map((r) => r.body.errors[0].message);
    expect(new Set(messages.slice(0, 4)).size).toBe(1);
    expect(messages[0]).toContain(`at most ${t.config.MEMORY_METADATA_MAX_BYTES} bytes as JSON`);
    expect(messages[4]).toBe("must be a JSON object");
    expect(messages[5]).toBe(messages[4]);
  });
});

describe("names chosen by a caller never reach Object.prototype", () => {
  const PROTO_NAMES = [
    "constructor",
    "__proto__",
    "toString",
    "hasOwnProperty",
    "valueOf",
    "__defineGetter__",
  ];

  test("error pages for prototype names are 404, without authentication", async () => {
    for (const name of PROTO_NAMES) {
      const r = await t.request("GET", `/docs/errors/${name}`);
      expect(r.status, `${name}: ${show(r)}`).toBe(404);
      expect(r.headers.get("content-type")).toStartWith("application/problem+json");
    }
    expect((await t.request("GET", "/docs/errors/not-found")).status).toBe(200);
  });

  test("the strategy registry refuses prototype names with a typed error", () => {
    for (const name of PROTO_NAMES)
      expect(() => strategyNamed(name as never)).toThrow(/does not exist/);
  });

  test("prototype names as body keys are plain data: stored as given, nothing polluted", async () => {
    const raw =
      '{"agent_id":"x","content":"proto","metadata":{"__proto__":{"polluted":1},"constructor":{"prototype":{"p":1}}}}';
    const r = await t.request("POST", "/v1/memories", {
      key: a.key,
      rawBody: raw,
      headers: { "content-type": "application/json" },
    });
    expect(r.status, show(r)).toBe(201);
    expect(Object.keys(r.body.metadata).sort()).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
