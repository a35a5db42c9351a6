// MCP over streamable HTTP at POST /mcp on a real listening server (PostgreSQL mode), driven by the
// SDK's own client: tools offered per gate, the store → recall → forget round trip, tenant
// isolation, the REST pipeline's authentication, rate limit and audit, resources, and the gated
// Forge tools when on.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { drainAudit } from "../../src/domain/audit/drain";
import { show, testApp, type TestApp, type Tenant } from "../harness/app";
import { httpClient, listen, ok, toolErrorText } from "./helpers";
import { expectCoreToolsOnly, GATED_TOOLS, roundTrip } from "./shared-cases";

let t: TestApp;
let server: ReturnType<typeof listen>;
let a: Tenant;
let b: Tenant;
let clientA: Client;
let clientB: Client;

beforeAll(async () => {
  t = await testApp();
  server = listen(t.handle);
  [a, b] = [await t.tenant("mcp-a"), await t.tenant("mcp-b")];
  [clientA, clientB] = [await httpClient(server.url, a.key), await httpClient(server.url, b.key)];
});

afterAll(async () => {
  await Promise.all([clientA?.close(), clientB?.close()]);
  server?.stop();
  await t?.close();
});

describe("MCP over streamable HTTP (PostgreSQL)", () => {
  test("offers the always-on tools with the REST schemas; gated-off tools are absent", async () => {
    await expectCoreToolsOnly(clientA);
    const templates = await clientA.listResourceTemplates();
    expect(templates.resourceTemplates.map((r) => r.uriTemplate)).toEqual([
      "svc://memories/{memory_id}",
      "svc://agents",
      "svc://agents/{agent_id}/memories",
      "svc://conversations/{conversation_id}",
    ]);
  });

  test("store → recall → forget round trip, isolated from another tenant", async () => {
    await roundTrip(clientA, clientB, "mcp-agent");
  });

  test("tool calls are audited under the caller's key, like REST calls", async () => {
    const stored = ok(
      await clientA.callTool({
        name: "store_memory",
        arguments: { agent_id: "audited", content: "Audited through MCP" },
      }),
    );
    await drainAudit(t.deps.db, {});
    const page = ok(
      await clientA.callTool({
        name: "audit_query",
        arguments: { agent_id: "audited", operation: "store" },
      }),
    );
    expect(page.items).toHaveLength(1);
    expect(page.items[0].target_ids).toContain(stored.memory_id);
    expect(page.items[0].key_id).toBe(a.keyId);
    const theirs = ok(
      await clientB.callTool({ name: "audit_query", arguments: { agent_id: "audited" } }),
    );
    expect(theirs.items).toEqual([]);
    expect(
      toolErrorText(await clientA.callTool({ name: "audit_query", arguments: { limit: 0 } })),
    ).toBe("Validation Failed: limit must be an integer from 1 to 200");
  });

  test("a conversation is readable as a resource, and only by its tenant", async () => {
    const opened = await t.request("POST", "/v1/conversations", {
      key: a.key,
      body: { agent_id: "talker" },
    });
    expect(opened.status, show(opened)).toBe(201);
    const id = opened.body.conversation_id;
    const turn = await t.request("POST", `/v1/conversations/${id}/turns`, {
      key: a.key,
      body: { role: "user", content: "Hello from the conversation" },
    });
    expect(turn.status, show(turn)).toBe(201);
    const read = await clientA.readResource({ uri: `svc://conversations/${id}` });
    const body = JSON.parse((read.contents[0] as { text: string }).text);
    expect(body.conversation_id).toBe(id);
    expect(body.turns.map((x: any) => x.content)).toEqual(["Hello from the conversation"]);
    expect(
      String(
        await clientB.readResource({ uri: `svc://conversations/${id}` }).catch((e: Error) => e),
      ),
    ).toContain("Not Found");
    expect(
      String(await clientA.readResource({ uri: "svc://elsewhere/1" }).catch((e: Error) => e)),
    ).toContain("Validation Failed: uri must be");
  });

  test("the endpoint sits behind the REST pipeline: no key, bad key and revoked key are 401 problems", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
    };
    const headers = { accept: "application/json, text/event-stream" };
    const none = await t.request("POST", "/mcp", { body: init, headers });
    expect(none.status).toBe(401);
    expect(none.headers.get("content-type")).toContain("application/problem+json");
    const bad = await t.request("POST", "/mcp", {
      key: "svc_sk_notarealkeynotarealkeynotarealkey",
      body: init,
      headers,
    });
    expect(bad.status).toBe(401);
    expect(await httpClient(server.url, null).catch((e: Error) => e)).toBeInstanceOf(Error);

    const spare = await t.tenant("mcp-revoked");
    const client = await httpClient(server.url, spare.key);
    expect(
      ok(
        await client.callTool({
          name: "recall",
          arguments: { agent_id: "x", query: "anything", strategy: "LEXICAL" },
        }),
      ).results,
    ).toEqual([]);
    const revoked = await t.request("DELETE", `/v1/api-keys/${spare.keyId}`, { key: spare.key });
    expect(revoked.status, show(revoked)).toBeLessThan(300);
    expect(
      String(
        await client
          .callTool({ name: "recall", arguments: { agent_id: "x", query: "anything" } })
          .catch((e: Error) => e),
      ),
    ).toContain("401");
    await client.close();
  });

  test("GET and DELETE are 405 (stateless endpoint); the route is not in OpenAPI", async () => {
    expect((await t.request("GET", "/mcp", { key: a.key })).status).toBe(405);
    expect((await t.request("DELETE", "/mcp", { key: a.key })).status).toBe(405);
    const spec = (await t.request("GET", "/openapi.json")).body;
    expect(Object.keys(spec.paths)).not.toContain("/mcp");
  });

  test("a POST that states no Accept preference is answered in JSON; one accepting only HTML is a 406", async () => {
    const list = { jsonrpc: "2.0", id: 7, method: "tools/list" };
    for (const headers of [{}, { accept: "*/*" }] as Array<Record<string, string>>) {
      const res = await t.request("POST", "/mcp", { key: a.key, body: list, headers });
      expect(res.status, show(res)).toBe(200);
      expect(res.body.id).toBe(7);
      expect(res.body.result.tools.map((tool: { name: string }) => tool.name)).toContain("recall");
    }
    const html = await t.request("POST", "/mcp", {
      key: a.key,
      body: list,
      headers: { accept: "text/html" },
    });
    expect(html.status, show(html)).toBe(406);
  });
});

