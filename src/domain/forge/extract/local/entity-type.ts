// Entity names and types from a noun phrase's words: the slot kind for masked text, then the word
// lists (software, organisations, places, first names, roles, events), then shape. Unknown proper
// names return undefined: the relation they take part in types them (the object of LIVES_IN is a
// PLACE).
import type { MemoType } from "../../../graph/memo-types";
import type { SlotKind } from "./mask";
import {
  EVENT_HEADS,
  FIRST_NAMES,
  GENERIC_HEADS,
  HONORIFICS,
  KNOWN_ORGS,
  KNOWN_TOOLS,
  ORG_SUFFIXES,
  PLACE_SUFFIXES,
  PLACES,
  ROLE_NOUNS,
  TEAM_HEADS,
  TOOL_HEADS,
} from "./lexicon";
import type { NounPhrase } from "./units";

const SLOT_TYPES: Record<SlotKind, MemoType> = {
  URL: "URL",
  EMAIL: "EMAIL",
  FILE: "FILE",
  SYMBOL: "SYMBOL",
  VERSION: "VERSION",
  NAME: "TOOL",
  QUOTED: "CONCEPT",
};
/** Tool names that are also plain English words: only capitalised do they name the tool. */
const AMBIGUOUS_TOOLS = new Set([
  "word",
  "teams",
  "zoom",
  "excel",
  "cursor",
  "linear",
  "make",
  "node",
  "arch",
  "render",
  "spark",
  "r",
  "fish",
  "chrome",
  "safari",
  "slack",
  "notion",
  "claude",
  "go",
  "lambda",
  "vault",
  "consul",
  "express",
  "spring",
  "rails",
  "elastic",
  "flask",
  "sublime",
  "outlook",
  "helm",
  "argo",
]);

export type Named = {
  name: string;
  type: MemoType | undefined;
  aliases: string[];
  proper: boolean;
};

const capitalised = (text: string) => /^[\p{Lu}\d]/u.test(text);

export function nameOf(np: NounPhrase, content: string): { name: string; honorific?: string } {
  if (np.tokens.length === 1 && np.head.slot) return { name: np.head.slot.text };
  const first = np.tokens[0]!;
  if (np.tokens.length > 1 && HONORIFICS.has(first.lower)) {
    return {
      name: content.slice(np.tokens[1]!.start, np.end).trim(),
      honorific: content.slice(first.start, np.end).trim(),
    };
  }
  return { name: content.slice(np.start, np.end).replace(/\s+/g, " ").trim() };
}

function knownTool(lower: string, surface: string): boolean {
  if (!KNOWN_TOOLS.has(lower)) return false;
  return !AMBIGUOUS_TOOLS.has(lower) || capitalised(surface);
}

export function typeOf(np: NounPhrase, content: string): Named {
  const { name, honorific } = nameOf(np, content);
  const aliases = honorific ? [honorific] : [];
  const lower = name.toLowerCase();
  const words = lower.split(/\s+/);
  const head = np.head.lower;
  const proper = np.tokens.some(
    (t) => (t.pos === "PROPN" && capitalised(t.text)) || Boolean(t.slot),
  );
  const typed = (type: MemoType | undefined): Named => ({ name, type, aliases, proper });
  if (np.tokens.length === 1 && np.head.slot) return typed(SLOT_TYPES[np.head.slot.kind]);
  if (np.head.slot && np.head.slot.kind !== "VERSION") return typed(SLOT_TYPES[np.head.slot.kind]);
  if (honorific) return typed("PERSON");
  if (
    knownTool(lower, name) ||
    (words.length <= 3 &&
      knownTool(words[0]!, name) &&
      np.tokens.slice(1).every((t) => t.pos === "NUM" || t.slot?.kind === "VERSION"))
  )
    return typed("TOOL");
  if (KNOWN_ORGS.has(lower) || (proper && words.length > 1 && ORG_SUFFIXES.has(words.at(-1)!)))
    return typed("ORG");
  if (PLACES.has(lower) || (proper && words.length > 1 && PLACE_SUFFIXES.has(words.at(-1)!)))
    return typed("PLACE");
  if (
    proper &&
    FIRST_NAMES.has(words[0]!) &&
    words.length <= 3 &&
    !TEAM_HEADS.has(head) &&
    !TOOL_HEADS.has(head)
  )
    return typed("PERSON");
  if (ROLE_NOUNS.has(head) || ROLE_NOUNS.has(lower)) return typed("ROLE");
  if (TEAM_HEADS.has(head)) return typed("ORG");
  if (EVENT_HEADS.has(head)) return typed("EVENT");
  if (TOOL_HEADS.has(head)) return typed("TOOL");
  if (proper) return typed(undefined);
  return typed("CONCEPT");
}

/** A phrase not worth a node: a generic head ("thing", "way") on its own, or a bare number. */
export function isGeneric(np: NounPhrase): boolean {
  if (np.tokens.every((t) => t.pos === "NUM")) return true;
  return np.tokens.length === 1 && GENERIC_HEADS.has(np.head.lower);
}
