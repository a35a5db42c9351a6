// Refine (POST /v1/refine, svc.refine_run, the scheduler tick) and feedback: pass selection, the
// feedback blend, decay and prune, dedupe, infer and summarize thresholds, batch and lease sizes.
import { Type as T } from "@sinclair/typebox";

export const refineSection = {
  REFINE_DEFAULT_PASSES: T.String({
    default: "dedupe,reweight,prune",
    pattern: "^(dedupe|infer|summarize|reweight|prune)(,(dedupe|infer|summarize|reweight|prune))*$",
    description:
      "Passes a refine run makes when the request (or the scheduler) names none; infer and summarize are opt-in (add them here or name them in `passes`)",
  }),
  REFINE_FEEDBACK_ALPHA: T.Number({
    default: 0.3,
    exclusiveMinimum: 0,
    maximum: 1,
    description:
      "Moving-average step of the reweight pass: w ← w + α·(r − w), r = 0 / 0.5 / 1 for signals −1 / 0 / +1",
  }),
  REFINE_FEEDBACK_NOTE_MAX_CHARS: T.Integer({
    default: 2000,
    minimum: 1,
    maximum: 100000,
    description: "Longest accepted feedback note",
  }),
  REFINE_EDGE_HALF_LIFE_DAYS: T.Number({
    default: 90,
    exclusiveMinimum: 0,
    description: "Prune: an edge's weight halves every this many days without reinforcement",
  }),
  REFINE_PRUNE_THRESHOLD: T.Number({
    default: 0.1,
    minimum: 0,
    maximum: 1,
    description: "Prune: edges whose (decayed) weight is below this are expired with reason pruned",
  }),
  REFINE_PRUNE_GRACE_HOURS: T.Number({
    default: 24,
    minimum: 0,
    description: "Prune: edges younger than this are never pruned unless they received feedback",
  }),
  REFINE_DEDUPE_THRESHOLD: T.Number({
    default: 0.8,
    minimum: 0.5,
    maximum: 1,
    description:
      "Dedupe: fuzzy evidence score at or above which two memos merge (exact name/alias and shared ontology_uri always merge)",
  }),
  REFINE_DEDUPE_HUB_KEY_LIMIT: T.Integer({
    default: 50,
    minimum: 2,
    description: "Dedupe: a blocking key shared by more memos than this proposes no pairs",
  }),
  REFINE_INFERRED_WEIGHT_FACTOR: T.Number({
    default: 0.8,
    exclusiveMinimum: 0,
    maximum: 1,
    description:
      "Infer: an inferred edge weighs this times its weakest premise (co-mention edges: this times half their confidence)",
  }),
  REFINE_COMENTION_MIN_SCORE: T.Number({
    default: 1,
    exclusiveMinimum: 0,
    description:
      "Infer: Adamic–Adar co-mention score a pair needs before it becomes a RELATED_TO candidate",
  }),
  REFINE_SUMMARY_MIN_MEMBERS: T.Integer({
    default: 3,
    minimum: 2,
    description: "Summarize: smallest cluster that gets a SUMMARY memo",
  }),
  REFINE_SUMMARY_MAX_MEMBERS: T.Integer({
    default: 200,
    minimum: 3,
    description: "Summarize: larger clusters are reported and left unsummarised",
  }),
  REFINE_LABEL_PROPAGATION_MAX_ITERATIONS: T.Integer({
    default: 20,
    minimum: 1,
    maximum: 1000,
    description:
      "Summarize: cap on label-propagation sweeps (the algorithm can oscillate; the cap bounds it)",
  }),
  REFINE_LLM_MAX_CALLS: T.Integer({
    default: 20,
    minimum: 0,
    description:
      "LLM calls one refine run may make (infer's judge and summaries), on top of the tenant's token budget",
  }),
  REFINE_BATCH_SIZE: T.Integer({
    default: 500,
    minimum: 10,
    maximum: 5000,
    description: "Rows per committed batch in every pass",
  }),
  REFINE_LEASE_SECONDS: T.Integer({
    default: 120,
    minimum: 2,
    description:
      "Per-tenant run lease; renewed on every batch, a crashed run's lease lapses after this long",
  }),
};
