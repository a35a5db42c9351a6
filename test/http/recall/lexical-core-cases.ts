// LEXICAL's BM25, shared by the PostgreSQL and the embedded (PGlite) suites, through
// POST /v1/memories/recall: idf weighting, WordNet query expansion, the whole agent ranked (no
// recency window), document length normalisation, identifiers split and kept whole.
import { expect } from "bun:test";
import { show, type Tenant, type TestApp } from "../../harness/app";
import { idsOf, recall, seed } from "./seed";

type Stored = { key: string; ids: string[] };

async function store(
  app: TestApp,
  tenant: Tenant,
  agent: string,
  contents: string[],
): Promise<Stored> {
  const res = await app.request("POST", "/v1/memories/batch", {
    key: tenant.key,
    body: { memories: contents.map((content) => ({ agent_id: agent, content })) },
  });
  expect(res.status, show(res)).toBe(201);
  return { key: tenant.key, ids: res.body.memories.map((m: { memory_id: string }) => m.memory_id) };
}

/**
 * One rare word outranks two common ones: plain ts_rank (term counts) would put the "new … city"
 * lines first.
 */
export async function rareWordOutranksCommonOnes(app: TestApp, tenant: Tenant): Promise<void> {
  const agent = "lexical-idf";
  const { key, ids } = await store(app, tenant, agent, [
    "My sister Ana just started a job at Globex.",
    "A new bakery opened in the city centre.",
    "The new tram line crosses the whole city.",
    "We found a new park at the edge of the city.",
    "The city council approved a new budget.",
    "There is a new museum in the old city.",
    "I watered the plants on the balcony.",
  ]);
  const res = await recall(app, key, {
    agent_id: agent,
    query: "sister new city",
    strategy: "LEXICAL",
    top_k: 3,
  });
  expect(res.status, show(res)).toBe(200);
  expect(idsOf(res)[0], show(res)).toBe(ids[0]!);
}

/**
 * LEXICAL ranks the words typed: no WordNet relatives (on the public sets they cost it recall and
 * nDCG, docs/benchmarks.md). "purchase" finds "purchased" (same stem), not "bought".
 */
export async function typedWordsOnly(app: TestApp, tenant: Tenant): Promise<void> {
  const agent = "lexical-typed-words";
  const { key, ids } = await store(app, tenant, agent, [
    "I finally bought a used Subaru Outback with low mileage.",
    "We purchased a second-hand van for the band.",
    "The weather has been grey all week.",
  ]);
  const res = await recall(app, key, {
    agent_id: agent,
    query: "What vehicle did I purchase recently?",
    strategy: "LEXICAL",
    top_k: 3,
  });
  expect(res.status, show(res)).toBe(200);
  expect(idsOf(res), show(res)).toEqual([ids[1]!]);
  expect(res.body.note ?? "").not.toContain("related word");
}

/** More memories than the any-word tier's old recency window (5,000): the oldest is still found. */
export async function oldMemoryBeyondTheNewestIsFound(app: TestApp, tenant: Tenant): Promise<void> {
  const agent = "lexical-whole-agent";
  const [old] = await seed(app, tenant, agent, [
    { content: "The quokka smiled at the ranger", created_at: "2019-05-01T00:00:00Z" },
  ]);
  for (let batch = 0; batch < 11; batch++) {
    await store(
      app,
      tenant,
      agent,
      Array.from({ length: 500 }, (_, i) => `Weather log ${batch * 500 + i}: mild and dry`),
    );
  }
  const res = await recall(app, tenant.key, {
    agent_id: agent,
    query: "quokka sunscreen",
    strategy: "LEXICAL",
    top_k: 5,
  });
  expect(res.status, show(res)).toBe(200);
  expect(idsOf(res), show(res)).toEqual([old!]);
}

/**
 * Same term count, different lengths: the short memory ranks first (BM25's b), whichever is newer.
 */
