// T16 / API9: gated routes exist only when their gate is on. Off, they are absent from /openapi.json and
// answer 404 to a valid key; and in every combination, the registered routes equal the described ones.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../harness/app";
import { operationsOf } from "../harness/openapi";

const ALL_ON = { DISTILL_ENABLED: true, INGEST_ENABLED: true, REFINE_ENABLED: true, FORGET_PROOF_ENABLED: true, MULTIMODAL_ENABLED: true, SUPERADMIN_ENABLED: true, SUPERADMIN_API_KEY: "sa-gates-test-key-1234567890" };
const HIDDEN = /^\/(docs|redoc|_assets)/;

const described = async (t: TestApp) => new Set((await operationsOf(t)).map((o) => `${o.method} ${o.path}`));
const registered = (t: TestApp) => new Set(
  (t.app.routes as Array<{ method: string; path: string }>)
    .filter((r) => !HIDDEN.test(r.path) && r.path !== "/openapi.json" && r.method !== "OPTIONS")
    .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]+)/g, "{$1}")}`),
);

let off: TestApp;
let on: TestApp;
beforeAll(async () => { off = await testApp(); on = await testApp(ALL_ON); });
afterAll(async () => { await off.close(); await on.close(); });

describe("gates", () => {
  test("registered routes equal described routes, gates off and on", async () => {
    for (const t of [off, on]) expect([...registered(t)].sort()).toEqual([...(await described(t))].sort());
  });

  test("gated routes are absent when off and answer 404 to a valid key", async () => {
    const offOps = await described(off);
    const onlyOn = [...(await described(on))].filter((op) => !offOps.has(op));
    expect(onlyOn.length).toBeGreaterThan(0);
    const tenant = await off.tenant("gates");
    for (const op of onlyOn) {
      const [method, path] = op.split(" ") as [string, string];
      const r = await off.request(method, path.replace(/\{[^}]+\}/g, "x"), { key: tenant.key, body: method === "GET" || method === "DELETE" ? undefined : {} });
      expect(r.status, op).toBe(404);
      expect(r.headers.get("content-type")).toStartWith("application/problem+json");
    }
  });

  test("each gate alone adds only its own routes", async () => {
    const offOps = await described(off);
    for (const gate of ["DISTILL_ENABLED", "INGEST_ENABLED", "REFINE_ENABLED", "FORGET_PROOF_ENABLED"] as const) {
      const single = await testApp({ [gate]: true });
      try {
        const added = [...(await described(single))].filter((op) => !offOps.has(op));
        const prefix = { DISTILL_ENABLED: ["/v1/distill"], INGEST_ENABLED: ["/v1/ingest", "/v1/datasets"], REFINE_ENABLED: ["/v1/refine", "/v1/feedback"], FORGET_PROOF_ENABLED: ["/v1/forget"] }[gate];
        for (const op of added) expect(prefix.some((p) => op.split(" ")[1]!.startsWith(p)), `${gate} added ${op}`).toBe(true);
      } finally {
        await single.close();
      }
    }
  });
});
