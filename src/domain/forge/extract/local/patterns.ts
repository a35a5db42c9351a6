// Clause structure → candidate triples, by pattern: verb + object, verb + preposition (one triple
// per prepositional phrase), copula and locative, passive ("written by X" swaps the arguments),
// possessive ("Bob is Alice's manager"), role ("Bob is the CTO of Acme"), apposition ("Bob, the
// CTO,"), category ("Redis is a database"). Each pattern carries a prior used in the confidence.
import type { MemoType } from "../../../graph/memo-types";
import { RELATION_SYNONYMS } from "../../../graph/relation-synonyms";
import type { Apposition, Clause, PrepPhrase, SentenceStructure } from "./clauses";
import { ROLE_NOUNS, TOOL_HEADS } from "./lexicon";
import type { NounPhrase } from "./units";

export type Candidate = {
  subject: NounPhrase;
  object: NounPhrase;
  /** Predicate forms to canonicalise, most specific first ("be_married_to", "marry_to"). */
  predicates: string[];
  /** Already canonical: the pattern knows the relation. */
  relation?: string;
  /** The object names a role: typed ROLE whatever its words look like. */
  objectType?: MemoType;
  negated: boolean;
  hedged: boolean;
  ended: boolean;
  prior: number;
  times: number[];
  /** The words between subject and object are the fact's wording. */
  natural: boolean;
};

type Flags = Pick<Candidate, "negated" | "hedged" | "ended" | "times">;

const MANAGER_NOUNS = new Set([
  "manager",
  "boss",
  "supervisor",
  "line manager",
  "team lead",
  "lead",
  "skip-level",
]);
const REPORT_NOUNS = new Set(["report", "direct report", "subordinate"]);
const SPOUSE_NOUNS = new Set(["wife", "husband", "spouse"]);
const ACQUAINTANCE_NOUNS = new Set([
  "friend",
  "colleague",
  "coworker",
  "co-worker",
  "teammate",
  "neighbour",
  "neighbor",
  "classmate",
  "roommate",
  "flatmate",
  "mentor",
  "buddy",
]);
const USED_NOUNS = new Set([
  ...TOOL_HEADS,
  "language",
  "stack",
  "os",
  "cloud",
  "provider",
  "laptop",
  "phone",
  "browser",
  "shell",
  "terminal",
  "host",
  "platform",
  "vendor",
]);
const EMPLOYER_NOUNS = new Set(["employer", "company", "workplace", "firm"]);
const HOME_NOUNS = new Set(["hometown", "home", "city", "town", "country"]);
const PREFERENCE_WORDS = new Set(["favorite", "favourite", "preferred", "go-to"]);
const MEMBERSHIP_NOUNS = new Set(["part", "member", "component", "piece"]);
const AUTHOR_NOUNS = new Set([
  "author",
  "creator",
  "founder",
  "co-founder",
  "cofounder",
  "inventor",
  "writer",
]);
const OWNER_NOUNS = new Set(["owner", "maintainer"]);
const FAN_NOUNS = new Set(["fan", "admirer", "lover"]);
const ORG_PREPS = new Set(["of", "at", "for", "with"]);

const nounOf = (np: NounPhrase) => np.tokens.map((t) => t.lower).join(" ");
const isRole = (np: NounPhrase) => ROLE_NOUNS.has(np.head.lower) || ROLE_NOUNS.has(nounOf(np));
const isProper = (np: NounPhrase) =>
  np.tokens.some((t) => t.pos === "PROPN" || Boolean(t.slot)) && !isRole(np);

function make(
  subject: NounPhrase,
  object: NounPhrase,
  flags: Flags,
  prior: number,
  how: { predicates?: string[]; relation?: string; objectType?: MemoType; natural?: boolean },
): Candidate {
  return {
    subject,
    object,
    predicates: how.predicates ?? [],
    relation: how.relation,
    objectType: how.objectType,
    prior,
    natural: how.natural ?? false,
    ...flags,
  };
}

/**
 * owner's noun is value: "Bob is Alice's manager", "Alice's manager is Bob", "my editor is Vim".
 */
