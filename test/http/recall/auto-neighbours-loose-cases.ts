// AUTO's neighbour signal for memories stored loose (one per turn through the batch API, as
// ../shared/bench-data/README.md stores LoCoMo) and the recall's filters on both paths; shared by
// the PostgreSQL and the embedded (PGlite) suites.
import { expect } from "bun:test";
import { show, type Tenant, type TestApp } from "../../harness/app";
import { idsOf, recall, seed, type SeedMemory } from "./seed";

const TURNS = [
  "[8 May 2023] Caroline: I am painting the fence this weekend.",
  "[8 May 2023] Caroline: How was the camping trip to Yosemite with the kids?",
  "[8 May 2023] Melanie: We spotted a black bear near the lake, the kids loved it!",
  "[8 May 2023] Caroline: I am going to a pride parade next week.",
];
/** Matches the question as well as the answering turn does (shorter, so BM25 ranks it higher). */
const ALONE = "Melanie: We spotted a black cat near the barn!";
const QUERY = "What did Melanie see on the Yosemite camping trip?";
const SESSION = "2023-05-08T13:56:00Z";

/** Stores the turns in one batch (with `at(i)` as each one's occurred_at) and the lone memory. */
async function store(
  app: TestApp,
  tenant: Tenant,
  agent: string,
  turn: (i: number) => Partial<SeedMemory>,
): Promise<{ ids: string[]; alone: string }> {
  const ids = await seed(
    app,
    tenant,
    agent,
    TURNS.map((content, i) => ({ content, ...turn(i) })),
  );
  const [alone] = await seed(app, tenant, agent, [{ content: ALONE }]);
  return { ids, alone: alone! };
}

async function ranked(app: TestApp, tenant: Tenant, body: Record<string, unknown>) {
  const res = await recall(app, tenant.key, { query: QUERY, top_k: 5, ...body });
  expect(res.status, show(res)).toBe(200);
  return { res, ids: idsOf(res) };
}

/** Loose memories of one episode: the reply next to the match outranks the lone memory. */
export async function looseEpisodeNeighbourRanksHigher(app: TestApp, tenant: Tenant) {
  const agent = "loose-episode";
  const { ids, alone } = await store(app, tenant, agent, () => ({ occurred_at: SESSION }));
  const { res, ids: got } = await ranked(app, tenant, { agent_id: agent });
  expect(got[0], show(res)).toBe(ids[1]!);
  expect(got.indexOf(ids[2]!), show(res)).toBeGreaterThanOrEqual(0);
  expect(got.indexOf(ids[2]!), show(res)).toBeLessThan(got.indexOf(alone));
}

/** Different occurred_at each, or none: not one episode, so no lift (LEXICAL's order stays). */
export async function otherOrNoEpisodeGetsNoLift(app: TestApp, tenant: Tenant) {
  const dated = (i: number) => ({ occurred_at: `2023-05-0${i + 1}T13:56:00Z` });
  for (const [agent, turn] of [
    ["loose-dated", dated],
    ["loose-undated", () => ({})],
  ] as const) {
    const { ids, alone } = await store(app, tenant, agent, turn);
    const { res, ids: got } = await ranked(app, tenant, { agent_id: agent });
    expect(got.indexOf(alone), show(res)).toBeGreaterThanOrEqual(0);
    const answer = got.indexOf(ids[2]!);
    if (answer >= 0) expect(got.indexOf(alone), show(res)).toBeLessThan(answer);
  }
}

/** A loose neighbour that a metadata or type filter excludes never appears. */
export async function filtersApplyToLooseNeighbours(app: TestApp, tenant: Tenant) {
  const agent = "loose-filtered";
  const { ids } = await store(app, tenant, agent, (i) => ({
    occurred_at: SESSION,
    ...(i === 2
      ? { memory_type: "procedural" }
      : { memory_type: "episodic", metadata: { keep: true } }),
  }));
  for (const filters of [{ metadata: { keep: true } }, { memory_type: "episodic" }]) {
    const { res, ids: got } = await ranked(app, tenant, { agent_id: agent, filters });
    expect(got, show(res)).toContain(ids[1]!);
    expect(got, show(res)).not.toContain(ids[2]!);
  }
}

/** A neighbouring turn that a metadata filter excludes never appears. */
export async function filtersApplyToNeighbourTurns(app: TestApp, tenant: Tenant) {
  const agent = "turns-filtered";
  const opened = await app.request("POST", "/v1/conversations", {
    key: tenant.key,
    body: { agent_id: agent, title: "chat" },
  });
  expect(opened.status, show(opened)).toBe(201);
  const ids: string[] = [];
  for (const [i, content] of TURNS.entries()) {
    const path = `/v1/conversations/${opened.body.conversation_id}/turns`;
    const res = await app.request("POST", path, {
      key: tenant.key,
      body: { role: i === 2 ? "assistant" : "user", content, metadata: { keep: i !== 2 } },
    });
    expect(res.status, show(res)).toBe(201);
    ids.push(res.body.memory_id);
  }
  const all = await ranked(app, tenant, { agent_id: agent });
  expect(all.ids, show(all.res)).toContain(ids[2]!);
  const filters = { metadata: { keep: true } };
  const { res, ids: got } = await ranked(app, tenant, { agent_id: agent, filters });
  expect(got, show(res)).toContain(ids[1]!);
  expect(got, show(res)).not.toContain(ids[2]!);
}
