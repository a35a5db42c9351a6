// svc.sweep_expired_memories: forgets (through the forget path, reason "ttl") memories past their expiry.
import { Type as T } from "@sinclair/typebox";
import { sweepExpiredMemories } from "../../domain/memories/sweep-expired";
import { defineTask } from "../define-task";

export const sweepExpiredMemoriesTask = defineTask({
  name: "svc.sweep_expired_memories",
  payload: T.Object({}, { additionalProperties: false }),
  attempts: 3,
  backoffMs: 5000,
  run: async (_payload, deps) => ({ forgotten: await sweepExpiredMemories(deps.db, new Date()) }),
});
