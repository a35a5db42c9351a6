// The shared security cases on every authenticated operation in /openapi.json, with every gate on:
// no key, malformed key, bad checksum, unknown key, revoked key → 401 problem; superadmin routes
// give 403 to a tenant key. New routes are covered automatically.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mintKey } from "../../src/domain/keys/format";
import { show, testApp, type TestApp, type Tenant } from "../harness/app";
import { isAuthenticated, operationsOf, type Operation } from "../harness/openapi";

const SUPERADMIN_KEY = "superadmin-test-key-0123456789";
let t: TestApp;
let tenant: Tenant;
let revokedKey: string;
let ops: Operation[];

beforeAll(async () => {
  t = await testApp({
    DISTILL_ENABLED: true,
    INGEST_ENABLED: true,
    WEBSEARCH_API_KEY: "route-security-websearch-key",
    WEBSEARCH_BASE_URL: "http://127.0.0.1:9/res/v1",
    REFINE_ENABLED: true,
    FORGET_PROOF_ENABLED: true,
    MULTIMODAL_ENABLED: true,
    SUPERADMIN_ENABLED: true,
    SUPERADMIN_API_KEY: SUPERADMIN_KEY,
    // Mounts the direct-upload routes; credentials are refused before storage is ever contacted.
    STORAGE_BACKEND: "s3",
    STORAGE_S3_BUCKET: "route-security",
    STORAGE_S3_ENDPOINT: "http://127.0.0.1:9",
    STORAGE_S3_ACCESS_KEY_ID: "rs",
    STORAGE_S3_SECRET_ACCESS_KEY: "rs-secret",
  });
  tenant = await t.tenant();
  const extra = await t.request("POST", "/v1/api-keys", {
    key: tenant.key,
    body: { name: "to revoke" },
  });
  revokedKey = extra.body.key;
  expect(
    (await t.request("DELETE", `/v1/api-keys/${extra.body.key_id}`, { key: tenant.key })).status,
  ).toBe(200);
  ops = (await operationsOf(t)).filter(isAuthenticated);
});
afterAll(() => t.close());

const isSuperadmin = (op: Operation) => /^\/v1\/tenants\/\{[^}]+\}\/budgets$/.test(op.path);
const body = (op: Operation) => (["POST", "PUT", "PATCH"].includes(op.method) ? {} : undefined);

function expectProblem(r: Awaited<ReturnType<TestApp["request"]>>, status: number, label: string) {
  expect(r.status, `${label}: ${show(r)}`).toBe(status);
  expect(r.headers.get("content-type")).toStartWith("application/problem+json");
  expect(r.body.status).toBe(status);
  expect(r.body.type).toEndWith(status === 401 ? "/errors/unauthenticated" : "/errors/forbidden");
}

describe("every authenticated operation rejects bad credentials", () => {
  test("the description lists authenticated operations", () => {
    expect(ops.length).toBeGreaterThanOrEqual(4);
  });

  test("no key → 401", async () => {
    for (const op of ops)
      expectProblem(
        await t.request(op.method, op.concretePath, { body: body(op) }),
        401,
        `${op.method} ${op.path}`,
      );
  });

  test("malformed, bad-checksum, unknown and revoked keys → 401 (403 on superadmin routes)", async () => {
    const valid = mintKey().plaintext;
    const badChecksum = valid.slice(0, -1) + (valid.endsWith("a") ? "b" : "a");
    const cases: Array<[string, Record<string, string>]> = [
      ["malformed bearer", { authorization: "Bearer not-a-key" }],
      ["not a bearer scheme", { authorization: "Basic abc" }],
      ["bad checksum", { authorization: `Bearer ${badChecksum}` }],
      ["unknown key", { "x-api-key": mintKey().plaintext }],
      ["revoked key", { authorization: `Bearer ${revokedKey}` }],
    ];
    for (const op of ops) {
      for (const [label, headers] of cases) {
        const r = await t.request(op.method, op.concretePath, { headers, body: body(op) });
        expectProblem(
          r,
          isSuperadmin(op) && label !== "not a bearer scheme" ? 403 : 401,
          `${label} on ${op.method} ${op.path}`,
        );
      }
    }
  });

  test("a valid tenant key on a superadmin route → 403; the superadmin key on a tenant route → 401", async () => {
    for (const op of ops.filter(isSuperadmin)) {
      expectProblem(
        await t.request(op.method, op.concretePath, { key: tenant.key, body: body(op) }),
        403,
        `${op.method} ${op.path}`,
      );
    }
    const r = await t.request("GET", "/v1/api-keys", { key: SUPERADMIN_KEY });
    expectProblem(r, 401, "superadmin key on a tenant route");
  });
});
