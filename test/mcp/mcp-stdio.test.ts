// `svc mcp` over stdio as a child process (PostgreSQL mode), driven by the SDK's stdio client: the
// key from SVC_MCP_API_KEY or --key, the same tools and round trip as HTTP, a bad key refused at
// start, and the key's rate-limit bucket applied to each call.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { drainAudit } from "../../src/domain/audit/drain";
import { TEST_QUEUE_PREFIX, testApp, type TestApp, type Tenant } from "../harness/app";
import { serviceEnv } from "../harness/process";
import { ok, stdioClient, toolErrorText } from "./helpers";
import { expectCoreToolsOnly, roundTrip } from "./shared-cases";

let t: TestApp;
let a: Tenant;
let b: Tenant;
const env = (extra: Record<string, string> = {}) =>
  serviceEnv({ RATE_LIMIT_ENABLED: "false", SVC_QUEUE_PREFIX: TEST_QUEUE_PREFIX, ...extra });

beforeAll(async () => {
  t = await testApp();
  [a, b] = [await t.tenant("stdio-a"), await t.tenant("stdio-b")];
});

afterAll(async () => {
  await t?.close();
});

describe("svc mcp over stdio (PostgreSQL)", () => {
  test("round trip with the key from SVC_MCP_API_KEY, isolated from a --key client of another tenant", async () => {
    const one = await stdioClient(env({ SVC_MCP_API_KEY: a.key }));
    const two = await stdioClient(env(), ["--key", b.key]);
    try {
      await expectCoreToolsOnly(one.client);
      await roundTrip(one.client, two.client, "stdio-agent");
      await drainAudit(t.deps.db, {});
      const audit = ok(
        await one.client.callTool({
          name: "audit_query",
          arguments: { agent_id: "stdio-agent", operation: "forget" },
        }),
      );
      expect(audit.items).toHaveLength(1);
      expect(audit.items[0].key_id).toBe(a.keyId);
    } finally {
      await Promise.all([one.client.close(), two.client.close()]);
    }
    expect(one.stderr()).not.toContain('"level":"error"');
  }, 60_000);

  test("tools/list offers a memories:read key no store or forget tools", async () => {
    const created = await t.request("POST", "/v1/api-keys", {
      key: a.key,
      body: { name: "stdio-reader", scopes: ["memories:read"] },
    });
    expect(created.status, created.text).toBe(201);
    const { client } = await stdioClient(env({ SVC_MCP_API_KEY: created.body.key }));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("recall");
      for (const hidden of ["store_memory", "store_memories", "forget", "audit_query"])
        expect(names).not.toContain(hidden);
    } finally {
      await client.close();
    }
  }, 60_000);

  test("a bad key is refused at start; no key is a usage error", async () => {
    const bad = await stdioClient(
      env({ SVC_MCP_API_KEY: "svc_sk_notarealkeynotarealkeynotarealkey" }),
    ).catch((e: Error) => e);
    expect(bad).toBeInstanceOf(Error);
    const proc = Bun.spawn(
      [process.execPath, new URL("../../src/main.ts", import.meta.url).pathname, "mcp"],
      { env: env(), stdout: "pipe", stderr: "pipe" },
    );
    expect(await proc.exited).toBe(2);
    expect(await new Response(proc.stderr).text()).toContain("SVC_MCP_API_KEY");
  }, 60_000);

  test("each tool call takes a token from the key's bucket", async () => {
    const tenant = await t.tenant("stdio-limited");
    // Starting checks the key once (1 token); two calls fit in a burst of 3, the third is refused.
    const { client } = await stdioClient(
      env({
        SVC_MCP_API_KEY: tenant.key,
        RATE_LIMIT_ENABLED: "true",
        RATE_LIMIT_BURST: "3",
        RATE_LIMIT_REQUESTS: "1",
        RATE_LIMIT_WINDOW: "3600",
      }),
    );
    try {
      const call = () =>
        client.callTool({
          name: "recall",
          arguments: { agent_id: "x", query: "anything", strategy: "LEXICAL" },
        });
      expect(ok(await call()).results).toEqual([]);
      expect(ok(await call()).results).toEqual([]);
      expect(toolErrorText(await call())).toStartWith(
        "Rate Limit Exceeded: Too many requests; retry after",
      );
    } finally {
      await client.close();
    }
  }, 60_000);
});
