// The local extractor on chosen sentences: exact triples, types, event times, coreference, masking.
import { describe, expect, test } from "bun:test";
import {
  createLocalExtractor,
  LOCAL_EXTRACTOR_NAME,
} from "../../../src/domain/forge/extract/local";
import type { ExtractInput } from "../../../src/domain/forge/extract/types";
import { entitiesOf, triplesOf } from "./triples";

const extractor = createLocalExtractor();
const REFERENCE = new Date("2026-11-23T10:00:00Z");

async function extract(content: string) {
  const input: ExtractInput = {
    memoryId: "mem_1",
    version: 3,
    agentId: "agent",
    content,
    metadata: {},
    referenceTime: REFERENCE,
  };
  const { results, warnings, tokens } = await extractor.extract([input], { orgId: "org_test" });
  expect(warnings).toEqual([]);
  expect(tokens).toBe(0);
  expect(results).toHaveLength(1);
  return results[0]!;
}

describe("local extractor", () => {
  test("names itself and echoes the memory version", async () => {
    const result = await extract("Alice lives in Berlin.");
    expect(extractor.name).toBe(LOCAL_EXTRACTOR_NAME);
    expect([result.memoryId, result.version, result.extractor]).toEqual([
      "mem_1",
      3,
      LOCAL_EXTRACTOR_NAME,
    ]);
  });

  test("verb + preposition with a date: the move gives LIVES_IN from March 2023", async () => {
    const result = await extract("Alice moved to Berlin in March 2023.");
    expect(triplesOf(result, { dates: true })).toEqual(["Alice -LIVES_IN-> Berlin @2023-03-01"]);
    expect(entitiesOf(result)).toEqual(["Alice:PERSON", "Berlin:PLACE"]);
    expect(result.relations[0]!.fact).toBe("Alice moved to Berlin (in March 2023)");
    expect(result.relations[0]!.span).toEqual([0, 21]);
  });

  test("one triple per prepositional phrase, first person is the user, relative dates", async () => {
    const result = await extract("Last week I switched from MySQL to PostgreSQL.");
    expect(triplesOf(result, { dates: true })).toEqual([
      "user -!USES-> MySQL ~2026-11-16",
      "user -USES-> PostgreSQL @2026-11-16",
    ]);
    expect(result.entities.find((e) => e.name === "user")).toMatchObject({
      type: "PERSON",
      description: expect.stringContaining('"I"'),
    });
  });

  test("possessive: Bob is Alice's manager → Alice REPORTS_TO Bob (either word order)", async () => {
    expect(triplesOf(await extract("Bob is Alice's manager."))).toEqual([
      "Alice -REPORTS_TO-> Bob",
    ]);
    expect(triplesOf(await extract("Alice's manager is Bob."))).toEqual([
      "Alice -REPORTS_TO-> Bob",
    ]);
  });

  test("pronouns resolve to the latest compatible subject of the same memory; honorifics become aliases", async () => {
    const result = await extract(
      "Dr. Jane O'Neil manages the payments team. She reports to Carlos.",
    );
    expect(triplesOf(result)).toEqual([
      "Jane O'Neil -MANAGES-> payments team",
      "Jane O'Neil -REPORTS_TO-> Carlos",
    ]);
    expect(result.entities.find((e) => e.name === "Jane O'Neil")).toMatchObject({
      type: "PERSON",
      aliases: ["Dr. Jane O'Neil"],
    });
    expect(triplesOf(await extract("She reports to Carlos."))).toEqual([]);
  });

  test("paths and identifiers are masked and come back typed", async () => {
    const result = await extract("The retry logic in src/queue/retry.ts calls backoffDelay.");
    expect(triplesOf(result)).toEqual([
      "retry logic -CALLS-> backoffDelay",
      "retry logic -LOCATED_IN-> src/queue/retry.ts",
    ]);
    expect(entitiesOf(result)).toEqual([
      "backoffDelay:SYMBOL",
      "retry logic:CONCEPT",
      "src/queue/retry.ts:FILE",
    ]);
    expect(triplesOf(await extract("The deploy script lives in ops/deploy.sh"))).toEqual([
      "deploy script -LOCATED_IN-> ops/deploy.sh",
    ]);
  });

  test("negation ends a fact; hedges lower confidence; conjunctions split", async () => {
    const ended = await extract("Carol no longer works at Initech.");
    expect(triplesOf(ended, { dates: true })).toEqual(["Carol -!WORKS_AT-> Initech ~2026-11-23"]);
    const hedged = await extract("Dave might use Redis for caching.");
    const plain = await extract("Dave uses Redis for caching.");
    expect(triplesOf(hedged)).toEqual(["Dave -USES-> Redis"]);
    expect(hedged.relations[0]!.confidence).toBeCloseTo(plain.relations[0]!.confidence / 2, 5);
    expect(triplesOf(await extract("Alice and Bob use Vim."))).toEqual([
      "Alice -USES-> Vim",
      "Bob -USES-> Vim",
    ]);
  });

  test("a bare year that ends the sentence is the event time; a floating quantifier keeps the verb", async () => {
    expect(triplesOf(await extract("Ivo was born in Split in 1990."), { dates: true })).toEqual([
      "Ivo -BORN_IN-> Split @1990-01-01",
    ]);
    expect(triplesOf(await extract("Leo worked at IBM until 2018."), { dates: true })).toEqual([
      "Leo -WORKS_AT-> IBM ~2018-01-01",
    ]);
    expect(triplesOf(await extract("Rosa and Sam both work at Initech."))).toEqual([
      "Rosa -WORKS_AT-> Initech",
      "Sam -WORKS_AT-> Initech",
    ]);
  });

  test("relational nouns after a copula; an adjunct phrase is not a second fact", async () => {
    expect(triplesOf(await extract("Victor is a friend of Wendy."))).toEqual([
      "Victor -KNOWS-> Wendy",
    ]);
    expect(triplesOf(await extract("Sara is a fan of Neovim."))).toEqual([
      "Sara -PREFERS-> Neovim",
    ]);
    expect(triplesOf(await extract("Grafana depends on Prometheus for metrics."))).toEqual([
      "Grafana -DEPENDS_ON-> Prometheus",
    ]);
    expect(triplesOf(await extract("Hugo moved from Lyon to Marseille."))).toEqual([
      "Hugo -!LIVES_IN-> Lyon",
      "Hugo -LIVES_IN-> Marseille",
    ]);
  });

  test("apposition and passive", async () => {
    expect(triplesOf(await extract("Bob, the CTO, approved the budget."))).toContain(
      "Bob -HAS_ROLE-> CTO",
    );
    expect(triplesOf(await extract("The parser was written by Maria."))).toEqual([
      "parser -CREATED_BY-> Maria",
    ]);
  });

  test("a sentence with no fact gives no relation, and empty content gives nothing", async () => {
    expect(triplesOf(await extract("Thanks, that sounds great!"))).toEqual([]);
    expect(await extract("")).toMatchObject({ entities: [], relations: [] });
  });
});
