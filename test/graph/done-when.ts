// The "done when", as one scenario over HTTP with the real default (local) extractor, run
// on PostgreSQL (test/graph/distill-http.test.ts) and on PGlite
// (test/embedded/graph-embedded.test.ts).
import { expect } from "bun:test";
import { eventually } from "../queue/wait";

export type Answer = { status: number; body: any; text: string };
export type Caller = (method: string, path: string, body?: unknown) => Promise<Answer>;

const show = (r: Answer) => `${r.status} ${r.text.slice(0, 400)}`;

export async function storeOverHttp(
  call: Caller,
  agent: string,
  contents: string[],
): Promise<string[]> {
  const res = await call("POST", "/v1/memories/batch", {
    memories: contents.map((content) => ({ agent_id: agent, content })),
  });
  expect(res.status, show(res)).toBe(201);
  return res.body.memories.map((m: { memory_id: string }) => m.memory_id);
}

/** POST /v1/distill, then poll GET /v1/distill/{job_id} until the job is settled. */
export async function distillOverHttp(
  call: Caller,
  agent: string,
  memoryIds: string[],
): Promise<any> {
  const created = await call("POST", "/v1/distill", { agent_id: agent, memory_ids: memoryIds });
  expect(created.status, show(created)).toBe(202);
  const jobId: string = created.body.job_id;
  expect(jobId).toMatch(/^job_/);
  expect(created.body.state).toBe("queued");
  return eventually(
    async () => {
      const res = await call("GET", `/v1/distill/${jobId}`);
      expect(res.status, show(res)).toBe(200);
      return ["succeeded", "failed", "rejected"].includes(res.body.state) ? res.body : null;
    },
    `distill job ${jobId} to settle`,
    60_000,
  );
}

const recall = (
  call: Caller,
  agent: string,
  strategy: string,
  query: string,
  extra: Record<string, unknown> = {},
) => call("POST", "/v1/memories/recall", { agent_id: agent, query, strategy, top_k: 20, ...extra });