function possessive(
  owner: NounPhrase,
  noun: NounPhrase,
  value: NounPhrase,
  flags: Flags,
): Candidate[] {
  const words = nounOf(noun);
  const head = noun.head.lower;
  if (MANAGER_NOUNS.has(words) || MANAGER_NOUNS.has(head))
    return [make(owner, value, flags, 0.85, { relation: "REPORTS_TO" })];
  if (REPORT_NOUNS.has(words) || REPORT_NOUNS.has(head))
    return [make(value, owner, flags, 0.85, { relation: "REPORTS_TO" })];
  if (SPOUSE_NOUNS.has(head)) return [make(owner, value, flags, 0.85, { relation: "MARRIED_TO" })];
  if (ACQUAINTANCE_NOUNS.has(head)) return [make(owner, value, flags, 0.8, { relation: "KNOWS" })];
  if (noun.tokens.some((t) => PREFERENCE_WORDS.has(t.lower)))
    return [make(owner, value, flags, 0.8, { relation: "PREFERS" })];
  if (EMPLOYER_NOUNS.has(head)) return [make(owner, value, flags, 0.8, { relation: "WORKS_AT" })];
  if (HOME_NOUNS.has(head)) return [make(owner, value, flags, 0.75, { relation: "LIVES_IN" })];
  if (USED_NOUNS.has(head)) return [make(owner, value, flags, 0.8, { relation: "USES" })];
  if (isRole(noun)) {
    // "Acme's CTO is Bob": Bob has the role at Acme (an owner that is a person gets HAS_<ROLE>
    // below).
    if (isProper(owner) && !owner.pronoun)
      return [
        make(value, noun, flags, 0.8, { relation: "HAS_ROLE", objectType: "ROLE" }),
        make(value, owner, flags, 0.7, { predicates: ["work_at"] }),
      ];
  }
  if (head === "name") return [];
  return [make(owner, value, flags, 0.65, { predicates: [`has_${head}`] })];
}

/** person is role (of/at org): "Bob is the CTO of Acme", "Maria, a data scientist at Initech". */
function role(
  person: NounPhrase,
  roleNp: NounPhrase,
  pps: PrepPhrase[],
  flags: Flags,
): Candidate[] {
  const out = [make(person, roleNp, flags, 0.85, { relation: "HAS_ROLE", objectType: "ROLE" })];
  for (const pp of pps.filter((p) => ORG_PREPS.has(p.prep))) {
    for (const org of pp.nps) {
      if (MANAGER_NOUNS.has(roleNp.head.lower) && pp.prep === "of")
        out.push(make(org, person, flags, 0.75, { relation: "REPORTS_TO" }));
      else out.push(make(person, org, flags, 0.75, { predicates: ["work_at"] }));
    }
  }
  return out;
}

/** X is the N of Y, for relational nouns: part/member of, author of, owner of. */
function relationalOf(
  x: NounPhrase,
  noun: NounPhrase,
  pps: PrepPhrase[],
  flags: Flags,
): Candidate[] | null {
  const of = pps.find((p) => p.prep === "of");
  const head = noun.head.lower;
  if (!of) return null;
  if (MEMBERSHIP_NOUNS.has(head))
    return of.nps.map((y) => make(x, y, flags, 0.85, { relation: "PART_OF" }));
  if (AUTHOR_NOUNS.has(head))
    return of.nps.map((y) => make(y, x, flags, 0.85, { relation: "CREATED_BY" }));
  if (OWNER_NOUNS.has(head))
    return of.nps.map((y) =>
      make(x, y, flags, 0.8, { relation: head === "owner" ? "OWNS" : "WORKS_ON" }),
    );
  if (ACQUAINTANCE_NOUNS.has(head))
    return of.nps.map((y) => make(x, y, flags, 0.8, { relation: "KNOWS" }));
  if (SPOUSE_NOUNS.has(head))
    return of.nps.map((y) => make(x, y, flags, 0.85, { relation: "MARRIED_TO" }));
  if (FAN_NOUNS.has(head))
    return of.nps.map((y) => make(x, y, flags, 0.8, { relation: "PREFERS" }));
  return null;
}

function copula(clause: Clause, subject: NounPhrase, flags: Flags): Candidate[] {
  const out: Candidate[] = [];
  if (clause.adjective) {
    for (const pp of clause.pps)
      for (const y of pp.nps)
        out.push(
          make(subject, y, flags, 0.7, {
            predicates: [`be_${clause.adjective}_${pp.prep}`],
            natural: true,
          }),
        );
    return out;
  }
  if (clause.objects.length === 0) {
    for (const pp of clause.pps)
      for (const y of pp.nps)
        out.push(make(subject, y, flags, 0.8, { predicates: [`be_${pp.prep}`], natural: true }));
    return out;
  }
  for (const complement of clause.objects) {
    if (complement.possessor)
      out.push(...possessive(complement.possessor, complement, subject, flags));
    else if (subject.possessor)
      out.push(...possessive(subject.possessor, subject, complement, flags));
    else if (isRole(subject) && isProper(complement))
      out.push(...role(complement, subject, [], flags));
    else
      out.push(
        ...(relationalOf(subject, complement, clause.pps, flags) ??
          (isRole(complement)
            ? role(subject, complement, clause.pps, flags)
            : category(subject, complement, flags))),
      );
  }
  return out;
}

