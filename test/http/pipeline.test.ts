// T19 and the error model: request id, one log line per request, body limits (declared and
// chunked), malformed JSON, wrong media type, validation, unknown routes, CORS, and the problem
// pages.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ERROR_CATALOG } from "../../src/lib/error-catalog";
import { toAppError } from "../../src/http/error-handler";
import { createLogger } from "../../src/observability/log";
import {
  show,
  testApp,
  type RequestBody,
  type RequestOptions,
  type TestApp,
  type Tenant,
} from "../harness/app";

let t: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  t = await testApp({ SVC_MAX_BODY_BYTES: 2048 });
  tenant = await t.tenant("pipe");
});
afterAll(() => t.close());

const logsFor = (requestId: string) =>
  t.logLines
    .map((l) => JSON.parse(l))
    .filter((l) => l.msg === "request" && l.request_id === requestId);

describe("request id and access log", () => {
  test("a sane X-Request-Id is kept and echoed; exactly one log line is written", async () => {
    const r = await t.request("GET", "/v1/api-keys", {
      key: tenant.key,
      headers: { "x-request-id": "abc-123_x" },
    });
    expect(r.headers.get("x-request-id")).toBe("abc-123_x");
    await Bun.sleep(20);
    const lines = logsFor("abc-123_x");
    expect(lines.length).toBe(1);
    expect(lines[0]).toMatchObject({
      method: "GET",
      route: "/v1/api-keys",
      status: 200,
      org_id: tenant.orgId,
    });
    expect(typeof lines[0].latency_ms).toBe("number");
    expect(JSON.stringify(lines[0])).not.toContain(tenant.key);
  });

  test("an unsafe or oversized request id is replaced", async () => {
    for (const bad of ["x".repeat(256), "a b", "line\u0001break", "<script>"]) {
      const r = await t.request("GET", "/v1/health", { headers: { "x-request-id": bad } });
      const id = r.headers.get("x-request-id")!;
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^req_[0-9A-Z]{26}$/);
    }
  });

  test("errors are logged once with their status and carry the request id", async () => {
    const r = await t.request("GET", "/v1/nope", {
      key: tenant.key,
      headers: { "x-request-id": "err-1" },
    });
    expect(r.status).toBe(404);
    expect(r.body.request_id).toBe("err-1");
    await Bun.sleep(20);
    expect(logsFor("err-1").map((l) => l.status)).toEqual([404]);
    expect(logsFor("err-1")[0].route).toBe("unmatched");
  });

  test("a request answered before routing (401, 413) is logged with the route it would have reached", async () => {
    const cases: Array<[string, string, RequestOptions, number, string]> = [
      ["GET", "/v1/api-keys", { key: null }, 401, "/v1/api-keys"],
      ["DELETE", "/v1/api-keys/key_123", { key: "svc_sk_wrong" }, 401, "/v1/api-keys/:key_id"],
      [
        "POST",
        "/v1/memories",
        {
          key: tenant.key,
          rawBody: "x".repeat(4096),
          headers: { "content-type": "application/json" },
        },
        413,
        "/v1/memories",
      ],
    ];
    for (const [method, path, options, status, route] of cases) {
      const id = `pre-${status}-${route.length}`;
      const r = await t.request(method, path, {
        ...options,
        headers: { ...options.headers, "x-request-id": id },
      });
      expect(r.status, show(r)).toBe(status);
      await Bun.sleep(20);
      expect(logsFor(id).map((l) => [l.status, l.route])).toEqual([[status, route]]);
    }
  });
});

