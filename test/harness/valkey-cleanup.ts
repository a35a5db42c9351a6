// Deletes the Valkey keys this test process created: the queue namespaces of its apps and of the
// services it spawned, all named after its pid, so a run leaves Valkey as it found it and
// concurrent runs keep theirs.
import Redis from "ioredis";
import { TEST_VALKEY_URL } from "./env";

/**
 * The key patterns of this process's queue prefixes (TEST_QUEUE_PREFIX and the chaos and roles
 * files').
 */
export function testKeyPatterns(pid = process.pid): string[] {
  return [`svct${pid}x*`, `chaos-pgr-${pid}:*`, `roles-${pid}:*`];
}

/** Deletes every key matching the patterns; returns how many went. */
export async function deleteTestKeys(
  patterns = testKeyPatterns(),
  url = TEST_VALKEY_URL,
): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  let deleted = 0;
  try {
    await redis.connect();
    for (const match of patterns) {
      for await (const keys of redis.scanStream({ match, count: 1000 }) as AsyncIterable<
        string[]
      >) {
        if (keys.length > 0) deleted += await redis.unlink(...keys);
      }
    }
  } finally {
    redis.disconnect();
  }
  return deleted;
}
