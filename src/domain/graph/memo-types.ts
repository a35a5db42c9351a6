// The Memo (graph node) kinds: a closed enumeration, documented in docs/graph.md. Extractors map
// what they find onto these; SUMMARY memos are written only by refine's summarize pass.
export const MEMO_TYPES = {
  PERSON: "a person (a name, or the agent's user when the memory says I / me / my)",
  ORG: "an organisation: company, team, project group, institution",
  PLACE: "a place: city, country, building, region",
  TOOL: "a product, library, service, language or piece of software",
  FILE: "a file or directory path",
  SYMBOL: "a code identifier: function, class, variable, module",
  URL: "a web address",
  EMAIL: "an email address",
  VERSION: "a version number",
  EVENT: "something that happened at a time: a meeting, a release, a move",
  ROLE: "a job title or role (CTO, manager, on-call)",
  CONCEPT: "any other thing worth a node: a topic, a preference, a document",
  SUMMARY: "a summary of a cluster of memos (refine's summarize pass)",
} as const;

export type MemoType = keyof typeof MEMO_TYPES;

export const MEMO_TYPE_NAMES = Object.keys(MEMO_TYPES) as MemoType[];

export const isMemoType = (value: string): value is MemoType => Object.hasOwn(MEMO_TYPES, value);
