// The operations catalog (src/operations/) is the one declaration of every route and MCP tool: each
// mounted route and each tool has exactly one entry, each entry is mounted by exactly one route,
// and a route or a tool is served exactly when its entry's gate is on (issue 26 item 1).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { gateOfRoutes } from "../../src/http/mount";
import { ROUTES } from "../../src/app/routes";
import { toolsFor } from "../../src/mcp/tools";
import { MCP_TOOLS } from "../../src/mcp/tools";
import { OPERATIONS, operationOf, operationOfTool } from "../../src/operations";
import { testApp, type TestApp } from "../harness/app";

/** Every gate on, with the settings the ingest search and upload routes need besides the gate. */
const ALL_ON = {
  DISTILL_ENABLED: true,
  INGEST_ENABLED: true,
  REFINE_ENABLED: true,
  FORGET_PROOF_ENABLED: true,
  SUPERADMIN_ENABLED: true,
  SUPERADMIN_API_KEY: "sa-catalog-test-key-1234567890",
  WEBSEARCH_API_KEY: "catalog-test-websearch-key",
  STORAGE_BACKEND: "s3",
  STORAGE_S3_BUCKET: "catalog-test",
  STORAGE_S3_ENDPOINT: "http://127.0.0.1:9",
  STORAGE_S3_ACCESS_KEY_ID: "catalog",
  STORAGE_S3_SECRET_ACCESS_KEY: "catalog-secret",
};

type Route = { method: string; path: string; hooks?: { detail?: { hide?: boolean } } };
const routesOf = (app: { routes: unknown }) => app.routes as Route[];
const keyOf = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
const sorted = (xs: Iterable<string>) => [...xs].sort();
const duplicates = (xs: string[]) => xs.filter((x, i) => xs.indexOf(x) !== i);
/**
 * A schema as JSON Schema: a config-built schema is built anew for each caller, and Elysia's
 * integers carry a fresh decode function each time.
 */
const jsonOf = (schema: unknown) => JSON.parse(JSON.stringify(schema));

let off: TestApp;
let all: TestApp;
beforeAll(async () => {
  off = await testApp();
  all = await testApp(ALL_ON);
});
afterAll(async () => {
  await off?.close();
  await all?.close();
});

/** The routes of the route table (not the pipeline's own: CORS preflight, OpenAPI pages). */
const tableRoutes = (t: TestApp) => ROUTES.flatMap((factory) => routesOf(factory(t.deps)));
const mountedFromTable = (t: TestApp) => {
  const table = new Set(tableRoutes(t).map(keyOf));
  return routesOf(t.app).filter((r) => table.has(keyOf(r)));
};

describe("operations catalog", () => {
  test("declares each route once", () => {
    expect(duplicates(OPERATIONS.map(keyOf))).toEqual([]);
    expect(duplicates(OPERATIONS.flatMap((op) => (op.mcp === null ? [] : [op.mcp])))).toEqual([]);
  });

  test("every route of the route table has exactly one entry, and every entry one route", () => {
    const routes = tableRoutes(all).map(keyOf);
    expect(duplicates(routes)).toEqual([]);
    expect(sorted(routes)).toEqual(sorted(OPERATIONS.map(keyOf)));
  });

  test("with every gate on, the app mounts every entry; with none, exactly the ungated ones", () => {
    expect(sorted(mountedFromTable(all).map(keyOf))).toEqual(sorted(OPERATIONS.map(keyOf)));
    const ungated = OPERATIONS.filter((op) => op.gate === "always");
    expect(sorted(mountedFromTable(off).map(keyOf))).toEqual(sorted(ungated.map(keyOf)));
  });

  test("an entry is hidden from OpenAPI exactly when its route is", () => {
    for (const route of mountedFromTable(all)) {
      const hidden = route.hooks?.detail?.hide === true;
      expect(operationOf(route.method, route.path)?.hidden === true, keyOf(route)).toBe(hidden);
    }
  });

  test("every MCP tool has exactly one entry, and every entry's tool exists", () => {
    const tools = MCP_TOOLS.map((tool) => tool.name);
    expect(duplicates(tools)).toEqual([]);
    for (const name of tools) expect(operationOfTool(name), name).toBeDefined();
    const named = OPERATIONS.flatMap((op) => (op.mcp === null ? [] : [op.mcp]));
    expect(sorted(named)).toEqual(sorted(tools));
  });

  test("a tool is offered exactly when its REST route is mounted (graph_query with graph data)", () => {
    for (const t of [off, all]) {
      const mounted = new Set(mountedFromTable(t).map(keyOf));
      const routed = OPERATIONS.filter((op) => op.mcp !== null && mounted.has(keyOf(op)));
      expect(sorted(toolsFor(t.deps.gates).map((tool) => tool.name))).toEqual(
        sorted(routed.map((op) => op.mcp!)),
      );
    }
    expect(toolsFor(off.deps.gates).map((tool) => tool.name)).toContain("graph_query");
  });

  test("an entry with a handler is the route's and its tool's: one schema, one description", () => {
    const withHandler = OPERATIONS.filter((op) => op.handler);
    expect(withHandler.map(keyOf)).toContain("GET /v1/graph/data");
    const mounted = new Map(mountedFromTable(all).map((r) => [keyOf(r), r]));
    for (const op of withHandler) {
      const hooks = (mounted.get(keyOf(op)) as { hooks: Record<string, any> }).hooks;
      expect(hooks.detail?.summary, keyOf(op)).toBe(op.handler!.docs.summary);
      const { input, tool: own } = op.handler!;
      if (input)
        expect(jsonOf(hooks[input.from]), keyOf(op)).toEqual(jsonOf(input.schema(all.config)));
      const tool = op.mcp === null ? undefined : MCP_TOOLS.find((x) => x.name === op.mcp);
      const args = own?.schema ?? input?.schema;
      if (tool)
        expect(jsonOf(tool.inputSchema(all.deps)), op.mcp!).toEqual(jsonOf(args!(all.config)));
    }
  });

  test("every operation a key calls runs from its entry; only probes, pages and transports don't", () => {
    // Adding an operation is one entry (with its handler) plus its domain function: no route file.
    const bespoke = OPERATIONS.filter((op) => !op.handler && !op.hidden && op.access !== "public");
    expect(bespoke.map(keyOf)).toEqual([]);
    // The routes outside the catalog's handlers: health and readiness probes, metrics, pages and
    // assets (public), the wrong-method answers and the /mcp transport (hidden).
    const outside = OPERATIONS.filter((op) => !op.handler && !op.hidden).map(keyOf);
    expect(sorted(outside)).toEqual(
      sorted(["GET /v1/health", "GET /v1/ready", "GET /v1/worker/health", "GET /metrics"]),
    );
    // Every MCP tool runs an entry's handler, so a tool and its route cannot drift.
    for (const tool of MCP_TOOLS)
      expect(operationOfTool(tool.name)?.handler, tool.name).toBeDefined();
  });

  test("a route the catalog does not name cannot be mounted", () => {
    const undeclared = new Elysia().get("/v1/not-in-the-catalog", () => "no");
    expect(() => gateOfRoutes(undeclared)).toThrow("GET /v1/not-in-the-catalog has no entry");
    const mixed = new Elysia().get("/v1/graph/data", () => "").post("/v1/distill", () => "");
    expect(() => gateOfRoutes(mixed)).toThrow("one gate, not always, distill");
  });
});
