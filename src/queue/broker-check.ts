// Checks the broker settings BullMQ's production guide asks for: a Valkey that may evict keys loses
// jobs silently, and one without AOF loses every queued job in a crash. Managed services often
// forbid CONFIG, in which case nothing can be said.
import type Redis from "ioredis";

export async function brokerWarnings(redis: Redis): Promise<string[]> {
  let policy: string | undefined;
  let appendonly: string | undefined;
  try {
    policy = ((await redis.config("GET", "maxmemory-policy")) as string[])[1];
    appendonly = ((await redis.config("GET", "appendonly")) as string[])[1];
  } catch {
    return [];
  }
  const warnings: string[] = [];
  if (policy !== undefined && policy !== "noeviction")
    warnings.push(`maxmemory-policy is ${policy}: set noeviction, or Valkey may evict queued jobs`);
  if (appendonly === "no")
    warnings.push(
      "appendonly is off: a Valkey crash loses queued jobs (PostgreSQL stays correct; wake-ups are redone by the beat and the watchdog)",
    );
  return warnings;
}
