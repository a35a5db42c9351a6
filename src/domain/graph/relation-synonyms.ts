// How text writes a relation: predicate lemma forms (verb, or verb_preposition; copulas as be_*)
// and the canonical relation each stands for, with argument swaps, negation and type restrictions.
import type { MemoType } from "./memo-types";

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