export async function shortDocumentOutranksLongOne(app: TestApp, tenant: Tenant): Promise<void> {
  const agent = "lexical-length";
  const {
    ids: [short],
  } = await store(app, tenant, agent, ["A heron waited by the pond."]);
  const {
    ids: [long],
  } = await store(app, tenant, agent, [
    "On the long walk around the reservoir we counted ducks, geese, coots, swans and one heron, then " +
      "stopped for coffee, talked about the garden, the allotment fees, the new bus timetable and the " +
      "weekend market before heading back through the woods at dusk.",
  ]);
  for (const query of ["heron", "heron sighting"]) {
    const res = await recall(app, tenant.key, {
      agent_id: agent,
      query,
      strategy: "LEXICAL",
      top_k: 2,
    });
    expect(res.status, show(res)).toBe(200);
    expect(idsOf(res), `${query}: ${show(res)}`).toEqual([short!, long!]);
  }
}

/**
 * A camelCase query finds the snake_case function (whole identifier), above prose holding its
 * parts.
 */
export async function camelCaseIdentifierFindsTheFunction(
  app: TestApp,
  tenant: Tenant,
): Promise<void> {
  const agent = "lexical-identifiers";
  const {
    ids: [fn, , camel],
  } = await store(app, tenant, agent, [
    "def get_user_name(user):\n    return user.profile.display_name",
    "Please get the user a name badge and a get-well card for the user named Sam.",
    "function parseConfigFile(path) { return JSON.parse(readFileSync(path)); }",
  ]);
  const res = await recall(app, tenant.key, {
    agent_id: agent,
    query: "getUserName",
    strategy: "LEXICAL",
    top_k: 3,
  });
  expect(res.status, show(res)).toBe(200);
  expect(idsOf(res)[0], show(res)).toBe(fn!);
  const snake = await recall(app, tenant.key, {
    agent_id: agent,
    query: "parse_config_file",
    strategy: "LEXICAL",
    top_k: 3,
  });
  expect(idsOf(snake)[0], show(snake)).toBe(camel!);
}

/**
 * A word meets code's short form of it ("dictionaries" → dict, code-abbreviations.ts), at a lower
 * weight than the word itself: without it the shorter function, which matches only "combine",
 * ranks first.
 */
export async function wordFindsItsShortFormInCode(app: TestApp, tenant: Tenant): Promise<void> {
  const agent = "lexical-abbreviations";
  const {
    ids: [dicts, sum, spelled],
  } = await store(app, tenant, agent, [
    "def combine(a, b):\n    return dict(a, **b)",
    "def combine(a, b):\n    return a + b",
    "def combine_dictionaries(a, b):\n    return {**a, **b}",
  ]);
  const res = await recall(app, tenant.key, {
    agent_id: agent,
    query: "combine two dictionaries into a single one",
    strategy: "LEXICAL",
    top_k: 3,
  });
  expect(res.status, show(res)).toBe(200);
  // The word as written still outranks its short form.
  expect(idsOf(res), show(res)).toEqual([spelled!, dicts!, sum!]);
}

/**
 * Two neighbouring words of the query meet code's one identifier for them ("file name" →
 * filename), at a lower weight: without it the shorter function, which matches only "label" and
 * "path", ranks first.
 */
export async function wordPairFindsTheJoinedIdentifier(
  app: TestApp,
  tenant: Tenant,
): Promise<void> {
  const agent = "lexical-joined-words";
  const {
    ids: [joined, short],
  } = await store(app, tenant, agent, [
    "def label(path, filename):\n    return path + filename",
    "def label(path):\n    return path",
    "def area(r):\n    return 3.14 * r * r",
  ]);
  const res = await recall(app, tenant.key, {
    agent_id: agent,
    query: "label a path with its file name",
    strategy: "LEXICAL",
    top_k: 3,
  });
  expect(res.status, show(res)).toBe(200);
  expect(idsOf(res), show(res)).toEqual([joined!, short!]);
}
