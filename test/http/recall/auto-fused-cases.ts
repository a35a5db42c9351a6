// AUTO as one fused pipeline, shared by the PostgreSQL and the embedded (PGlite) suites: the
// queries a hard router lost (a prose word read as code, a slash read as a path, gene names read as
// identifiers, an event read as a time window) still find the memory that answers them, and each
// result names its retrievers.
import { expect } from "bun:test";
import { show, type Tenant, type TestApp } from "../../harness/app";
import { idsOf, recall, seed } from "./seed";

const SESSION_1 = "2023-05-08T13:56:00Z";
const SESSION_2 = "2023-07-12T16:33:00Z";

/**
 * A two-person chat in the shape of the public conversational sets: "[date] Speaker: text", dated
 * turns.
 */
const CHAT = [
  {
    occurred_at: SESSION_1,
    content:
      "[1:56 pm on 8 May, 2023] Caroline: I went to an LGBTQ support group yesterday and it was so powerful.",
  },
  {
    occurred_at: SESSION_1,
    content:
      "[1:56 pm on 8 May, 2023] Melanie: That's wonderful! I have been painting a lot lately, mostly sunsets.",
  },
  {
    occurred_at: SESSION_1,
    content:
      "[1:56 pm on 8 May, 2023] Caroline: Since coming out I finally feel free to be myself with my friends.",
  },
  {
    occurred_at: SESSION_1,
    content:
      "[1:56 pm on 8 May, 2023] Melanie: The kids and I went camping at the lake last weekend.",
  },
  {
    occurred_at: SESSION_2,
    content:
      "[4:33 pm on 12 July, 2023] Melanie: I signed up for a pottery class on 2 July, my first bowl is drying now!",
  },
  {
    occurred_at: SESSION_2,
    content:
      "[4:33 pm on 12 July, 2023] Caroline: I am researching adoption agencies; I want to build a family.",
  },
  {
    occurred_at: SESSION_2,
    content:
      "[4:33 pm on 12 July, 2023] Melanie: We saw Matt Patterson live last month, my favourite musical artist, and the Summer Sounds band played too.",
  },
  {
    occurred_at: SESSION_2,
    content:
      "[4:33 pm on 12 July, 2023] Caroline: My mentor at the counselling course says I am a natural listener.",
  },
];

/** Abstracts in the shape of a scientific-claims set: title and text, gene and protein names. */
const ABSTRACTS = [
  "Loss of BRCA1 in TP53-null mammary cells\nBRCA1 deficiency increases chromosomal instability and tumour growth in TP53-null cells; miR-155 represses BRCA1 expression.",
  "Statins and cardiovascular outcomes\nA meta-analysis of statin therapy shows reduced cardiovascular events in older adults.",
  "Vitamin D and bone density\nSupplementation did not change bone mineral density over two years in healthy adults.",
  "Sleep duration and memory consolidation\nShort sleep impaired recall of word pairs learned before the night.",
  "Gut microbiota and obesity\nTransplanted microbiota from obese donors increased adiposity in germ-free mice.",
];

type Ask = { agent: string; query: string; answer: number };

async function expectFound(app: TestApp, tenant: Tenant, ids: string[], ask: Ask): Promise<void> {
  const res = await recall(app, tenant.key, { agent_id: ask.agent, query: ask.query, top_k: 3 });
  expect(res.status, show(res)).toBe(200);
  expect(res.body.routing.requested).toBe("AUTO");
  expect(idsOf(res), `${ask.query}: ${show(res)}`).toContain(ids[ask.answer]!);
  const hit = res.body.results.find((r: { memory_id: string }) => r.memory_id === ids[ask.answer]);
  expect(hit.retrievers).toContain("LEXICAL");
}

/**
 * The four queries a router misread: "class" read as code, a slash as a path, gene names as
 * identifiers, an event as a window.
 */
export const MISREAD = [
  { agent: "auto-chat", query: "When did Melanie sign up for a pottery class?", answer: 4 },
  { agent: "auto-chat", query: "What musical artists/bands has Melanie seen?", answer: 6 },
  {
    agent: "auto-claims",
    query: "miR-155 represses BRCA1, increasing instability in TP53-null cells",
    answer: 0,
  },
  { agent: "auto-chat", query: "How does Caroline feel since coming out?", answer: 2 },
] as const satisfies readonly Ask[];

export type Seeded = Record<string, string[]>;

export async function seedMisreadAgents(app: TestApp, tenant: Tenant): Promise<Seeded> {
  return {
    "auto-chat": await seed(app, tenant, "auto-chat", CHAT),
    "auto-claims": await seed(
      app,
      tenant,
      "auto-claims",
      ABSTRACTS.map((content) => ({ content })),
    ),
  };
}

/**
 * The misread query still finds the memory that answers it, among the first three, found by LEXICAL
 * at least.
 */
export async function misreadQueryStillAnswers(
  app: TestApp,
  tenant: Tenant,
  seeded: Seeded,
  ask: Ask,
): Promise<void> {
  await expectFound(app, tenant, seeded[ask.agent]!, ask);
}

/**
 * Each result names the retrievers that found it; the summary lists the fused ones; the stream says
 * the same.
 */
export async function retrieversAreNamed(app: TestApp, tenant: Tenant): Promise<void> {
  const [id] = await seed(app, tenant, "auto-named", [
    { content: "The user drinks oat milk lattes every morning." },
    { content: "The office is closed on Fridays." },
  ]);
  const body = {
    agent_id: "auto-named",
    query: "which milk does the user take in lattes",
    top_k: 2,
  };
  const res = await recall(app, tenant.key, body);
  expect(res.status, show(res)).toBe(200);
  expect(res.body.results[0].memory_id).toBe(id);
  expect(res.body.results[0].retrievers).toEqual(["LEXICAL", "VECTOR"]);
  expect(res.body.fusion).toEqual({ strategies: ["LEXICAL", "VECTOR"], k: 5 });
  const pinned = await recall(app, tenant.key, { ...body, strategy: "VECTOR" });
  expect(
    pinned.body.results.every((r: { retrievers: string[] }) => r.retrievers.join() === "VECTOR"),
  ).toBe(true);
  const stream = await app.request("POST", "/v1/memories/recall/stream", { key: tenant.key, body });
  expect(stream.status, show(stream)).toBe(200);
  const first = JSON.parse(stream.text.split("event: result\nid: 1\ndata: ")[1]!.split("\n")[0]!);
  expect(first.retrievers).toEqual(["LEXICAL", "VECTOR"]);
}
