// T16 / API9: gated routes exist only when their gate is on. Off, they are absent from
// /openapi.json and answer 404 to a valid key; in every combination, the registered routes equal
// the described ones; and each gate adds exactly the routes listed below (never none: a route gate
// that adds nothing fails).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gatesSection } from "../../src/config/sections/gates";
import { testApp, type TestApp } from "../harness/app";
import { operationsOf } from "../harness/openapi";

/** The exact routes each gate adds. A new gated route is one more line here. */
const ROUTES_ADDED_BY: Record<string, string[]> = {
  DISTILL_ENABLED: ["POST /v1/distill", "GET /v1/distill/{job_id}"],
  INGEST_ENABLED: [
    "POST /v1/datasets",
    "GET /v1/datasets",
    "GET /v1/datasets/{dataset_id}",
    "DELETE /v1/datasets/{dataset_id}",
    "POST /v1/ingest",
    "POST /v1/ingest/file",
    "GET /v1/ingest/loaders",
    "GET /v1/ingest/{job_id}",
  ],
  REFINE_ENABLED: ["POST /v1/feedback", "POST /v1/refine", "GET /v1/refine/{job_id}"],
  FORGET_PROOF_ENABLED: ["GET /v1/forget/keys", "GET /v1/forget/{cert_id}"],
  SUPERADMIN_ENABLED: ["GET /v1/tenants/{org_id}/budgets", "PUT /v1/tenants/{org_id}/budgets"],
};

/** Gates that change behaviour of existing routes and add none (the test checks they add none). */
const BEHAVIOUR_GATES: Record<string, string> = {
  MULTIMODAL_ENABLED: "image and audio loaders inside /v1/ingest",
};

/** What turning one gate on needs besides the flag itself. */
const COMPANIONS: Record<string, Record<string, unknown>> = {
  SUPERADMIN_ENABLED: { SUPERADMIN_API_KEY: "sa-gates-test-key-1234567890" },
};

/**
 * Routes that need a gate plus a setting (not a gate of their own): the gate with the setting adds
 * exactly the gate's routes and these; the setting alone adds none. Settings name an unreachable
 * endpoint: mounting routes contacts nothing.
 */
const ROUTES_ADDED_WITH: Record<
  string,
  { gate: string; setting: Record<string, unknown>; routes: string[] }
> = {
  "STORAGE_BACKEND=s3": {
    gate: "INGEST_ENABLED",
    setting: {
      STORAGE_BACKEND: "s3",
      STORAGE_S3_BUCKET: "gates-test",
      STORAGE_S3_ENDPOINT: "http://127.0.0.1:9",
      STORAGE_S3_ACCESS_KEY_ID: "gates",
      STORAGE_S3_SECRET_ACCESS_KEY: "gates-secret",
    },
    routes: ["POST /v1/ingest/upload-url", "POST /v1/ingest/finalize/{job_id}"],
  },
  WEBSEARCH_API_KEY: {
    gate: "INGEST_ENABLED",
    setting: { WEBSEARCH_API_KEY: "gates-test-websearch-key" },
    routes: ["POST /v1/ingest/search", "GET /v1/ingest/search/{batch_id}"],
  },
};

const on = (gate: string) => ({ [gate]: true, ...COMPANIONS[gate] });
const ALL_ON = Object.assign(
  {},
  ...[...Object.keys(ROUTES_ADDED_BY), ...Object.keys(BEHAVIOUR_GATES)].map(on),
  ...Object.values(ROUTES_ADDED_WITH).map((w) => w.setting),
);
// Pages, assets and the MCP transport (JSON-RPC over one path, described in docs/mcp.md, not in
// OpenAPI), and routes marked hidden (GET /, the 405s of POST-only paths).
const HIDDEN = /^\/(docs|redoc|_assets|mcp$|graph\/?$)/;
const hidden = (r: { path: string; hooks?: { detail?: { hide?: boolean } } }) =>
  HIDDEN.test(r.path) || r.hooks?.detail?.hide === true;

const described = async (t: TestApp) =>
  new Set((await operationsOf(t)).map((o) => `${o.method} ${o.path}`));
