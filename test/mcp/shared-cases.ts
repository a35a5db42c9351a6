// The MCP round trip every transport and database mode must pass: tools offered, store → recall →
// get → history → forget, a second tenant seeing nothing of the first, validation and not-found as
// tool errors.
import { expect } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ok, toolErrorText } from "./helpers";

export const CORE_TOOLS = [
  "store_memory",
  "store_memories",
  "recall",
  "forget",
  "list_memories",
  "get_memory",
  "memory_history",
  "audit_query",
  "graph_query",
];
export const GATED_TOOLS = ["distill", "ingest", "refine", "feedback"];

export async function expectCoreToolsOnly(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  expect(names.sort()).toEqual([...CORE_TOOLS].sort());
  const recall = tools.find((t) => t.name === "recall")!;
  const strategy = (recall.inputSchema.properties as any).strategy;
  expect(strategy.enum).toEqual([
    "AUTO",
    "VECTOR",
    "LEXICAL",
    "GRAPH",
    "TRIPLET",
    "TRACE",
    "TEMPORAL",
    "ASK",
    "CYPHER",
    "CODE",
  ]);
  expect(recall.inputSchema.required).toEqual(["agent_id", "query"]);
  const call = await client
    .callTool({ name: "distill", arguments: { agent_id: "a", memory_ids: ["mem_x"] } })
    .catch((e: Error) => e);
  expect(call).toBeInstanceOf(Error);
  expect((call as Error).message).toContain("Unknown tool: distill");
}

/**
 * `other` is a client of a second tenant; null where the transport admits one client only (stdio on
 * PGlite).
 */
