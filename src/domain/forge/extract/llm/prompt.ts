// The extraction prompt: instructions and one worked example (not a schema: small models echo
// schemas back instead of answering, Graphiti #868), then the chunk's memories, each under its own
// id.
import { MEMO_TYPE_NAMES } from "../../../graph/memo-types";
import { DEFAULT_RELATION_TYPES } from "../../../graph/relations";
import type { ExtractInput } from "../types";

const EXTRACTED_TYPES = MEMO_TYPE_NAMES.filter((t) => t !== "SUMMARY");
const RELATIONS = Object.keys(DEFAULT_RELATION_TYPES).filter(
  (r) => r !== "SUMMARIZES" && r !== "RELATED_TO" && r !== "HAS_PART",
);

export const SYSTEM_PROMPT = [
  "You extract a knowledge graph from an agent's memories. Answer with one JSON object and nothing else.",
  `Entity types: ${EXTRACTED_TYPES.join(", ")}.`,
  `Prefer these relations: ${RELATIONS.join(", ")}; otherwise use a short UPPER_SNAKE verb phrase.`,
  'The speaker (I, me, my, we) is the entity named "user" of type PERSON.',
  "Write relations in the direction of the relation's name (Alice REPORTS_TO Bob when Bob is Alice's manager).",
  "valid_at / invalid_at: ISO dates (YYYY-MM-DD) when the text says when a fact started or stopped, resolved against the memory's date; otherwise null.",
  'A fact the text says has ended or is not true gets "negated": true.',
  "Only facts stated in the memory; no guesses. A memory with no facts gets empty lists. List every memory id you were given.",
].join("\n");

const EXAMPLE_INPUT = `[m1] (dated 2026-05-04) Alice moved to Berlin in March 2023. She no longer works at Initech; my team uses Redis.`;
const EXAMPLE_OUTPUT = JSON.stringify({
  memories: [
    {
      id: "m1",
      entities: [
        { name: "Alice", type: "PERSON" },
        { name: "Berlin", type: "PLACE" },
        { name: "Initech", type: "ORG" },
        { name: "user", type: "PERSON" },
        { name: "Redis", type: "TOOL" },
      ],
      relations: [
        {
          subject: "Alice",
          relation: "LIVES_IN",
          object: "Berlin",
          fact: "Alice moved to Berlin in March 2023",
          valid_at: "2023-03-01",
          invalid_at: null,
          negated: false,
          confidence: 0.95,
        },
        {
          subject: "Alice",
          relation: "WORKS_AT",
          object: "Initech",
          fact: "Alice no longer works at Initech",
          valid_at: null,
          invalid_at: "2026-05-04",
          negated: true,
          confidence: 0.9,
        },
        {
          subject: "user",
          relation: "USES",
          object: "Redis",
          fact: "The user's team uses Redis",
          valid_at: null,
          invalid_at: null,
          negated: false,
          confidence: 0.8,
        },
      ],
    },
  ],
});

/** The memory's text as sent: cut to `maxChars` (the caller warns when it cuts). */
export function memoryLine(id: string, input: ExtractInput, maxChars: number): string {
  const text = input.content.length > maxChars ? input.content.slice(0, maxChars) : input.content;
  return `[${id}] (dated ${input.referenceTime.toISOString().slice(0, 10)}) ${text.replace(/\s+/g, " ").trim()}`;
}

export function extractionPrompt(lines: string[], correction?: string): string {
  const parts = [
    "Example input:",
    EXAMPLE_INPUT,
    "Example answer:",
    EXAMPLE_OUTPUT,
    "",
    "Now extract from these memories:",
    ...lines,
  ];
  if (correction)
    parts.push(
      "",
      `Your previous answer could not be used (${correction}). Answer again with only the JSON object, shaped like the example answer.`,
    );
  return parts.join("\n");
}