describe("body handling", () => {
  const post = (
    body: RequestBody,
    headers: Record<string, string> = { "content-type": "application/json" },
  ) =>
    t.handle(
      new Request("http://localhost/v1/api-keys", {
        method: "POST",
        body,
        headers: { authorization: `Bearer ${tenant.key}`, ...headers },
      }),
    );

  test("a declared Content-Length over the cap → 413 problem before the body is read", async () => {
    const r = await post(JSON.stringify({ name: "x".repeat(5000) }));
    expect(r.status).toBe(413);
    expect(((await r.json()) as any).type).toEndWith("/errors/payload-too-large");
  });

  test("a chunked body over the cap → 413 problem", async () => {
    const chunk = new TextEncoder().encode(`{"name":"${"y".repeat(1500)}`);
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(chunk);
        c.enqueue(chunk);
        c.enqueue(new TextEncoder().encode('"}'));
        c.close();
      },
    });
    const r = await post(stream as unknown as RequestBody);
    expect(r.status).toBe(413);
  });

  test("malformed JSON → 400, wrong media type → 415, multipart off /v1/ingest/file → 415", async () => {
    const bad = await post('{"name":');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).type).toEndWith("/errors/malformed-request");
    expect((await post("name=x", { "content-type": "text/plain" })).status).toBe(415);
    const form = new FormData();
    form.set("name", "x");
    const multipart = await t.handle(
      new Request("http://localhost/v1/api-keys", {
        method: "POST",
        body: form,
        headers: { authorization: `Bearer ${tenant.key}` },
      }),
    );
    expect(multipart.status).toBe(415);
  });

  test("validation failures → 422 naming each field; nothing changes", async () => {
    const before = (await t.request("GET", "/v1/api-keys", { key: tenant.key })).body.items.length;
    const r = await t.request("POST", "/v1/api-keys", { key: tenant.key, body: { name: "" } });
    expect(r.status, show(r)).toBe(422);
    expect(r.headers.get("content-type")).toStartWith("application/problem+json");
    expect(r.body.errors.map((e: { path: string }) => e.path)).toContain("/name");
    const q = await t.request("GET", "/v1/api-keys?limit=0", { key: tenant.key });
    expect(q.status).toBe(422);
    expect(q.body.errors[0].path).toContain("limit");
    const cursor = await t.request("GET", "/v1/api-keys?cursor=%%%", { key: tenant.key });
    expect(cursor.status).toBe(422);
    expect((await t.request("GET", "/v1/api-keys", { key: tenant.key })).body.items.length).toBe(
      before,
    );
  });
});

