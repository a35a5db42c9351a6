// The distill job row's payload (the contract every creator of distill jobs follows: POST
// /v1/distill and ingest's auto-distill): {agent_id, memory_ids}. The row is the source of truth;
// the queue only wakes.
import { Type as T, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

export const DistillPayload = T.Object({
  agent_id: T.String({ minLength: 1, maxLength: 256 }),
  memory_ids: T.Array(T.String({ minLength: 1, maxLength: 128 }), {
    minItems: 1,
    maxItems: 100_000,
  }),
});

export type DistillPayload = Static<typeof DistillPayload>;

export function parseDistillPayload(value: unknown): DistillPayload | null {
  if (!Value.Check(DistillPayload, value)) return null;
  return { agent_id: value.agent_id, memory_ids: [...new Set(value.memory_ids)] };
}
