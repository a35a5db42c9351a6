// The built-in relation ontology: canonical UPPER_SNAKE names with their cardinality flags. A relation
// marked functional is single-valued per subject, so a new object supersedes the old one (the only
// way a fact is ever retired by distill). Tenants override flags through the relation_types table.
// Extractors map their predicates onto these names through RELATION_SYNONYMS (unknown predicates keep
// an UPPER_SNAKE lemma form and are many-valued). `subjects` / `objects` are the argument types a
// relation expects: extractors lower their confidence when the types disagree.
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

const UPPER_SNAKE = /^[A-Z][A-Z0-9_]{0,63}$/;

/** A predicate lemma ("work at", "moved-to") as a relation name ("WORK_AT", "MOVED_TO"), or null. */
export function toRelationName(predicate: string): string | null {
  const name = predicate
    .normalize("NFKC")
    .trim()
    .replace(/[^\p{L}\p{N}]+/gu, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
  return UPPER_SNAKE.test(name) ? name : null;
}

/**
 * How a predicate maps onto the ontology. `inverse` swaps the arguments ("Maria wrote the parser" →
 * parser CREATED_BY Maria); `negated` marks the fact as ended ("left Acme" → WORKS_AT, negated);
 * `subject` / `object` restrict the rule to those argument types (the first matching rule wins).
 */
export type SynonymRule = {
  relation: string;
  inverse?: boolean;
  negated?: boolean;
  subject?: readonly MemoType[];
  object?: readonly MemoType[];
};

const PLACE: readonly MemoType[] = ["PLACE"];
const ORG: readonly MemoType[] = ["ORG"];
const TOOLS: readonly MemoType[] = ["TOOL", "SYMBOL", "FILE", "URL", "VERSION"];
const rule = (relation: string, extra: Omit<SynonymRule, "relation"> = {}): SynonymRule => ({
  relation,
  ...extra,
});
const all = (rules: SynonymRule | SynonymRule[], ...predicates: string[]) =>
  predicates.map((p) => [p, Array.isArray(rules) ? rules : [rules]] as const);

/** Predicate lemma forms (verb, or verb_preposition; copulas as be_*) → canonical relations. */
export const RELATION_SYNONYMS: Readonly<Record<string, readonly SynonymRule[]>> =
  Object.fromEntries([
    ...all(
      [rule("LIVES_IN", { subject: ["PERSON"] }), rule("LOCATED_IN")],
      "live_in",
      "reside_in",
      "settle_in",
      "live_at",
    ),
    ...all(
      [rule("LIVES_IN", { object: PLACE }), rule("USES", { object: TOOLS })],
      "move_to",
      "relocate_to",
    ),
    ...all(
      [
        rule("LIVES_IN", { object: PLACE, negated: true }),
        rule("USES", { object: TOOLS, negated: true }),
      ],
      "move_from",
      "move_away_from",
      "relocate_from",
    ),
    ...all(
      rule("WORKS_AT"),
      "work_at",
      "work_for",
      "be_employed_by",
      "intern_at",
      "consult_for",
      "teach_at",
    ),
    ...all(
      [rule("WORKS_AT", { object: ORG }), rule("LOCATED_IN", { object: PLACE })],
      "work_in",
      "be_with",
    ),
    ...all([rule("WORKS_AT", { object: ORG }), rule("ATTENDED", { object: ["EVENT"] })], "join"),
    ...all(rule("WORKS_AT", { inverse: true }), "employ", "hire", "recruit"),
    ...all(
      [
        rule("WORKS_AT", { object: ORG, negated: true }),
        rule("LIVES_IN", { object: PLACE, negated: true }),
      ],
      "leave",
      "quit",
      "resign_from",
      "retire_from",
      "depart",
    ),
    ...all(rule("WORKS_AT", { inverse: true, negated: true }), "fire", "lay_off"),
    ...all(rule("HAS_ROLE"), "work_as", "serve_as", "act_as", "promote_to", "be_promoted_to"),
    ...all(rule("REPORTS_TO"), "report_to", "work_under", "work_for_person"),
    ...all(
      [rule("MANAGES", { object: ["PERSON", "ORG"] }), rule("OWNS")],
      "manage",
      "lead",
      "head",
      "supervise",
      "oversee",
      "run_team",
    ),
    ...all(
      [rule("WORKS_AT", { subject: ["PERSON"], object: ORG }), rule("LOCATED_IN")],
      "be_at",
      "base_at",
    ),
    ...all(
      [rule("PART_OF", { subject: ["PERSON"], object: ORG }), rule("LOCATED_IN")],
      "be_in",
      "locate_in",
      "locate_at",
      "be_headquartered_in",
      "headquarter_in",
      "sit_in",
      "store_in",
      "keep_in",
      "base_in",
      "be_under",
      "host_in",
      "place_in",
      "save_in",
      "put_in",
    ),
    ...all(rule("PART_OF"), "belong_to", "be_part_of", "be_member_of", "be_in_team", "be_on"),
    ...all(rule("HAS_PART"), "contain", "include", "consist_of", "comprise"),
    ...all(rule("DEFINED_IN"), "define_in", "declare_in", "implement_in"),
    ...all([rule("MANAGES", { object: ["ORG"], subject: ["PERSON"] }), rule("USES")], "run"),
    ...all(
      rule("USES"),
      "use",
      "utilize",
      "utilise",
      "adopt",
      "switch_to",
      "migrate_to",
      "upgrade_to",
      "choose",
      "pick",
      "install",
      "prefer_using",
      "build_with",
      "be_written_in",
      "write_in",
      "code_in",
      "program_in",
    ),
    ...all(
      rule("USES", { negated: true }),
      "switch_from",
      "migrate_from",
      "drop",
      "abandon",
      "uninstall",
      "move_off",
      "replace",
    ),
    ...all(rule("PREFERS"), "prefer", "like", "love", "enjoy", "favor", "favour", "be_fan_of"),
    ...all(rule("DISLIKES"), "dislike", "hate", "detest"),
    ...all(
      rule("DEPENDS_ON"),
      "depend_on",
      "rely_on",
      "require",
      "need",
      "import",
      "build_on",
      "be_built_on",
      "be_based_on",
      "wrap",
    ),
    ...all(rule("CALLS"), "call", "invoke"),
    ...all(
      rule("CREATED_BY", { inverse: true }),
      "write",
      "create",
      "build",
      "author",
      "develop",
      "design",
      "found",
      "invent",
      "start",
      "co-found",
      "cofound",
      "implement",
    ),
    ...all(rule("KNOWS"), "know", "meet", "befriend", "be_friends_with", "be_friend_of"),
    ...all(rule("MARRIED_TO"), "marry", "be_married_to", "wed"),
    ...all(rule("BORN_IN"), "be_born_in", "bear_in"),
    ...all(rule("COMES_FROM"), "be_from", "come_from", "hail_from", "originate_from"),
    ...all(rule("STUDIED_AT"), "study_at", "graduate_from", "attend_school", "study_in"),
    ...all(rule("WORKS_ON"), "work_on", "contribute_to", "maintain"),
    ...all(
      rule("OWNS"),
      "own",
      "be_responsible_for",
      "be_in_charge_of",
      "acquire",
      "buy",
      "purchase",
    ),
    ...all(
      rule("RUNS_ON"),
      "run_on",
      "deploy_to",
      "deploy_on",
      "host_on",
      "be_deployed_to",
      "be_hosted_on",
      "be_deployed_on",
    ),
    ...all(rule("HAS"), "have", "own_a", "possess"),
    ...all(rule("ATTENDED"), "attend", "go_to", "present_at", "speak_at"),
  ]);

const INFLECTION = /(?:ies|ied|es|ed|s|ing)$/;

/** The first word's crude base forms ("reports" → "report", "moved" → "move"), for LLM predicates. */
function baseForms(predicate: string): string[] {
  const [head, ...rest] = predicate.split("_");
  if (!head || !INFLECTION.test(head)) return [];
  const tail = rest.length ? `_${rest.join("_")}` : "";
  const stems = [
    head.replace(/ies$|ied$/, "y"),
    head.replace(/es$|ed$|s$|ing$/, ""),
    head.replace(/s$|d$/, ""),
    head.replace(/ing$/, "e"),
  ];
  return stems.filter((s) => s && s !== head).map((s) => s + tail);
}

/** `known`: the predicate is in the ontology or the synonym table (else it kept its lemma form). */
export type CanonicalRelation = {
  relation: string;
  inverse: boolean;
  negated: boolean;
  known: boolean;
};

/** A predicate ("work_at", "Works for", "WORKS_AT") as a canonical relation, given the argument types. */
export function canonicalRelation(
  predicate: string,
  types: { subject?: MemoType; object?: MemoType } = {},
): CanonicalRelation | null {
  const key = predicate
    .normalize("NFKC")
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  const upper = key.toUpperCase();
  if (Object.hasOwn(DEFAULT_RELATION_TYPES, upper))
    return { relation: upper, inverse: false, negated: false, known: true };
  for (const candidate of [key, ...baseForms(key)]) {
    const rules = Object.hasOwn(RELATION_SYNONYMS, candidate)
      ? RELATION_SYNONYMS[candidate]!
      : null;
    if (!rules) continue;
    // An unknown type (a proper name no word list knows) fits any rule: the rule then types it.
    const fits = (allowed: readonly MemoType[] | undefined, type: MemoType | undefined) =>
      !allowed || type === undefined || allowed.includes(type);
    const match = rules.find((r) => fits(r.subject, types.subject) && fits(r.object, types.object));
    if (match)
      return {
        relation: match.relation,
        inverse: match.inverse ?? false,
        negated: match.negated ?? false,
        known: true,
      };
  }
  const name = toRelationName(key);
  return name ? { relation: name, inverse: false, negated: false, known: false } : null;
}
