// Recall's `context: {neighbours: n}` option, shared by the PostgreSQL and the embedded (PGlite)
// suites.
import { expect } from "bun:test";
import { show, type Tenant, type TestApp } from "../../harness/app";
import { recall, seed, storeConversation } from "./seed";

const TURNS: Array<[string, string]> = [
  ["user", "I am planning a trip for the spring."],
  ["assistant", "Where would you like to go?"],
  ["user", "Somewhere with volcanoes, maybe Iceland."],
  ["assistant", "Iceland is lovely in April."],
  ["user", "Then book the flights for April."],
];

type Turn = { memory_id: string; role: string; offset: number; content: string };

/**
 * A recalled turn carries the turns around it (forgotten ones left out); a memory outside
 * conversations carries none.
 */
export async function neighboursAreAttached(app: TestApp, tenant: Tenant): Promise<void> {
  const agent = "neighbours";
  const ids = await storeConversation(app, tenant, agent, TURNS, "trip");
  const [loose] = await seed(app, tenant, agent, [{ content: "Volcanoes erupt lava." }]);
  const ask = (neighbours: number) =>
    recall(app, tenant.key, {
      agent_id: agent,
      query: "volcanoes",
      strategy: "LEXICAL",
      context: { neighbours },
    });

  const one = await ask(1);
  expect(one.status, show(one)).toBe(200);
  const hit = one.body.results.find((r: { memory_id: string }) => r.memory_id === ids[2]);
  expect(hit, show(one)).toBeDefined();
  expect(hit.context.map((t: Turn) => [t.memory_id, t.role, t.offset, t.content])).toEqual([
    [ids[1], "assistant", -1, TURNS[1]![1]],
    [ids[3], "assistant", 1, TURNS[3]![1]],
  ]);
  expect(
    one.body.results.find((r: { memory_id: string }) => r.memory_id === loose).context,
  ).toEqual([]);

  const forgot = await app.request("POST", "/v1/memories/forget", {
    key: tenant.key,
    body: { memory_id: ids[3] },
  });
  expect(forgot.status, show(forgot)).toBeLessThan(300);
  const two = await ask(2);
  expect(two.status, show(two)).toBe(200);
  const again = two.body.results.find((r: { memory_id: string }) => r.memory_id === ids[2]);
  expect(again.context.map((t: Turn) => t.offset)).toEqual([-2, -1, 2]);

  const plain = await recall(app, tenant.key, {
    agent_id: agent,
    query: "volcanoes",
    strategy: "LEXICAL",
  });
  expect(plain.body.results[0].context, show(plain)).toBeUndefined();
  const bad = await ask(0);
  expect(bad.status, show(bad)).toBe(422);
  expect(
    bad.body.errors.map((e: { path: string }) => e.path),
    show(bad),
  ).toContain("/context/neighbours");
}