export async function doneWhen(callA: Caller, callB: Caller, agent: string): Promise<void> {
  const [works, hq, knows, paris, berlin, uses, restated, code] = await storeOverHttp(
    callA,
    agent,
    [
      "Alice works at Acme.",
      "Acme is headquartered in Berlin.",
      "Bob knows Alice.",
      "In 2019 Alice moved to Paris.",
      "In March 2023 Alice moved to Berlin.",
      "Bob uses Postgres.",
      "Alice works at Acme.",
      "The parser is defined in src/parse.ts.",
    ],
  );
  const job = await distillOverHttp(callA, agent, [
    works!,
    hq!,
    knows!,
    paris!,
    berlin!,
    uses!,
    restated!,
    code!,
  ]);
  expect(job).toMatchObject({
    state: "succeeded",
    extractor: "local-v1",
    progress: { done: 8, total: 8 },
    counts: { edges_superseded: 1 },
  });
  expect(job.counts.edges_created).toBeGreaterThanOrEqual(7);

  // Deduplicated nodes and edges in graph/data.
  const data = await callA("GET", `/v1/graph/data?agent_id=${agent}`);
  expect(data.status, show(data)).toBe(200);
  const names: string[] = data.body.nodes.map((n: { name: string }) => n.name);
  expect(names.filter((n) => n === "Alice").length).toBe(1);
  expect(names).toEqual(
    expect.arrayContaining(["Alice", "Acme", "Berlin", "Bob", "Postgres", "src/parse.ts"]),
  );
  const worksAt = data.body.edges.filter((e: { relation: string }) => e.relation === "WORKS_AT");
  expect(worksAt.length).toBe(1);
  expect(worksAt[0].source_memories.map((s: { memory_id: string }) => s.memory_id).sort()).toEqual(
    [works, restated].sort(),
  );

  // GRAPH: two hops, to a memory sharing no word with the question.
  const question = "Which city hosts Alice's employer?";
  expect(
    (await recall(callA, agent, "LEXICAL", question)).body.results.map(
      (r: { memory_id: string }) => r.memory_id,
    ),
  ).not.toContain(hq);
  const graph = await recall(callA, agent, "GRAPH", question);
  expect(graph.status, show(graph)).toBe(200);
  const hit = graph.body.results.find((r: { memory_id: string }) => r.memory_id === hq);
  expect(hit, show(graph)).toBeDefined();
  expect(hit.graph.path.hops).toBe(2);

  // TRIPLET and TRACE: cited facts; the superseded fact with its invalid_at, gone at an as_of after
  // it.
  const triplet = await recall(callA, agent, "TRIPLET", "Where does Alice live?");
  const lives = triplet.body.graph.facts.filter(
    (f: { relation: string }) => f.relation === "LIVES_IN",
  );
  expect(lives.map((f: any) => [f.object.name, f.sources])).toEqual([
    ["Berlin", [{ memory_id: berlin, version: 1 }]],
  ]);
  const trace = await recall(callA, agent, "TRACE", "history of Alice");
  const history = trace.body.graph.facts.filter(
    (f: { relation: string }) => f.relation === "LIVES_IN",
  );
  expect(history.map((f: any) => [f.object.name, f.invalid_at, f.expired_reason])).toEqual([
    ["Paris", "2023-03-01T00:00:00.000Z", "superseded"],
    ["Berlin", null, null],
  ]);
  expect(trace.body.graph.facts.every((f: any) => f.sources.length > 0)).toBe(true);
  const livedAt = async (asOf: string) =>
    (await callA("GET", `/v1/graph/data?agent_id=${agent}&as_of=${asOf}`)).body.edges
      .filter((e: { relation: string }) => e.relation === "LIVES_IN")
      .map((e: { fact: string }) => e.fact);
  expect(await livedAt("2020-01-01T00:00:00Z")).toEqual([expect.stringContaining("Paris")]);
  expect(await livedAt("2024-01-01T00:00:00Z")).toEqual([expect.stringContaining("Berlin")]);
  const later = await recall(callA, agent, "TRIPLET", "Where does Alice live?", {
    as_of: "2024-01-01T00:00:00Z",
  });
  expect(later.text).not.toContain("Paris");

  // A forgotten memory's facts are unreachable by every strategy and every graph/data view.
  const probes: Array<[string, string]> = [
    ["GRAPH", "Where is the parser defined?"],
    ["TRIPLET", "parser defined src/parse.ts"],
    ["TRACE", "history of the parser"],
  ];
  for (const [strategy, query] of probes)
    expect((await recall(callA, agent, strategy, query)).text, strategy).toContain("src/parse.ts");
  expect((await callA("POST", "/v1/memories/forget", { memory_id: code })).status).toBe(200);
  for (const [strategy, query] of probes) {
    const res = await recall(callA, agent, strategy, query);
    expect(res.status, show(res)).toBe(200);
    expect(res.text, strategy).not.toContain("src/parse.ts");
  }
  for (const view of [
    "",
    "&include_expired=true",
    "&as_of=2030-01-01T00:00:00Z",
    "&around=parser&depth=3",
  ]) {
    const res = await callA("GET", `/v1/graph/data?agent_id=${agent}${view}`);
    expect(JSON.stringify({ nodes: res.body.nodes, edges: res.body.edges }), view).not.toContain(
      "src/parse.ts",
    );
  }

  // Tenant B sees nothing of tenant A's graph, through any route.
  expect((await callB("GET", `/v1/distill/${job.job_id}`)).status).toBe(404);
  const theirs = await callB(
    "GET",
    `/v1/graph/data?agent_id=${agent}&around=Alice&depth=3&include_expired=true`,
  );
  expect(theirs.body).toMatchObject({ nodes: [], edges: [] });
  for (const strategy of ["GRAPH", "TRIPLET", "TRACE"]) {
    const res = await recall(callB, agent, strategy, `${question} history of Alice`);
    expect(res.status, show(res)).toBe(200);
    expect(res.body.results).toEqual([]);
    expect(res.text).not.toContain("Berlin");
  }
}
