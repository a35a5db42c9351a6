// Reading a question offline: what kind of answer it wants (who → a person or organisation, where →
// a place, how many → a count, does/is → yes or no) and which relations its words point at, with
// the role the named entity plays in them. "Who is Bob's manager" names Bob as the subject of
// REPORTS_TO (or the object of MANAGES); "who reports to Bob" names him as the object of
// REPORTS_TO.
import { DEFAULT_RELATION_TYPES } from "../../graph/relations";

export type AnswerKind = "who" | "where" | "when" | "count" | "yesno" | "what";

/** The entity's role in a fact that answers the question: its subject, its object, or either. */
export type EntityRole = "subject" | "object" | "either";

export type RelationCue = { relation: string; role: EntityRole; cue: string };

export type Question = { kind: AnswerKind; cues: RelationCue[] };

/** Memo types each kind of answer expects (a type-fitting answer scores higher). */
export const EXPECTED_TYPES: Record<AnswerKind, readonly string[]> = {
  who: ["PERSON", "ORG"],
  where: ["PLACE", "ORG", "FILE"],
  when: [],
  count: [],
  yesno: [],
  what: [],
};

/** Nouns about an entity ("Bob's manager", "the manager of Bob"): the entity's role is fixed. */
const NOUN_CUES: Array<[RegExp, string, EntityRole]> = [
  [/\b(?:manager|boss|supervisor|superior)\b/, "REPORTS_TO", "subject"],
  [/\b(?:reports|direct reports|team members|subordinates)\b/, "MANAGES", "subject"],
  [/\b(?:employer|company|workplace)\b/, "WORKS_AT", "subject"],
  [/\b(?:role|title|job|position)\b/, "HAS_ROLE", "subject"],
  [/\b(?:home|hometown|city|country|address)\b/, "LIVES_IN", "subject"],
  [/\b(?:birthplace)\b/, "BORN_IN", "subject"],
  [/\b(?:spouse|wife|husband|partner)\b/, "MARRIED_TO", "either"],
  [/\b(?:friends?|acquaintances?|contacts?)\b/, "KNOWS", "either"],
  [/\b(?:tools?|stack|libraries|library|database|language)\b/, "USES", "subject"],
  [/\b(?:dependencies|dependency)\b/, "DEPENDS_ON", "subject"],
  [/\b(?:author|creator|maker)\b/, "CREATED_BY", "subject"],
  [/\b(?:owner)\b/, "OWNS", "object"],
  [/\b(?:school|university|college|alma mater)\b/, "STUDIED_AT", "subject"],
  [/\b(?:projects?)\b/, "WORKS_ON", "subject"],
  [/\b(?:preferences?|favou?rites?)\b/, "PREFERS", "subject"],
];

/**
 * Verbs: the entity is the subject when it comes before the verb ("does Alice report to"), the
 * object when after ("who reports to Bob"); a passive form ("managed by") swaps the two.
 */
const VERB_CUES: Array<[RegExp, string, boolean]> = [
  [/\breports? to\b|\breporting to\b|\breported to\b/, "REPORTS_TO", false],
  [/\bmanaged by\b|\bsupervised by\b|\bled by\b/, "MANAGES", true],
  [/\bmanages?\b|\bmanaging\b|\bsupervises?\b|\bleads?\b/, "MANAGES", false],
  [/\b(?:lives?|living|lived|resides?|based|moved? to|relocated? to)\b/, "LIVES_IN", false],
  [/\b(?:works?|working|worked|employed)\b(?! on)/, "WORKS_AT", false],
  [/\bworks? on\b|\bworking on\b/, "WORKS_ON", false],
  [/\b(?:uses?|using|used)\b/, "USES", false],
  [/\b(?:prefers?|likes?|loves?)\b/, "PREFERS", false],
  [/\b(?:dislikes?|hates?)\b/, "DISLIKES", false],
  [/\bborn\b/, "BORN_IN", false],
  [/\b(?:comes? from|from)\b/, "COMES_FROM", false],
  [/\b(?:studied|studies|study|graduated)\b/, "STUDIED_AT", false],
  [/\bmarried\b/, "MARRIED_TO", false],
  [/\bknows?\b/, "KNOWS", false],
  [/\bdepends? on\b/, "DEPENDS_ON", false],
  [/\b(?:created|wrote|written|built|authored) by\b/, "CREATED_BY", false],
  [/\b(?:created|wrote|built|authored)\b/, "CREATED_BY", true],
  [/\b(?:owns?|owned)\b/, "OWNS", false],
  [/\b(?:located|situated)\b/, "LOCATED_IN", false],
  [/\bpart of\b|\bmember of\b|\bbelongs? to\b/, "PART_OF", false],
  [/\bruns? on\b/, "RUNS_ON", false],
  [/\bcalls?\b/, "CALLS", false],
  [/\battended\b|\battends?\b/, "ATTENDED", false],
  [/\bdefined in\b/, "DEFINED_IN", false],
];