function category(subject: NounPhrase, complement: NounPhrase, flags: Flags): Candidate[] {
  if (isProper(complement) || subject.possessor || complement.det === "the") return [];
  return [make(subject, complement, flags, 0.7, { relation: "IS_A" })];
}

function passive(clause: Clause, subject: NounPhrase, flags: Flags): Candidate[] {
  const out: Candidate[] = [];
  const main = clause.vg.main.lower;
  for (const pp of clause.pps) {
    for (const y of pp.nps) {
      if (pp.prep === "by")
        out.push(make(y, subject, flags, 0.8, { predicates: [clause.vg.lemma] }));
      else
        out.push(
          make(subject, y, flags, 0.8, {
            predicates: [`be_${main}_${pp.prep}`, `${clause.vg.lemma}_${pp.prep}`],
            natural: true,
          }),
        );
    }
  }
  return out;
}

const PP_WITH_OBJECT = new Set(["switch", "migrate", "upgrade", "replace", "move"]);

function active(clause: Clause, subject: NounPhrase, flags: Flags): Candidate[] {
  const out: Candidate[] = [];
  const lemma = clause.vg.lemma;
  for (const object of clause.objects)
    out.push(make(subject, object, flags, 0.8, { predicates: [lemma], natural: true }));
  if (clause.objects.length > 0 && !PP_WITH_OBJECT.has(lemma)) return out;
  clause.pps.forEach((pp, at) => {
    const predicate = lemma === "replace" && pp.prep === "with" ? "use" : `${lemma}_${pp.prep}`;
    // A later phrase is an adjunct ("depends on X for metrics", "settled in X after university")
    // unless its verb + preposition is a predicate of its own ("moved from X to Y").
    if (at > 0 && !Object.hasOwn(RELATION_SYNONYMS, predicate)) return;
    for (const y of pp.nps) {
      if (clause.objects.length > 0 && lemma === "move" && pp.prep === "to") continue;
      out.push(
        make(subject, y, flags, 0.75, {
          predicates: [predicate],
          natural: clause.objects.length === 0,
        }),
      );
    }
  });
  return out;
}

function apposition(a: Apposition): Candidate[] {
  const flags: Flags = {
    negated: false,
    hedged: false,
    ended: Boolean(a.appositive.former),
    times: [],
  };
  if (flags.ended) flags.negated = true;
  if (a.appositive.possessor) return possessive(a.appositive.possessor, a.appositive, a.np, flags);
  if (isRole(a.appositive)) return role(a.np, a.appositive, a.pps, flags);
  if (isRole(a.np) && isProper(a.appositive))
    return a.np.possessor
      ? possessive(a.np.possessor, a.np, a.appositive, flags)
      : role(a.appositive, a.np, [], flags);
  return (
    relationalOf(a.np, a.appositive, a.pps, flags) ??
    (a.appositive.det === "a" || a.appositive.det === "an"
      ? category(a.np, a.appositive, flags)
      : [])
  );
}

export function candidates(structure: SentenceStructure): Candidate[] {
  const out: Candidate[] = [];
  for (const clause of structure.clauses) {
    const { negated, hedged, ended } = clause.vg;
    const flags: Flags = { negated: negated || ended, hedged, ended, times: clause.times };
    for (const subject of clause.subjects) {
      for (const modifier of clause.subjectModifiers)
        for (const y of modifier.nps)
          if (modifier.prep === "in")
            out.push(
              make(subject, y, { ...flags, negated: false, ended: false }, 0.6, {
                predicates: ["be_in"],
              }),
            );
      if (clause.vg.copula) out.push(...copula(clause, subject, flags));
      else if (clause.vg.passive) out.push(...passive(clause, subject, flags));
      else out.push(...active(clause, subject, flags));
    }
  }
  for (const a of structure.appositions) out.push(...apposition(a));
  return out;
}
