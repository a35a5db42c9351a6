// Memory store bounds and the maintenance tasks' knobs (sweep, decay, retention).
import { Type as T } from "@sinclair/typebox";

export const memorySection = {
  MEMORY_CONTENT_MAX_CHARS: T.Integer({
    default: 32768,
    minimum: 1,
    maximum: 1048576,
    description: "Longest accepted memory content, in characters",
  }),
  MEMORY_METADATA_MAX_BYTES: T.Integer({
    default: 16384,
    minimum: 2,
    maximum: 1048576,
    description: "Largest accepted metadata object, as UTF-8 JSON bytes",
  }),
  MEMORY_BATCH_MAX: T.Integer({
    default: 500,
    minimum: 1,
    maximum: 2000,
    description: "Most memories per POST /v1/memories/batch (all-or-nothing)",
  }),
  MEMORY_FORGET_MAX_IDS: T.Integer({
    default: 1000,
    minimum: 1,
    maximum: 10000,
    description: "Most memory_ids per POST /v1/memories/forget",
  }),
  MEMORY_RETENTION_CAP_PER_AGENT: T.Integer({
    default: 100000,
    minimum: 1,
    description:
      "Current memories kept per agent; svc.enforce_retention_caps forgets the excess (lowest importance, then oldest)",
  }),
  MEMORY_DECAY_HALF_LIFE_HOURS: T.Number({
    default: 720,
    exclusiveMinimum: 0,
    description:
      "Importance of an unused memory halves towards MEMORY_DECAY_FLOOR every this many hours",
  }),
  MEMORY_DECAY_FLOOR: T.Number({
    default: 0.05,
    minimum: 0,
    maximum: 1,
    description: "Importance never decays below this value",
  }),
};