export function answerKind(question: string): AnswerKind {
  const q = question.trim().toLowerCase();
  if (/^how (?:many|much)\b/.test(q)) return "count";
  if (/^(?:who|whom|whose)\b|\bwho\b/.test(q)) return "who";
  if (/^where\b|\bwhere\b/.test(q)) return "where";
  if (/^(?:when|since when)\b/.test(q)) return "when";
  if (/^(?:does|do|did|is|are|was|were|has|have|can)\b/.test(q)) return "yesno";
  return "what";
}

const swap = (role: EntityRole): EntityRole =>
  role === "subject" ? "object" : role === "object" ? "subject" : "either";

/** A cue and its inverse relation (MANAGES with the roles swapped is REPORTS_TO), once each. */
function withInverse(cues: RelationCue[]): RelationCue[] {
  const all = new Map<string, RelationCue>();
  for (const c of cues) {
    all.set(`${c.relation}/${c.role}`, c);
    const inverse = DEFAULT_RELATION_TYPES[c.relation]?.inverse;
    if (inverse && !all.has(`${inverse}/${swap(c.role)}`))
      all.set(`${inverse}/${swap(c.role)}`, { relation: inverse, role: swap(c.role), cue: c.cue });
  }
  return [...all.values()];
}

/**
 * Reads a question. `entityAt` is where the named entity starts in the lower-cased question (-1
 * when no entity is named), so a verb's direction can be told.
 */
export function readQuestion(question: string, entityAt: number): Question {
  const q = question.toLowerCase();
  const cues: RelationCue[] = [];
  const taken: Array<[number, number]> = [];
  const overlaps = (start: number, end: number) => taken.some(([s, e]) => start < e && s < end);
  for (const [re, relation, passive] of VERB_CUES) {
    const m = re.exec(q);
    if (!m || overlaps(m.index, m.index + m[0].length)) continue;
    taken.push([m.index, m.index + m[0].length]);
    const before: EntityRole = entityAt < 0 ? "either" : entityAt < m.index ? "subject" : "object";
    cues.push({ relation, role: passive ? swap(before) : before, cue: m[0] });
  }
  for (const [re, relation, role] of NOUN_CUES) {
    const m = re.exec(q);
    if (!m || overlaps(m.index, m.index + m[0].length)) continue;
    taken.push([m.index, m.index + m[0].length]);
    cues.push({ relation, role, cue: m[0] });
  }
  return { kind: answerKind(question), cues: withInverse(cues) };
}

const RELATION_PARTICLES = new Set(["in", "at", "to", "of", "on", "by", "from", "a", "is", "has"]);

/**
 * Whether the question uses the words of a relation's own name ("adopted" for ADOPTED, "reports"
 * for REPORTS_TO): how relations outside the cue tables (tenant-defined, extractor lemmas) are
 * still found. Words match on a shared prefix of at least four letters ("report" ~ "reports").
 */
export function mentionsRelationName(question: string, relation: string): boolean {
  const words = question.toLowerCase().match(/\p{L}+/gu) ?? [];
  const parts = relation
    .toLowerCase()
    .split("_")
    .filter((w) => w.length >= 3 && !RELATION_PARTICLES.has(w));
  const stem = (w: string) => w.slice(0, Math.max(4, Math.min(w.length, 6)));
  return (
    parts.length > 0 &&
    parts.every((p) =>
      words.some((w) =>
        w.length >= 4 && p.length >= 4
          ? stem(w) === stem(p) || w.startsWith(stem(p)) || p.startsWith(stem(w))
          : w === p,
      ),
    )
  );
}
