// MEMORY_TIER_AUTO_ROUTE: the deterministic rules that pick a memory_type when the caller gives
// none. The rules are documented word for word in docs/memories.md ("Automatic memory_type"); keep
// both in step.
import type { MemoryType } from "./types";

const SHORT_LIVED_SECONDS = 86_400;

const WORKING =
  /\b(todo|to-do|remind me|reminder|for now|right now|currently|in progress|wip|this session|temporar(y|ily)|next step)\b/i;
const PROCEDURAL =
  /\b(how to|how do (i|you|we)|step \d+|steps|instructions?|procedure|recipe|workflow|run the command|make sure to)\b/i;
const NUMBERED_LINE = /^\s*\d+[.)]\s+\S/gm;
const DATED = new RegExp(
  [
    String.raw`\b\d{4}-\d{2}-\d{2}\b`,
    String.raw`\b(yesterday|today|tonight|this morning|this afternoon|last (night|week|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b`,
    String.raw`\b\d+ (minutes?|hours?|days?|weeks?|months?|years?) ago\b`,
    String.raw`\b(on|in) (jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(tember)?|oct(ober)?|nov(ember)?|dec(ember)?)\b`,
  ].join("|"),
  "i",
);
const FIRST_PERSON_PAST =
  /\b(i|we)\s+(\w+ed|was|were|had|did|went|met|saw|made|got|took|said|told|wrote|found|fixed|learned|decided|spent|bought|ran|shipped)\b/i;

/**
 * First matching rule wins: working (TODO-like wording, or a TTL of at most 24 h), then procedural
 * (how-to wording, or two or more numbered lines), then episodic (a date or time expression, or a
 * first-person past-tense verb), else semantic.
 */
export function autoMemoryType(content: string, ttlSeconds: number | null): MemoryType {
  if (WORKING.test(content) || (ttlSeconds !== null && ttlSeconds <= SHORT_LIVED_SECONDS))
    return "working";
  if (PROCEDURAL.test(content) || (content.match(NUMBERED_LINE)?.length ?? 0) >= 2)
    return "procedural";
  if (DATED.test(content) || FIRST_PERSON_PAST.test(content)) return "episodic";
  return "semantic";
}