describe("errors and CORS", () => {
  test("unknown routes → 404 problem with type, title, status, detail, instance", async () => {
    const r = await t.request("GET", "/v1/does-not-exist", { key: tenant.key });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({
      title: "Not Found",
      status: 404,
      instance: "/v1/does-not-exist",
    });
    expect(r.body.type).toBe("http://127.0.0.1:8080/docs/errors/not-found"); // from HOST/PORT: see problem-type.test.ts
    expect(typeof r.body.detail).toBe("string");
  });

  test("every problem type has a page", async () => {
    for (const slug of Object.keys(ERROR_CATALOG)) {
      const r = await t.request("GET", `/docs/errors/${slug}`);
      expect(r.status, slug).toBe(200);
      expect(r.text).toContain(ERROR_CATALOG[slug as keyof typeof ERROR_CATALOG].title);
    }
    expect((await t.request("GET", "/docs/errors/nope")).status).toBe(404);
  });

  test("an unexpected error becomes a generic 500 without internals; a lost database becomes 503", () => {
    const log = createLogger("silent");
    const internal = toAppError(
      "UNKNOWN",
      new Error("relation secret_table does not exist at line 3"),
      log,
      "req-1",
    );
    expect(internal.status).toBe(500);
    expect(internal.detail).not.toContain("secret_table");
    expect(internal.detail).toContain("req-1");
    expect(
      toAppError(
        "UNKNOWN",
        Object.assign(new Error("gone"), { code: "CONNECTION_CLOSED" }),
        log,
        "r",
      ).status,
    ).toBe(503);
    expect(
      toAppError("UNKNOWN", Object.assign(new Error("x"), { code: "57P01" }), log, "r").slug,
    ).toBe("service-unavailable");
  });

  test("CORS preflight answers without a key; responses expose the request id", async () => {
    const pre = await t.handle(
      new Request("http://localhost/v1/memories", {
        method: "OPTIONS",
        headers: {
          origin: "https://app.example",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization,content-type",
        },
      }),
    );
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-headers")).toContain("authorization");
    expect(pre.headers.get("access-control-allow-credentials")).toBeNull();
    const r = await t.request("GET", "/v1/health", { headers: { origin: "https://app.example" } });
    expect(r.headers.get("access-control-expose-headers")).toContain("x-request-id");
  });

  test("configured origins are echoed only when allowed", async () => {
    const scoped = await testApp({ SVC_CORS_ORIGINS: "https://a.example, https://b.example" });
    try {
      const ok = await scoped.request("GET", "/v1/health", {
        headers: { origin: "https://b.example" },
      });
      expect(ok.headers.get("access-control-allow-origin")).toBe("https://b.example");
      const no = await scoped.request("GET", "/v1/health", {
        headers: { origin: "https://evil.example" },
      });
      expect(no.headers.get("access-control-allow-origin")).not.toBe("https://evil.example");
    } finally {
      await scoped.close();
    }
  });

  test("with the database unreachable, an authenticated request is a 503 problem", async () => {
    const down = await testApp({ DATABASE_URL: "postgres://svc:svc@127.0.0.1:1/none" });
    try {
      const r = await down.request("GET", "/v1/api-keys", { key: tenant.key });
      expect(r.status, show(r)).toBe(503);
      expect(r.body.type).toEndWith("/errors/service-unavailable");
      expect((await down.request("GET", "/v1/ready")).status).toBe(503);
      expect((await down.request("GET", "/v1/health")).status).toBe(200);
    } finally {
      await down.close();
    }
  });
});

test("a POST without a body is an empty object: optional-only bodies accept it", async () => {
  const r = await t.handle(
    new Request("http://localhost/v1/api-keys", {
      method: "POST",
      headers: { authorization: `Bearer ${tenant.key}` },
    }),
  );
  expect(r.status).toBe(201);
  expect(((await r.json()) as any).name).toBe("unnamed");
});

describe("body strictness", () => {
  test("unknown top-level fields are a 422 naming them, not silently dropped", async () => {
    const r = await t.request("POST", "/v1/api-keys", {
      key: tenant.key,
      body: { name: "x", org_id: "org_other", kind: "development" },
    });
    expect(r.status, show(r)).toBe(422);
    expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["/kind", "/org_id"]);
  });

  test("a body of the wrong JSON type is a 422, never coerced", async () => {
    for (const raw of ['"text"', "[1,2]", "42", "true"]) {
      const r = await t.handle(
        new Request("http://localhost/v1/api-keys", {
          method: "POST",
          body: raw,
          headers: { authorization: `Bearer ${tenant.key}`, "content-type": "application/json" },
        }),
      );
      expect(r.status, raw).toBe(422);
    }
  });
});

test("unknown fields inside closed nested objects are named too (e.g. a misspelt recall filter)", async () => {
  const r = await t.request("POST", "/v1/memories/recall", {
    key: tenant.key,
    body: { agent_id: "a", query: "q", filters: { memory_typ: "semantic" } },
  });
  expect(r.status, show(r)).toBe(422);
  expect(r.body.errors.map((e: { path: string }) => e.path)).toEqual(["/filters/memory_typ"]);
  const batch = await t.request("POST", "/v1/memories/batch", {
    key: tenant.key,
    body: { memories: [{ agent_id: "a", content: "x", ttl: 5 }] },
  });
  expect(batch.status, show(batch)).toBe(422);
  expect(batch.body.errors.map((e: { path: string }) => e.path)).toEqual(["/memories/0/ttl"]);
});
