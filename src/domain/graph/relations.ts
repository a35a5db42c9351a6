// The built-in relation ontology: canonical UPPER_SNAKE names with their cardinality flags. A
// relation marked functional is single-valued per subject, so a new object supersedes the old one
// (the only way a fact is ever retired by distill). Tenants override flags through the
// relation_types table. Extractors map their predicates onto these names (relation-lookup.ts,
// relation-synonyms.ts). `subjects` / `objects` are the argument types a relation expects:
// extractors lower their confidence when the types disagree.
import type { MemoType } from "./memo-types";

export type RelationFlags = {
  functional: boolean;
  transitive: boolean;
  inverse?: string;
  description: string;
  subjects?: readonly MemoType[];
  objects?: readonly MemoType[];
};

const PEOPLE: readonly MemoType[] = ["PERSON"];
const AGENTS: readonly MemoType[] = ["PERSON", "ORG"];
const SOFTWARE: readonly MemoType[] = ["TOOL", "SYMBOL", "FILE", "CONCEPT"];

export const DEFAULT_RELATION_TYPES: Readonly<Record<string, RelationFlags>> = {
  LIVES_IN: {
    functional: true,
    transitive: false,
    description: "a person's home city or country",
    subjects: PEOPLE,
    objects: ["PLACE"],
  },
  WORKS_AT: {
    functional: true,
    transitive: false,
    description: "a person's employer",
    subjects: PEOPLE,
    objects: ["ORG"],
  },
  HAS_ROLE: {
    functional: true,
    transitive: false,
    description: "a person's job title",
    subjects: PEOPLE,
    objects: ["ROLE"],
  },
  REPORTS_TO: {
    functional: true,
    transitive: false,
    inverse: "MANAGES",
    description: "a person's manager",
    subjects: PEOPLE,
    objects: PEOPLE,
  },
  MANAGES: {
    functional: false,
    transitive: false,
    inverse: "REPORTS_TO",
    description: "a person or team someone manages",
    subjects: PEOPLE,
    objects: AGENTS,
  },
  LOCATED_IN: {
    functional: true,
    transitive: true,
    description: "where a place, thing or file is",
    objects: ["PLACE", "FILE", "ORG", "TOOL", "CONCEPT"],
  },
  PART_OF: {
    functional: false,
    transitive: true,
    inverse: "HAS_PART",
    description: "membership or containment",
  },
  HAS_PART: {
    functional: false,
    transitive: true,
    inverse: "PART_OF",
    description: "the inverse of PART_OF",
  },
  DEFINED_IN: {
    functional: true,
    transitive: false,
    description: "the file a code symbol is defined in",
    subjects: ["SYMBOL", "CONCEPT"],
    objects: ["FILE"],
  },
  USES: {
    functional: false,
    transitive: false,
    description: "a tool, library or service someone or something uses",
    objects: SOFTWARE,
  },
  PREFERS: {
    functional: false,
    transitive: false,
    description: "a stated preference",
    subjects: PEOPLE,
  },
  DEPENDS_ON: {
    functional: false,
    transitive: true,
    description: "a dependency between components",
    subjects: SOFTWARE,
    objects: SOFTWARE,
  },
  CALLS: {
    functional: false,
    transitive: false,
    description: "a code symbol calling another",
    subjects: ["SYMBOL", "FILE", "TOOL", "CONCEPT"],
    objects: ["SYMBOL", "TOOL", "URL"],
  },
  CREATED_BY: {
    functional: false,
    transitive: false,
    description: "an author or creator",
    objects: AGENTS,
  },
  KNOWS: {
    functional: false,
    transitive: false,
    description: "acquaintance between people",
    subjects: PEOPLE,
    objects: PEOPLE,
  },
  RELATED_TO: {
    functional: false,
    transitive: false,
    description: "a weaker association (co-mention, inferred)",
  },
  SUMMARIZES: {
    functional: false,
    transitive: false,
    description: "a SUMMARY memo to the members of its cluster",
  },
  // Added with the extractors (issue 10).
  IS_A: {
    functional: false,
    transitive: false,
    description: "a kind or category something belongs to (Redis is a database)",
  },
  BORN_IN: {
    functional: true,
    transitive: false,
    description: "a person's place of birth",
    subjects: PEOPLE,
    objects: ["PLACE"],
  },
  COMES_FROM: {
    functional: true,
    transitive: false,
    description: "where a person is from",
    subjects: PEOPLE,
    objects: ["PLACE"],
  },
  STUDIED_AT: {
    functional: false,
    transitive: false,
    description: "a school or university someone attended",
    subjects: PEOPLE,
    objects: ["ORG"],
  },
  WORKS_ON: {
    functional: false,
    transitive: false,
    description: "a project or component someone works on",
    subjects: AGENTS,
  },
  OWNS: {
    functional: false,
    transitive: false,
    description: "ownership or responsibility for a thing",
    subjects: AGENTS,
  },
  RUNS_ON: {
    functional: false,
    transitive: false,
    description: "the platform or host software runs on",
    objects: ["TOOL", "PLACE", "CONCEPT"],
  },
  DISLIKES: {
    functional: false,
    transitive: false,
    description: "a stated dislike",
    subjects: PEOPLE,
  },
  MARRIED_TO: {
    functional: true,
    transitive: false,
    description: "a person's spouse",
    subjects: PEOPLE,
    objects: PEOPLE,
  },
  HAS: {
    functional: false,
    transitive: false,
    description: "possession or an attribute (Alice has a dog)",
  },
  ATTENDED: {
    functional: false,
    transitive: false,
    description: "an event someone took part in",
    subjects: PEOPLE,
    objects: ["EVENT", "CONCEPT"],
  },
};
