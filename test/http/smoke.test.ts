import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp, type Tenant } from "../harness/app";

let t: TestApp;
let a: Tenant;
beforeAll(async () => {
  t = await testApp();
  a = await t.tenant();
});
afterAll(() => t.close());

describe("smoke", () => {
  test("health and ready", async () => {
    expect((await t.request("GET", "/v1/health")).status).toBe(200);
    const ready = await t.request("GET", "/v1/ready");
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ database: "ok", migrations: "ok", valkey: "ok" });
  });
  test("api key round trip", async () => {
    const created = await t.request("POST", "/v1/api-keys", { key: a.key, body: { name: "x" } });
    expect(created.status).toBe(201);
    expect(created.body.key).toStartWith("svc_sk_");
    const list = await t.request("GET", "/v1/api-keys", { key: created.body.key });
    expect(list.status).toBe(200);
    expect(list.body.items.length).toBe(2);
  });
});

test("/metrics exposes request counters and the in-flight transaction gauge", async () => {
  await t.request("GET", "/v1/api-keys", { key: a.key });
  const r = await t.request("GET", "/metrics");
  expect(r.status).toBe(200);
  expect(r.text).toMatch(
    /svc_http_requests_total\{method="GET",route="\/v1\/api-keys",status="200"\} \d+/,
  );
  expect(r.text).toContain("svc_db_transactions_in_flight 0");
  expect(r.text).toContain("svc_http_request_duration_seconds_bucket");
});