const registered = (t: TestApp) =>
  new Set(
    (
      t.app.routes as Array<{
        method: string;
        path: string;
        hooks?: { detail?: { hide?: boolean } };
      }>
    )
      .filter((r) => !hidden(r) && r.path !== "/openapi.json" && r.method !== "OPTIONS")
      .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]+)/g, "{$1}")}`),
  );
const sorted = (xs: Iterable<string>) => [...xs].sort();

let off: TestApp;
let all: TestApp;
let offOps: Set<string>;
beforeAll(async () => {
  off = await testApp();
  all = await testApp(ALL_ON);
  offOps = await described(off);
});
afterAll(async () => {
  await off.close();
  await all.close();
});

describe("gates", () => {
  test("every gate in the configuration is listed here, as a route gate or a behaviour gate", () => {
    const declared = Object.entries(gatesSection)
      .filter(
        ([name, schema]) =>
          name.endsWith("_ENABLED") &&
          String((schema as { description?: string }).description ?? "").startsWith("Gate:"),
      )
      .map(([name]) => name);
    expect(declared.length).toBeGreaterThan(0);
    expect(sorted(declared)).toEqual(
      sorted([...Object.keys(ROUTES_ADDED_BY), ...Object.keys(BEHAVIOUR_GATES)]),
    );
  });

  test("registered routes equal described routes, gates off and all on", async () => {
    for (const t of [off, all]) expect(sorted(registered(t))).toEqual(sorted(await described(t)));
  });

  for (const [gate, expected] of Object.entries(ROUTES_ADDED_BY)) {
    test(`${gate} alone adds exactly its routes, and they are all gone when off`, async () => {
      expect(expected.length, `${gate} must add at least one route`).toBeGreaterThan(0);
      for (const op of expected)
        expect(offOps.has(op), `${op} is described with ${gate} off`).toBe(false);
      const single = await testApp(on(gate));
      try {
        const ops = await described(single);
        expect(sorted([...ops].filter((op) => !offOps.has(op)))).toEqual(sorted(expected));
        expect(sorted(registered(single))).toEqual(sorted(ops));
      } finally {
        await single.close();
      }
    });
  }

  for (const gate of Object.keys(BEHAVIOUR_GATES)) {
    test(`${gate} adds no route`, async () => {
      const single = await testApp(on(gate));
      try {
        expect(sorted(await described(single))).toEqual(sorted(offOps));
      } finally {
        await single.close();
      }
    });
  }

  for (const [name, { gate, setting, routes }] of Object.entries(ROUTES_ADDED_WITH)) {
    test(`${gate} with ${name} adds exactly its routes and ${name}'s; ${name} alone adds none`, async () => {
      expect(routes.length).toBeGreaterThan(0);
      const both = await testApp({ ...on(gate), ...setting });
      const alone = await testApp(setting);
      try {
        const ops = await described(both);
        expect(sorted([...ops].filter((op) => !offOps.has(op)))).toEqual(
          sorted([...ROUTES_ADDED_BY[gate]!, ...routes]),
        );
        expect(sorted(registered(both))).toEqual(sorted(ops));
        expect(sorted(await described(alone))).toEqual(sorted(offOps));
      } finally {
        await both.close();
        await alone.close();
      }
    });
  }

  test("all gates on add exactly the union of the per-gate routes", async () => {
    const added = [...(await described(all))].filter((op) => !offOps.has(op));
    expect(sorted(added)).toEqual(
      sorted([
        ...Object.values(ROUTES_ADDED_BY).flat(),
        ...Object.values(ROUTES_ADDED_WITH).flatMap((w) => w.routes),
      ]),
    );
  });

  test("gated routes answer 404 with a problem naming the variable that turns them on, to a valid key, when off", async () => {
    const tenant = await off.tenant("gates");
    const gated = [
      ...Object.entries(ROUTES_ADDED_BY).flatMap(([gate, routes]) =>
        routes.map((op) => [op, gate] as const),
      ),
      ...Object.entries(ROUTES_ADDED_WITH).flatMap(([setting, w]) =>
        w.routes.map((op) => [op, setting] as const),
      ),
    ];
    expect(gated.length).toBeGreaterThan(0);
    for (const [op, variable] of gated) {
      const [method, path] = op.split(" ") as [string, string];
      const r = await off.request(method, path.replace(/\{[^}]+\}/g, "x"), {
        key: tenant.key,
        body: method === "GET" || method === "DELETE" ? undefined : {},
      });
      expect(r.status, op).toBe(404);
      expect(r.headers.get("content-type")).toStartWith("application/problem+json");
      expect(r.body.detail, op).toContain(variable);
    }
    const unknown = await off.request("GET", "/v1/nothing-here", { key: tenant.key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe("No such route");
  });
});
