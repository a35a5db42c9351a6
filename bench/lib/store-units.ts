// Stores a public set's units through the real API, by default as ../shared/bench-data/README.md
// scores them: one memory per unit through POST /v1/memories/batch, in the set's order. With
// `asConversations`, turns (LoCoMo's sessions) go one by one through
// POST /v1/conversations/{id}/turns, as a chat agent would. Returns memory id → unit id.
import type { BenchApp } from "./bench-app";
import type { Unit } from "./public-sets";

async function storeLoose(app: BenchApp, units: Unit[], memoryToUnit: Map<string, string>) {
  const batch = app.deps.config.MEMORY_BATCH_MAX;
  for (let i = 0; i < units.length; i += batch) {
    const slice = units.slice(i, i + batch);
    const memories = slice.map((u) => ({
      agent_id: u.agent,
      content: u.content,
      memory_type: "semantic",
      ...(u.occurredAt ? { occurred_at: u.occurredAt } : {}),
    }));
    const res = await app.call("POST", "/v1/memories/batch", { memories });
    if (res.status !== 201) throw new Error(`batch: ${res.status} ${JSON.stringify(res.body)}`);
    const stored: Array<{ memory_id: string }> = res.body.memories;
    stored.forEach((m, j) => memoryToUnit.set(m.memory_id, slice[j]!.id));
  }
}

async function storeConversation(app: BenchApp, turns: Unit[], memoryToUnit: Map<string, string>) {
  const opened = await app.call("POST", "/v1/conversations", { agent_id: turns[0]!.agent });
  if (opened.status !== 201) throw new Error(`conversation: ${opened.status}`);
  const path = `/v1/conversations/${opened.body.conversation_id}/turns`;
  for (const t of turns) {
    const body = {
      role: t.turn!.role,
      content: t.content,
      ...(t.occurredAt ? { occurred_at: t.occurredAt } : {}),
    };
    const res = await app.call("POST", path, body);
    if (res.status !== 201) throw new Error(`turn: ${res.status} ${JSON.stringify(res.body)}`);
    memoryToUnit.set(res.body.memory_id, t.id);
  }
}

export async function storeUnits(
  app: BenchApp,
  units: Unit[],
  asConversations = false,
): Promise<Map<string, string>> {
  const memoryToUnit = new Map<string, string>();
  if (!asConversations) {
    await storeLoose(app, units, memoryToUnit);
    return memoryToUnit;
  }
  await storeLoose(
    app,
    units.filter((u) => !u.turn),
    memoryToUnit,
  );
  const conversations = new Map<string, Unit[]>();
  for (const u of units.filter((x) => x.turn)) {
    conversations.set(u.turn!.conversation, [
      ...(conversations.get(u.turn!.conversation) ?? []),
      u,
    ]);
  }
  for (const turns of conversations.values()) await storeConversation(app, turns, memoryToUnit);
  return memoryToUnit;
}
