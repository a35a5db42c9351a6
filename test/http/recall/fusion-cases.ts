// Fusion (reciprocal rank) as a request option, shared by the PostgreSQL and the embedded (PGlite)
// suites.
import { expect } from "bun:test";
import { show, type Tenant, type TestApp } from "../../harness/app";
import { idsOf, recall, seed } from "./seed";

const CONTENTS = [
  "Maria moved to Lisbon last spring for a design job.",
  "The Lisbon office has a rooftop garden.",
  "Maria's sister visits her every summer.",
  "We discussed the design review for the mobile app.",
  "A new bakery opened near the office.",
  "The garden needs watering twice a week in summer.",
];

/**
 * The fused order is Σ 1/(60 + rank) over the pinned LEXICAL and VECTOR lists (depth 30), and the
 * response says what was fused.
 */
export async function fusedOrderIsReciprocalRank(app: TestApp, tenant: Tenant): Promise<void> {
  const agent = "fusion-order";
  await seed(
    app,
    tenant,
    agent,
    CONTENTS.map((content) => ({ content })),
  );
  const query = "Maria design Lisbon summer";
  const lists = await Promise.all(
    ["LEXICAL", "VECTOR"].map(async (strategy) => {
      const res = await recall(app, tenant.key, { agent_id: agent, query, strategy, top_k: 30 });
      expect(res.status, show(res)).toBe(200);
      return idsOf(res);
    }),
  );
  const expected = new Map<string, number>();
  for (const ids of lists)
    ids.forEach((id, i) => expected.set(id, (expected.get(id) ?? 0) + 1 / (60 + i + 1)));
  const fused = await recall(app, tenant.key, {
    agent_id: agent,
    query,
    top_k: 4,
    fusion: { strategies: ["LEXICAL", "VECTOR"] },
  });
  expect(fused.status, show(fused)).toBe(200);
  expect(fused.body.strategy).toBe("LEXICAL");
  expect(fused.body.fusion).toEqual({ strategies: ["LEXICAL", "VECTOR"], k: 60 });
  expect(fused.body.routing).toMatchObject({ requested: "LEXICAL", method: "pinned" });
  expect(fused.body.note).toContain("reciprocal-rank fusion (k=60) of LEXICAL");
  const best = [...expected.values()].sort((a, b) => b - a).slice(0, 4);
  const scores = fused.body.results.map((r: { memory_id: string; score: number }) => {
    expect(r.score).toBeCloseTo(expected.get(r.memory_id)!, 9);
    return r.score;
  });
  expect(scores.length).toBe(4);
  scores.forEach((s: number, i: number) => expect(s).toBeCloseTo(best[i]!, 9));
  expect(new Set(idsOf(fused)).size).toBe(4);
}

/**
 * Unknown, duplicated, unfusable or too few strategies, and a pinned strategy beside fusion: 422
 * naming the field.
 */
export async function fusionValidation(app: TestApp, tenant: Tenant): Promise<void> {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ fusion: { strategies: ["LEXICAL", "NOPE"] } }, "/fusion/strategies/1"],
    [{ fusion: { strategies: ["LEXICAL", "LEXICAL"] } }, "/fusion/strategies/1"],
    [{ fusion: { strategies: ["ASK", "LEXICAL"] } }, "/fusion/strategies/0"],
    [{ fusion: { strategies: [] } }, "/fusion/strategies"],
    [{ fusion: { strategies: ["LEXICAL", "VECTOR"], k: 0 } }, "/fusion/k"],
    [{ strategy: "VECTOR", fusion: { strategies: ["LEXICAL", "VECTOR"] } }, "/strategy"],
  ];
  for (const [extra, path] of cases) {
    const res = await recall(app, tenant.key, {
      agent_id: "fusion-bad",
      query: "anything",
      ...extra,
    });
    expect(res.status, show(res)).toBe(422);
    expect(
      res.body.errors.map((e: { path: string }) => e.path),
      show(res),
    ).toContain(path);
  }
}
