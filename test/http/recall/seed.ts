// Seeding helpers for recall tests: memories through the real batch route, backdating through
// withTenant.
import { expect } from "bun:test";
import { withTenant } from "../../../src/data/with-tenant";
import { graphBacklog } from "../../../src/domain/memories/vector-backlog";
import { show, type Tenant, type TestApp } from "../../harness/app";

export type SeedMemory = {
  content: string;
  memory_type?: string;
  metadata?: Record<string, unknown>;
  occurred_at?: string;
  created_at?: string;
};

/**
 * Stores the memories for one agent and returns their ids in order. occurred_at (event time) goes
 * through the API; created_at (store time) is backdated afterwards, since no client can set it. The
 * batch's vectors are then put into the HNSW graph, as svc.generate_embedding does soon after a
 * batch in production, so recall is tested in its steady state (the backlog itself:
 * test/http/recall/vector-backlog.test.ts).
 */
export async function seed(
  t: TestApp,
  tenant: { key: string; orgId: string },
  agentId: string,
  memories: SeedMemory[],
): Promise<string[]> {
  const res = await t.request("POST", "/v1/memories/batch", {
    key: tenant.key,
    body: { memories: memories.map(({ created_at: _c, ...m }) => ({ agent_id: agentId, ...m })) },
  });
  expect(res.status, show(res)).toBe(201);
  const ids: string[] = res.body.memories.map((m: { memory_id: string }) => m.memory_id);
  const dated = memories.flatMap((m, i) =>
    m.created_at ? [{ id: ids[i]!, at: new Date(m.created_at) }] : [],
  );
  if (dated.length > 0) {
    await withTenant(t.deps.db, tenant.orgId, async (tx) => {
      for (const d of dated)
        await tx`UPDATE memories SET created_at = ${d.at}, valid_from = ${d.at} WHERE memory_id = ${d.id}`;
    });
  }
  await graphBacklog(t.deps.db, tenant.orgId, 1000, 1000);
  return ids;
}

export async function recall(t: TestApp, key: string, body: Record<string, unknown>) {
  return t.request("POST", "/v1/memories/recall", { key, body });
}

export const idsOf = (res: { body: { results: Array<{ memory_id: string }> } }) =>
  res.body.results.map((r) => r.memory_id);

/**
 * Opens a conversation of `agent` and appends `turns` ([role, content]) through the conversations
 * API, one at a time as a chat would; returns the turns' memory ids in order.
 */
export async function storeConversation(
  t: TestApp,
  tenant: Tenant,
  agent: string,
  turns: ReadonlyArray<readonly [string, string]>,
  title?: string,
): Promise<string[]> {
  const opened = await t.request("POST", "/v1/conversations", {
    key: tenant.key,
    body: { agent_id: agent, ...(title ? { title } : {}) },
  });
  expect(opened.status, show(opened)).toBe(201);
  const ids: string[] = [];
  for (const [role, content] of turns) {
    const res = await t.request("POST", `/v1/conversations/${opened.body.conversation_id}/turns`, {
      key: tenant.key,
      body: { role, content },
    });
    expect(res.status, show(res)).toBe(201);
    ids.push(res.body.memory_id);
  }
  return ids;
}
