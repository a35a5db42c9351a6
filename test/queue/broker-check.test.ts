// The worker's broker check reports exactly what the running Valkey's CONFIG says.
import { afterAll, expect, test } from "bun:test";
import Redis from "ioredis";
import { brokerWarnings } from "../../src/queue/broker-check";
import { TEST_VALKEY_URL } from "../harness/env";

const redis = new Redis(TEST_VALKEY_URL);
afterAll(() => redis.quit());

test("warnings follow maxmemory-policy and appendonly", async () => {
  const policy = ((await redis.config("GET", "maxmemory-policy")) as string[])[1];
  const appendonly = ((await redis.config("GET", "appendonly")) as string[])[1];
  const warnings = await brokerWarnings(redis);
  expect(warnings.some((w) => w.startsWith("maxmemory-policy"))).toBe(policy !== "noeviction");
  expect(warnings.some((w) => w.startsWith("appendonly is off"))).toBe(appendonly === "no");
});
