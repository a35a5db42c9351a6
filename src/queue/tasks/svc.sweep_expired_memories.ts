// svc.sweep_expired_memories: the expiry sweep. Forgets (through the forget path, reason "ttl")
// memories past their expiry, and deletes Idempotency-Key records past theirs
// (docs/idempotency.md).
import { Type as T } from "@sinclair/typebox";
import { sweepExpiredIdempotencyKeys } from "../../domain/idempotency/sweep-expired";
import { sweepExpiredMemories } from "../../domain/memories/sweep-expired";
import { defineTask } from "../define-task";

export const sweepExpiredMemoriesTask = defineTask({
  name: "svc.sweep_expired_memories",
  payload: T.Object({}, { additionalProperties: false }),
  attempts: 3,
  backoffMs: 5000,
  schedule: { id: "sweep-expired-memories", everyMs: () => 60_000 },
  run: async (_payload, deps) => ({
    forgotten: await sweepExpiredMemories(deps.db, new Date()),
    idempotency_keys_deleted: await sweepExpiredIdempotencyKeys(deps.db),
  }),
});
