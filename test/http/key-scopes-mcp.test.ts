// Scopes over MCP (streamable HTTP at POST /mcp): a tool needs exactly its REST route's scope, so a
// key can do over MCP what it can do over REST and no more; resources need memories:read. Every
// tool names its REST route, and that route exists with the same declared scope.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SCOPES } from "../../src/lib/scopes";
import { MCP_TOOLS } from "../../src/mcp/tools";
import { toolAccess } from "../../src/mcp/tool-scopes";
import { operationOfTool } from "../../src/operations";
import { show, testApp, type TestApp, type Tenant } from "../harness/app";
import { operationsOf } from "../harness/openapi";
import { httpClient, listen, ok, type ToolResult } from "../mcp/helpers";

let t: TestApp;
let server: ReturnType<typeof listen>;
let tenant: Tenant;
const clients: Client[] = [];

beforeAll(async () => {
  t = await testApp({ DISTILL_ENABLED: true, INGEST_ENABLED: true, REFINE_ENABLED: true });
  server = listen(t.handle);
  tenant = await t.tenant("mcp-scopes");
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  server?.stop();
  await t?.close();
});

async function clientWith(scopes: string[]): Promise<Client> {
  const r = await t.request("POST", "/v1/api-keys", {
    key: tenant.key,
    body: { name: scopes.join(" "), scopes },
  });
  expect(r.status, show(r)).toBe(201);
  const client = await httpClient(server.url, r.body.key);
  clients.push(client);
  return client;
}

function refusal(result: unknown): { slug: string; missing_scopes: string[] } {
  const r = result as ToolResult;
  expect(r.isError, JSON.stringify(r.content)).toBe(true);
  return r.structuredContent;
}

describe("MCP tools need their REST route's scope", () => {
  test("every tool names a mounted REST route and takes that route's declared scope", async () => {
    const ops = await operationsOf(t);
    for (const tool of MCP_TOOLS) {
      const route = operationOfTool(tool.name);
      expect(route, tool.name).toBeDefined();
      const openapiPath = route!.path.replace(/:(\w+)/g, "{$1}");
      const op = ops.find((o) => o.method === route!.method && o.path === openapiPath);
      expect(op, `${tool.name} → ${route!.method} ${route!.path}`).toBeDefined();
      expect(toolAccess(tool.name)).toBe(op!.operation["x-required-scope"]);
      expect(SCOPES as readonly string[]).toContain(toolAccess(tool.name));
    }
    expect(toolAccess("not_a_tool")).toBe("admin");
    expect(toolAccess("constructor")).toBe("admin");
  });

  test("a read-only key recalls but cannot store, forget, read the audit log or start Forge work", async () => {
    const seeded = ok(
      await (await clientWith([...SCOPES])).callTool({
        name: "store_memory",
        arguments: { agent_id: "mcp-s", content: "The vault code is 1234" },
      }),
    );
    const reader = await clientWith(["memories:read"]);
    const recalled = ok(
      await reader.callTool({
        name: "recall",
        arguments: { agent_id: "mcp-s", query: "vault code", strategy: "LEXICAL" },
      }),
    );
    expect(recalled.results[0].memory_id).toBe(seeded.memory_id);
    const resource = await reader.readResource({ uri: `svc://memories/${seeded.memory_id}` });
    expect(JSON.parse((resource.contents[0] as { text: string }).text).memory_id).toBe(
      seeded.memory_id,
    );

    const refused: Array<[string, Record<string, unknown>, string]> = [
      ["store_memory", { agent_id: "mcp-s", content: "sneaky" }, "memories:write"],
      ["forget", { memory_ids: [seeded.memory_id] }, "memories:write"],
      ["audit_query", {}, "audit:read"],
      ["distill", { agent_id: "mcp-s", memory_ids: [seeded.memory_id] }, "forge:write"],
    ];
    for (const [name, args, scope] of refused) {
      const problem = refusal(await reader.callTool({ name, arguments: args }));
      expect(problem.slug, name).toBe("insufficient-scope");
      expect(problem.missing_scopes, name).toEqual([scope]);
    }
    // Nothing was forgotten.
    expect(
      ok(await reader.callTool({ name: "get_memory", arguments: { memory_id: seeded.memory_id } }))
        .memory_id,
    ).toBe(seeded.memory_id);
  });

  test("tools/list offers only the tools the key may call", async () => {
    const names = async (scopes: string[]) =>
      (await (await clientWith(scopes)).listTools()).tools.map((tool) => tool.name).sort();
    const all = await names([...SCOPES]);
    expect(all).toEqual(MCP_TOOLS.map((tool) => tool.name).sort());
    const readable = await names(["memories:read"]);
    expect(readable).toEqual(all.filter((name) => toolAccess(name) === "memories:read"));
    expect(readable).toContain("recall");
    for (const hidden of [
      "store_memory",
      "store_memories",
      "forget",
      "audit_query",
      "distill",
      "ingest",
      "refine",
      "feedback",
    ])
      expect(readable).not.toContain(hidden);
    const writable = await names(["memories:write"]);
    expect(writable).toContain("store_memory");
    expect(writable).toContain("forget");
    expect(writable).not.toContain("recall");
  });

  test("a write-only key stores but cannot read memories back, by tool or as a resource", async () => {
    const writer = await clientWith(["memories:write"]);
    const stored = ok(
      await writer.callTool({
        name: "store_memory",
        arguments: { agent_id: "mcp-w", content: "Only written" },
      }),
    );
    expect(
      refusal(
        await writer.callTool({ name: "get_memory", arguments: { memory_id: stored.memory_id } }),
      ).missing_scopes,
    ).toEqual(["memories:read"]);
    const read = await writer
      .readResource({ uri: `svc://memories/${stored.memory_id}` })
      .catch((e: Error) => e);
    expect(read).toBeInstanceOf(Error);
    expect((read as Error).message).toContain("memories:read");
  });
});
