// Idempotency-Key on PostgreSQL (the shared cases), plus what only the server mode shows:
// concurrent requests with one key execute once, and /openapi.json documents the header on exactly
// the honouring POSTs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withTenant } from "../../../src/data/with-tenant";
import { IDEMPOTENCY_EXEMPT_ROUTES } from "../../../src/http/pipeline/9-idempotency";
import { testApp, type TestApp } from "../../harness/app";
import { idempotencyCases } from "./cases";

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ INGEST_ENABLED: true, DISTILL_ENABLED: true, REFINE_ENABLED: true });
});
afterAll(() => t.close());

describe("Idempotency-Key on PostgreSQL", () => {
  idempotencyCases(() => ({ app: t, deps: t.deps, tenant: t.tenant }));

  test("ten concurrent requests with one key: one memory; the others replay it or get 409", async () => {
    const a = await t.tenant("idem-race");
    const body = { agent_id: "agent", content: "raced" };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.request("POST", "/v1/memories", {
          key: a.key,
          body,
          headers: { "idempotency-key": "race" },
        }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(
      statuses.every((s) => s === 201 || s === 409),
      statuses.join(","),
    ).toBe(true);
    const ids = new Set(answers.filter((r) => r.status === 201).map((r) => r.body.memory_id));
    expect(ids.size).toBe(1);
    const [row] = await withTenant(
      t.deps.db,
      a.orgId,
      (tx) => tx`SELECT count(*)::int AS n FROM memories`,
    );
    expect(row!.n).toBe(1);
  });

  test("/openapi.json documents the optional header on every POST but the streaming ones, and nowhere else", async () => {
    const spec = (await t.request("GET", "/openapi.json")).body;
    const documented: string[] = [];
    for (const [path, item] of Object.entries<
      Record<string, { parameters?: Array<{ name: string; in: string; required: boolean }> }>
    >(spec.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const header = op.parameters?.find(
          (p) => p.in === "header" && p.name === "Idempotency-Key",
        );
        if (header) {
          expect(header.required).toBe(false);
          documented.push(`${method.toUpperCase()} ${path}`);
        } else if (method === "post")
          expect(IDEMPOTENCY_EXEMPT_ROUTES.has(path), `${path} lacks the header`).toBe(true);
      }
    }
    expect(documented.every((d) => d.startsWith("POST "))).toBe(true);
    expect(documented).toContain("POST /v1/memories");
    expect(documented).toContain("POST /v1/conversations/{conversation_id}/turns");
    expect(documented).toContain("POST /v1/distill");
  });
});
