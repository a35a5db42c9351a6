// A candidate triple → ExtractedRelation: arguments resolved to entities, the predicate
// canonicalised (which may swap the arguments or mark the fact ended), unknown names typed by the
// relation, event time from the sentence, the fact in words, and confidence = pattern prior × type
// agreement × hedging.
import type { MemoType } from "../../../graph/memo-types";
import { canonicalRelation, type CanonicalRelation } from "../../../graph/relation-lookup";
import { DEFAULT_RELATION_TYPES } from "../../../graph/relations";
import type { ExtractedRelation } from "../types";
import type { TimeSpan } from "./dates";
import { TEAM_HEADS } from "./lexicon";
import type { Mention, MemoryMentions } from "./mentions";
import type { Candidate } from "./patterns";

const UNKNOWN_PREDICATE_FACTOR = 0.75;
const HEDGE_FACTOR = 0.5;
const TYPE_MISMATCH_FACTOR = 0.7;

function canonical(
  candidate: Candidate,
  subject: MemoType | undefined,
  object: MemoType | undefined,
): CanonicalRelation | null {
  if (candidate.relation)
    return { relation: candidate.relation, inverse: false, negated: false, known: true };
  let fallback: CanonicalRelation | null = null;
  for (const predicate of candidate.predicates) {
    const found = canonicalRelation(predicate, { subject, object });
    if (found?.known) return found;
    fallback ??= found;
  }
  return fallback;
}

function agreement(relation: string, subject: MemoType, object: MemoType): number {
  const flags = Object.hasOwn(DEFAULT_RELATION_TYPES, relation)
    ? DEFAULT_RELATION_TYPES[relation]!
    : null;
  let factor = 1;
  if (flags?.subjects && !flags.subjects.includes(subject)) factor *= TYPE_MISMATCH_FACTOR;
  if (flags?.objects && !flags.objects.includes(object)) factor *= TYPE_MISMATCH_FACTOR;
  return factor;
}

function defaultType(
  relation: string,
  position: "subjects" | "objects",
  proper: boolean,
): MemoType {
  const flags = Object.hasOwn(DEFAULT_RELATION_TYPES, relation)
    ? DEFAULT_RELATION_TYPES[relation]!
    : null;
  const expected = flags?.[position]?.[0];
  if (expected && (proper || expected !== "PERSON")) return expected;
  return "CONCEPT";
}

function eventTime(
  candidate: Candidate,
  negated: boolean,
  times: TimeSpan[],
  reference: Date,
): Pick<ExtractedRelation, "validAt" | "invalidAt"> {
  const span = candidate.times.map((t) => times[t]).find(Boolean);
  if (!span)
    return negated ? { validAt: null, invalidAt: reference } : { validAt: null, invalidAt: null };
  if (negated)
    return {
      validAt: null,
      invalidAt: span.role === "since" ? reference : (span.until ?? span.date),
    };
  if (span.role === "until") return { validAt: null, invalidAt: span.date };
  return { validAt: span.date, invalidAt: span.until ?? null };
}

function factText(
  content: string,
  candidate: Candidate,
  s: Mention,
  o: Mention,
  swapped: boolean,
  relation: string,
  negated: boolean,
  times: TimeSpan[],
): string {
  const words = relation.toLowerCase().replaceAll("_", " ");
  let text: string;
  const gap =
    candidate.subject.end <= candidate.object.start
      ? content.slice(candidate.subject.end, candidate.object.start)
      : null;
  if (candidate.natural && !swapped && gap !== null && gap.length <= 80 && !/[.!?;\n]/.test(gap))
    text = `${s.name} ${gap.trim()} ${o.name}`;
  else text = `${s.name} ${negated ? "no longer " : ""}${words} ${o.name}`;
  const span = candidate.times.map((t) => times[t]).find(Boolean);
  if (span && !text.includes(span.text)) text += ` (${span.text})`;
  return text.replace(/\s+/g, " ").slice(0, 400);
}

export type Built = {
  relation: ExtractedRelation;
  subject: { mention: Mention; type: MemoType };
  object: { mention: Mention; type: MemoType };
};

export function buildRelations(
  candidate: Candidate,
  mentions: MemoryMentions,
  content: string,
  times: TimeSpan[],
  reference: Date,
): Built[] {
  const built: Built[] = [];
  const subjects = mentions.resolve(candidate.subject);
  const objects = mentions
    .resolve(candidate.object)
    .map((m) => (candidate.objectType ? { ...m, type: candidate.objectType } : m));
  for (const subjectMention of subjects) {
    for (const objectMention of objects) {
      const found = canonical(candidate, subjectMention.type, objectMention.type);
      if (!found) continue;
      const [s, o] = found.inverse
        ? [objectMention, subjectMention]
        : [subjectMention, objectMention];
      if (s.name.toLowerCase() === o.name.toLowerCase()) continue;
      let relation = found.relation;
      const sType = s.type ?? defaultType(relation, "subjects", s.proper);
      const oType = o.type ?? defaultType(relation, "objects", o.proper);
      const teamObject = oType === "ORG" && TEAM_HEADS.has(o.name.toLowerCase().split(" ").at(-1)!);
      if (relation === "WORKS_AT" && teamObject) relation = "PART_OF";
      const negated = candidate.negated !== found.negated;
      const typeFactor =
        s.type === undefined || o.type === undefined ? 1 : agreement(relation, sType, oType);
      const confidence =
        candidate.prior *
        typeFactor *
        (candidate.hedged ? HEDGE_FACTOR : 1) *
        (found.known ? 1 : UNKNOWN_PREDICATE_FACTOR);
      const start = Math.min(candidate.subject.start, candidate.object.start);
      const end = Math.max(candidate.subject.end, candidate.object.end);
      built.push({
        relation: {
          subject: "",
          object: "",
          relation,
          ...(negated ? { negated } : {}),
          fact: factText(content, candidate, s, o, found.inverse, relation, negated, times),
          ...eventTime(candidate, negated, times, reference),
          confidence: Math.round(confidence * 1000) / 1000,
          span: [start, end],
        },
        subject: { mention: s, type: sType },
        object: { mention: o, type: oType },
      });
    }
  }
  return built;
}