describe("MCP over HTTP with the rate limit and the Forge gates on", () => {
  let gated: TestApp;
  let gatedServer: ReturnType<typeof listen>;

  beforeAll(async () => {
    gated = await testApp({
      DISTILL_ENABLED: true,
      INGEST_ENABLED: true,
      REFINE_ENABLED: true,
      RATE_LIMIT_ENABLED: true,
      RATE_LIMIT_BURST: 5,
      RATE_LIMIT_REQUESTS: 1,
      RATE_LIMIT_WINDOW: 3600,
    });
    gatedServer = listen(gated.handle);
  });

  afterAll(async () => {
    gatedServer?.stop();
    await gated?.close();
  });

  test("the gated tools are offered, and each HTTP request takes a token from the key's bucket", async () => {
    const tenant = await gated.tenant("mcp-gated");
    const client = await httpClient(gatedServer.url, tenant.key); // initialize, initialized, GET (405): 3 tokens
    const names = (await client.listTools()).tools.map((x) => x.name); // 4
    for (const name of GATED_TOOLS) expect(names).toContain(name);
    const ingest = ok(
      await client.callTool({
        name: "ingest",
        arguments: { agent_id: "reader", text: "Ada Lovelace wrote the first program." },
      }),
    ); // 5
    expect(ingest.job_id).toMatch(/^job_/);
    const refused = await client
      .callTool({ name: "recall", arguments: { agent_id: "reader", query: "Ada" } })
      .catch((e: Error) => e);
    expect(String(refused)).toContain("Rate Limit Exceeded");
    await client.close();
  });

  test("with tokens to spare, each gated tool answers", async () => {
    const tenant = await gated.tenant("mcp-gated-2");
    const roomy = await testApp({
      DISTILL_ENABLED: true,
      REFINE_ENABLED: true,
      INGEST_ENABLED: true,
    });
    const roomyServer = listen(roomy.handle);
    try {
      const client = await httpClient(roomyServer.url, tenant.key);
      const stored = ok(
        await client.callTool({
          name: "store_memory",
          arguments: { agent_id: "reader", content: "Grace Hopper works at Harvard." },
        }),
      );
      expect(
        ok(
          await client.callTool({
            name: "distill",
            arguments: { agent_id: "reader", memory_ids: [stored.memory_id] },
          }),
        ).job_id,
      ).toMatch(/^job_/);
      expect(
        ok(await client.callTool({ name: "graph_query", arguments: { agent_id: "reader" } })),
      ).toHaveProperty("nodes");
      expect(
        ok(
          await client.callTool({
            name: "feedback",
            arguments: { memory_id: stored.memory_id, signal: 1 },
          }),
        ).signal,
      ).toBe(1);
      expect(
        ok(
          await client.callTool({
            name: "refine",
            arguments: { agent_id: "reader", passes: ["reweight"] },
          }),
        ).state,
      ).toBe("queued");
      await client.close();
    } finally {
      roomyServer.stop();
      await roomy.close();
    }
  });
});
