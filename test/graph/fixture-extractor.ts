// TEST DOUBLE of the Extractor port (src/domain/forge/extract/types.ts): a fixed table of sentences
// and the entities and relations they contain. Deterministic, so distill's own logic (resolution,
// reinforcement, supersession, provenance, forget) is tested apart from any real extractor.
import type {
  ExtractedEntity,
  ExtractedRelation,
  Extractor,
  ExtractInput,
  MemoryExtraction,
} from "../../src/domain/forge/extract/types";
import type { MemoType } from "../../src/domain/graph/memo-types";

type Fact = [
  subject: string,
  relation: string,
  object: string,
  options?: { validAt?: string; invalidAt?: string; negated?: boolean; confidence?: number },
];
type Sentence = {
  entities: Array<[name: string, type: MemoType, aliases?: string[]]>;
  facts: Fact[];
};

export const FIXTURE_SENTENCES: Record<string, Sentence> = {
  "Alice works at Acme.": {
    entities: [
      ["Alice", "PERSON"],
      ["Acme", "ORG"],
    ],
    facts: [["Alice", "WORKS_AT", "Acme"]],
  },
  "Alice is employed by Acme.": {
    entities: [
      ["Alice", "PERSON"],
      ["Acme", "ORG"],
    ],
    facts: [["Alice", "WORKS_AT", "Acme"]],
  },
  "Acme has its headquarters in Berlin.": {
    entities: [
      ["Acme", "ORG"],
      ["Berlin", "PLACE"],
    ],
    facts: [["Acme", "LOCATED_IN", "Berlin"]],
  },
  "Bob uses Postgres.": {
    entities: [
      ["Bob", "PERSON"],
      ["Postgres", "TOOL", ["PostgreSQL"]],
    ],
    facts: [["Bob", "USES", "Postgres"]],
  },
  "Carol uses PostgreSQL.": {
    entities: [
      ["Carol", "PERSON"],
      ["PostgreSQL", "TOOL"],
    ],
    facts: [["Carol", "USES", "PostgreSQL"]],
  },
  "In 2019 Alice moved to Paris.": {
    entities: [
      ["Alice", "PERSON"],
      ["Paris", "PLACE"],
    ],
    facts: [["Alice", "LIVES_IN", "Paris", { validAt: "2019-06-01T00:00:00Z" }]],
  },
  "In 2023 Alice moved to Berlin.": {
    entities: [
      ["Alice", "PERSON"],
      ["Berlin", "PLACE"],
    ],
    facts: [["Alice", "LIVES_IN", "Berlin", { validAt: "2023-03-01T00:00:00Z" }]],
  },
  "Alice lives in Munich.": {
    entities: [
      ["Alice", "PERSON"],
      ["Munich", "PLACE"],
    ],
    facts: [["Alice", "LIVES_IN", "Munich"]],
  },
  "Alice no longer works at Acme.": {
    entities: [
      ["Alice", "PERSON"],
      ["Acme", "ORG"],
    ],
    facts: [["Alice", "WORKS_AT", "Acme", { negated: true }]],
  },
  "Bob knows Alice.": {
    entities: [
      ["Bob", "PERSON"],
      ["Alice", "PERSON"],
    ],
    facts: [["Bob", "KNOWS", "Alice"]],
  },
  "Dave mentors Erin.": {
    entities: [
      ["Dave", "PERSON"],
      ["Erin", "PERSON"],
    ],
    facts: [["Dave", "mentors", "Erin"]],
  },
  "Alice can be reached at alice@example.com.": {
    entities: [
      ["Alice", "PERSON"],
      ["alice@example.com", "EMAIL"],
    ],
    facts: [["Alice", "HAS_EMAIL", "alice@example.com"]],
  },
  "The parser lives in src/parse.ts.": {
    entities: [
      ["parser", "SYMBOL"],
      ["src/parse.ts", "FILE"],
    ],
    facts: [["parser", "DEFINED_IN", "src/parse.ts"]],
  },
};

export function extractFixture(input: ExtractInput, name: string): MemoryExtraction {
  const entities = new Map<string, ExtractedEntity>();
  const relations: ExtractedRelation[] = [];
  const found = Object.entries(FIXTURE_SENTENCES)
    .map(([text, sentence]) => ({ text, sentence, start: input.content.indexOf(text) }))
    .filter((f) => f.start >= 0)
    .sort((x, y) => x.start - y.start);
  for (const { text, sentence, start } of found) {
    for (const [entityName, type, aliases] of sentence.entities) {
      const at = input.content.indexOf(entityName, start);
      if (!entities.has(entityName))
        entities.set(entityName, {
          ref: entityName,
          name: entityName,
          type,
          aliases,
          span: at >= 0 ? [at, at + entityName.length] : undefined,
        });
    }
    for (const [subject, relation, object, o = {}] of sentence.facts) {
      relations.push({
        subject,
        relation,
        object,
        fact: text,
        confidence: o.confidence ?? 0.8,
        negated: o.negated,
        validAt: o.validAt ? new Date(o.validAt) : null,
        invalidAt: o.invalidAt ? new Date(o.invalidAt) : null,
        span: [start, start + text.length],
      });
    }
  }
  return {
    memoryId: input.memoryId,
    version: input.version,
    extractor: name,
    entities: [...entities.values()],
    relations,
  };
}

export function fixtureExtractor(
  name = "fixture-v1",
  hooks: { beforeBatch?: (batch: ExtractInput[]) => Promise<void> } = {},
): Extractor & { calls: number } {
  const extractor = {
    name,
    calls: 0,
    async extract(batch: ExtractInput[]) {
      extractor.calls++;
      await hooks.beforeBatch?.(batch);
      return {
        results: batch.map((input) => extractFixture(input, name)),
        warnings: [],
        tokens: 0,
      };
    },
  };
  return extractor;
}
