// AUTO's neighbouring-turn signal, shared by the PostgreSQL and the embedded (PGlite) suites: a
// turn next to the one that holds the question's words outranks a memory that matches as well on
// its own.
import { expect } from "bun:test";
import { show, type Tenant, type TestApp } from "../../harness/app";
import { idsOf, recall, seed, storeConversation } from "./seed";

const AGENT = "auto-neighbours";
const TURNS: Array<[string, string]> = [
  ["user", "Caroline: I am painting the fence this weekend."],
  ["user", "Caroline: How was the camping trip to Yosemite with the kids?"],
  ["assistant", "Melanie: We spotted a black bear near the lake, the kids loved it!"],
  ["user", "Caroline: I am going to a pride parade next week."],
];
/**
 * Matches the question as well as the answering turn does (a shorter text, so BM25 ranks it
 * higher).
 */
const LOOSE = "Melanie: We spotted a black cat near the barn!";

/** The reply to the matching turn ranks above the loose memory, and names the retrievers. */
export async function neighbourOfMatchRanksHigher(app: TestApp, tenant: Tenant): Promise<void> {
  const ids = await storeConversation(app, tenant, AGENT, TURNS, "chat");
  const [loose] = await seed(app, tenant, AGENT, [{ content: LOOSE }]);
  const query = "What did Melanie see on the Yosemite camping trip?";
  const res = await recall(app, tenant.key, { agent_id: AGENT, query, top_k: 5 });
  expect(res.status, show(res)).toBe(200);
  const ranked = idsOf(res);
  expect(ranked[0], show(res)).toBe(ids[1]!);
  expect(ranked.indexOf(ids[2]!), show(res)).toBeGreaterThanOrEqual(0);
  expect(ranked.indexOf(ids[2]!), show(res)).toBeLessThan(ranked.indexOf(loose!));
  const answer = res.body.results.find((r: { memory_id: string }) => r.memory_id === ids[2]);
  expect(answer.retrievers.length, show(res)).toBeGreaterThan(0);
  const pinned = await recall(app, tenant.key, {
    agent_id: AGENT,
    query,
    top_k: 5,
    strategy: "LEXICAL",
  });
  expect(idsOf(pinned).indexOf(loose!), show(pinned)).toBeLessThan(idsOf(pinned).indexOf(ids[2]!));
}