export async function roundTrip(
  client: Client,
  other: Client | null,
  agent: string,
): Promise<void> {
  const stored = ok(
    await client.callTool({
      name: "store_memory",
      arguments: {
        agent_id: agent,
        content: "The deploy key rotates every Tuesday at noon",
        metadata: { source: "mcp" },
      },
    }),
  );
  expect(stored.memory_id).toMatch(/^mem_/);
  expect(stored.version).toBe(1);
  const batch = ok(
    await client.callTool({
      name: "store_memories",
      arguments: {
        memories: [
          { agent_id: agent, content: "Lunch is pizza on Fridays" },
          { agent_id: agent, content: "The staging database lives in Frankfurt" },
        ],
      },
    }),
  );
  expect(batch.count).toBe(2);

  const recalled = ok(
    await client.callTool({
      name: "recall",
      arguments: {
        agent_id: agent,
        query: "when does the deploy key rotate",
        strategy: "LEXICAL",
        top_k: 3,
      },
    }),
  );
  expect(recalled.strategy).toBe("LEXICAL");
  expect(recalled.results[0].memory_id).toBe(stored.memory_id);
  // The tool takes the REST body's options, fusion among them.
  const fused = ok(
    await client.callTool({
      name: "recall",
      arguments: {
        agent_id: agent,
        query: "deploy key rotate",
        fusion: { strategies: ["LEXICAL", "VECTOR"] },
        top_k: 3,
      },
    }),
  );
  expect(fused.fusion).toEqual({ strategies: ["LEXICAL", "VECTOR"], k: 60 });
  expect(fused.results[0].memory_id).toBe(stored.memory_id);

  const got = ok(
    await client.callTool({ name: "get_memory", arguments: { memory_id: stored.memory_id } }),
  );
  expect(got.content).toBe("The deploy key rotates every Tuesday at noon");
  const resource = await client.readResource({ uri: `svc://memories/${stored.memory_id}` });
  expect(JSON.parse((resource.contents[0] as { text: string }).text).memory_id).toBe(
    stored.memory_id,
  );

  // Listing: the tool (metadata equality as an object), the agents and agent-memories resources.
  const listed = ok(
    await client.callTool({ name: "list_memories", arguments: { agent_id: agent, limit: 2 } }),
  );
  // The batch shares one created_at (its transaction's), so its order is memory_id's: compare as
  // sets.
  expect(listed.items.map((m: any) => m.content).sort()).toEqual([
    "Lunch is pizza on Fridays",
    "The staging database lives in Frankfurt",
  ]);
  const next = ok(
    await client.callTool({
      name: "list_memories",
      arguments: { agent_id: agent, cursor: listed.next_cursor },
    }),
  );
  expect(next.items.map((m: any) => m.memory_id)).toEqual([stored.memory_id]);
  const bySource = ok(
    await client.callTool({
      name: "list_memories",
      arguments: { agent_id: agent, metadata: { source: "mcp" } },
    }),
  );
  expect(bySource.items.map((m: any) => m.memory_id)).toEqual([stored.memory_id]);
  const readJson = async (c: Client, uri: string) =>
    JSON.parse(((await c.readResource({ uri })).contents[0] as { text: string }).text);
  const agents = await readJson(client, "svc://agents");
  expect(agents.items.find((x: any) => x.agent_id === agent)).toMatchObject({
    memories: 3,
    forgotten: 0,
  });
  const newest = await readJson(client, `svc://agents/${encodeURIComponent(agent)}/memories`);
  expect(newest.items).toHaveLength(3);
  expect(
    toolErrorText(await client.callTool({ name: "list_memories", arguments: { order: "up" } })),
  ).toStartWith("Validation Failed: order");

  // The other tenant sees nothing of this one, by id, by recall, by forget, by listing or as a
  // resource.
  if (other) {
    expect(
      ok(await other.callTool({ name: "list_memories", arguments: { agent_id: agent } })).items,
    ).toEqual([]);
    expect(
      (await readJson(other, `svc://agents/${encodeURIComponent(agent)}/memories`)).items,
    ).toEqual([]);
    expect(
      (await readJson(other, "svc://agents")).items.some((x: any) => x.agent_id === agent),
    ).toBe(false);
    expect(
      toolErrorText(
        await other.callTool({ name: "get_memory", arguments: { memory_id: stored.memory_id } }),
      ),
    ).toStartWith("Not Found:");
    const theirs = ok(
      await other.callTool({
        name: "recall",
        arguments: { agent_id: agent, query: "deploy key rotates", strategy: "LEXICAL" },
      }),
    );
    expect(theirs.results).toEqual([]);
    expect(
      ok(await other.callTool({ name: "forget", arguments: { memory_id: stored.memory_id } })),
    ).toEqual({ forgotten: [], not_found: [stored.memory_id], cert_id: null });
    const foreign = await other
      .readResource({ uri: `svc://memories/${stored.memory_id}` })
      .catch((e: Error) => e);
    expect(String(foreign)).toContain("Not Found");
  }

  // Validation uses the REST schema and names the field.
  expect(
    toolErrorText(await client.callTool({ name: "store_memory", arguments: { content: "x" } })),
  ).toBe("Validation Failed: agent_id is required");
  expect(
    toolErrorText(
      await client.callTool({
        name: "recall",
        arguments: { agent_id: agent, query: "q", strategy: "FASTEST" },
      }),
    ),
  ).toStartWith("Validation Failed: strategy must be one of: AUTO");
  expect(
    toolErrorText(
      await client.callTool({
        name: "store_memory",
        arguments: { agent_id: agent, content: "x", ttl: 5 },
      }),
    ),
  ).toBe("Validation Failed: ttl is not a known field");

  expect(
    ok(await client.callTool({ name: "forget", arguments: { memory_id: stored.memory_id } })),
  ).toEqual({ forgotten: [stored.memory_id], not_found: [], cert_id: null });
  const after = ok(
    await client.callTool({
      name: "recall",
      arguments: { agent_id: agent, query: "deploy key rotates", strategy: "LEXICAL" },
    }),
  );
  expect(after.results.map((r: any) => r.memory_id)).not.toContain(stored.memory_id);
  expect(
    toolErrorText(
      await client.callTool({ name: "get_memory", arguments: { memory_id: stored.memory_id } }),
    ),
  ).toStartWith("Gone:");
  const history = ok(
    await client.callTool({ name: "memory_history", arguments: { memory_id: stored.memory_id } }),
  );
  expect(history.versions).toHaveLength(1);
  expect(history.versions[0].deleted_at).not.toBeNull();
}
