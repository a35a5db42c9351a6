// The preload's teardown deletes exactly this run's Valkey keys: its queue prefixes, never another
// run's.
import { expect, test } from "bun:test";
import Redis from "ioredis";
import { TEST_VALKEY_URL } from "./env";
import { deleteTestKeys, testKeyPatterns } from "./valkey-cleanup";

test("deleteTestKeys removes the keys of one pid's prefixes and keeps everything else", async () => {
  const pid = 900_000_000 + Math.floor(Math.random() * 1_000_000); // no live process has it
  const redis = new Redis(TEST_VALKEY_URL);
  const mine = [
    `svct${pid}xabc-memtasks:tasks:meta`,
    `chaos-pgr-${pid}:tasks:id`,
    `roles-${pid}:tasks:wait`,
  ];
  const others = [`svct${pid + 1}xabc:tasks:meta`, `chaos-pgr-${pid}0:tasks:id`, `svc:rl:${pid}`];
  try {
    for (const key of [...mine, ...others]) await redis.set(key, "1");
    expect(await deleteTestKeys(testKeyPatterns(pid))).toBe(mine.length);
    expect(await redis.exists(...mine)).toBe(0);
    expect(await redis.exists(...others)).toBe(others.length);
  } finally {
    await redis.del(...mine, ...others);
    redis.disconnect();
  }
});
