// AUTO's pseudo-relevance feedback (src/domain/recall/pipeline/feedback.ts), shared by the
// PostgreSQL and the embedded (PGlite) suites: a memory that shares no word with the question but
// many rare ones with the memory that matches it is found, though neither LEXICAL nor VECTOR finds
// it alone.
import { expect } from "bun:test";
import { show, type Tenant, type TestApp } from "../../harness/app";
import { idsOf, recall, seed, type SeedMemory } from "./seed";

const QUERY = "What does the cat play with?";
/** A first-pass match that holds the answer's words too. */
const MATCH = "Our cat Miso chases the red laser pointer every evening.";
/** The answer: not one word of the question, five of the match's rare ones. */
const ANSWER = "Miso chased the red laser pointer under the sofa again.";
/** Each holds "cat", common in this agent, and nothing else of the question or the match. */
const CAT_ONLY = [
  "The cat next door sleeps on our porch.",
  "A cat food delivery comes on Mondays.",
  "The neighbour's cat is called Tom.",
  "Cat hair gets everywhere in spring.",
  "We took the cat to the vet for shots.",
];
const OTHERS = ["The garden needs watering.", "Bought new running shoes.", "The train was late."];

async function store(app: TestApp, tenant: Tenant, agent: string, answer: Partial<SeedMemory>) {
  const memories = [
    { content: MATCH },
    { content: ANSWER, ...answer },
    ...[...CAT_ONLY, ...OTHERS].map((content) => ({ content })),
  ];
  const ids = await seed(app, tenant, agent, memories);
  return { match: ids[0]!, answer: ids[1]!, catOnly: ids.slice(2, 2 + CAT_ONLY.length) };
}

async function ranked(app: TestApp, tenant: Tenant, body: Record<string, unknown>) {
  const res = await recall(app, tenant.key, { query: QUERY, top_k: 10, ...body });
  expect(res.status, show(res)).toBe(200);
  return { res, ids: idsOf(res) };
}

/**
 * The match first; the answer, which neither LEXICAL (no word of the question) nor VECTOR (the
 * local embedder reads it as unlike the question) finds, comes back, and names LEXICAL's feedback
 * pass.
 */
export async function feedbackFindsTheAnswer(app: TestApp, tenant: Tenant) {
  const agent = "feedback-answer";
  const { match, answer } = await store(app, tenant, agent, {});
  const { res, ids } = await ranked(app, tenant, { agent_id: agent });
  expect(ids[0], show(res)).toBe(match);
  expect(ids, show(res)).toContain(answer);
  const found = res.body.results.find((r: { memory_id: string }) => r.memory_id === answer);
  expect(found.retrievers, show(res)).toContain("LEXICAL");
}

/** Pinned LEXICAL is plain BM25: the answer, without a word of the question, is not found. */
export async function pinnedLexicalHasNoFeedback(app: TestApp, tenant: Tenant) {
  const agent = "feedback-pinned";
  const { match, answer } = await store(app, tenant, agent, {});
  const { res, ids } = await ranked(app, tenant, { agent_id: agent, strategy: "LEXICAL" });
  expect(ids, show(res)).toContain(match);
  expect(ids, show(res)).not.toContain(answer);
}

/** Quotes ask for exact wording: no feedback, the memories holding "cat" stay above the answer. */
export async function quotedQueryHasNoFeedback(app: TestApp, tenant: Tenant) {
  const agent = "feedback-quoted";
  const { answer, catOnly } = await store(app, tenant, agent, {});
  const { res, ids } = await ranked(app, tenant, { agent_id: agent, query: '"cat" play' });
  const below = ids.indexOf(answer) < 0 ? ids.length : ids.indexOf(answer);
  for (const id of catOnly) expect(ids.indexOf(id), show(res)).toBeLessThan(below);
}

/** A memory the request's filter excludes never comes back through the feedback pass. */
export async function feedbackKeepsTheFilter(app: TestApp, tenant: Tenant) {
  const agent = "feedback-filtered";
  const { answer } = await store(app, tenant, agent, { memory_type: "procedural" });
  const { res, ids } = await ranked(app, tenant, {
    agent_id: agent,
    filters: { memory_type: "semantic" },
  });
  expect(ids.length, show(res)).toBeGreaterThan(1);
  expect(ids, show(res)).not.toContain(answer);
}
