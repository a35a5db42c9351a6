// AUTO's episode signal (src/domain/recall/pipeline/episode-signal.ts): a turn of the session that
// matches the question as a whole outranks a turn of another session that matches as well on its
// own; shared by the PostgreSQL and the embedded (PGlite) suites.
import { expect } from "bun:test";
import { show, type Tenant, type TestApp } from "../../harness/app";
import { idsOf, recall, seed, storeConversation } from "./seed";

/** The trip's session: the painting (last) is four turns from the trip, out of neighbour reach. */
const TRIP = [
  "Caroline: The camping trip to the lake with the kids was wonderful, we stayed a week.",
  "Melanie: So glad you had a good time away from the city.",
  "Caroline: The children loved sleeping in tents under the stars.",
  "Melanie: That sounds like a lot of fun, anything else?",
  "Caroline: Back home I painted a sunrise over the water from memory.",
];
/** Another session: one short turn about painting, better than the answer on its own words. */
const OTHER = [
  "Caroline: I painted the fence.",
  "Melanie: Nice, what colour did you pick?",
  "Caroline: A dark shade of green, it took two coats.",
];
const QUERY = "What did Caroline paint after the camping trip to the lake?";

async function store(app: TestApp, tenant: Tenant, agent: string, dated: boolean) {
  const at = (day: string) => (dated ? { occurred_at: `2023-${day}T13:56:00Z` } : {});
  const trip = await seed(
    app,
    tenant,
    agent,
    TRIP.map((content) => ({ content, ...at("05-08") })),
  );
  const other = await seed(
    app,
    tenant,
    agent,
    OTHER.map((content) => ({ content, ...at("06-10") })),
  );
  return { answer: trip.at(-1)!, rival: other[0]! };
}

async function ranked(app: TestApp, tenant: Tenant, agent: string) {
  const res = await recall(app, tenant.key, { agent_id: agent, query: QUERY, top_k: 8 });
  expect(res.status, show(res)).toBe(200);
  return { res, ids: idsOf(res) };
}

/** Dated sessions: the answer, in the session that holds the question's words, comes first. */
export async function bestEpisodeLiftsItsTurn(app: TestApp, tenant: Tenant) {
  const { answer, rival } = await store(app, tenant, "episodes-dated", true);
  const { res, ids } = await ranked(app, tenant, "episodes-dated");
  expect(ids, show(res)).toContain(rival);
  expect(ids.indexOf(answer), show(res)).toBeGreaterThanOrEqual(0);
  expect(ids.indexOf(answer), show(res)).toBeLessThan(ids.indexOf(rival));
}

/** Without occurred_at there are no episodes: the shorter match keeps its place. */
export async function undatedMemoriesGetNoLift(app: TestApp, tenant: Tenant) {
  const { answer, rival } = await store(app, tenant, "episodes-undated", false);
  const { res, ids } = await ranked(app, tenant, "episodes-undated");
  expect(ids, show(res)).toContain(rival);
  const at = ids.indexOf(answer);
  if (at >= 0) expect(ids.indexOf(rival), show(res)).toBeLessThan(at);
}

/** Each session as a conversation of its own, its turns alternating user and assistant. */
const converse = (app: TestApp, tenant: Tenant, agent: string, turns: string[]) =>
  storeConversation(
    app,
    tenant,
    agent,
    turns.map((content, i) => [i % 2 === 0 ? "user" : "assistant", content] as const),
  );

/** A conversation is an episode: its turns are gathered as the dated session's are. */
export async function conversationIsAnEpisode(app: TestApp, tenant: Tenant) {
  const agent = "episodes-conversations";
  const answer = (await converse(app, tenant, agent, TRIP)).at(-1)!;
  const rival = (await converse(app, tenant, agent, OTHER))[0]!;
  const { res, ids } = await ranked(app, tenant, agent);
  expect(ids, show(res)).toContain(rival);
  expect(ids.indexOf(answer), show(res)).toBeGreaterThanOrEqual(0);
  expect(ids.indexOf(answer), show(res)).toBeLessThan(ids.indexOf(rival));
}
