// Ids made in one process sort in the order they were made, even inside one millisecond (a batch):
// recall's loose neighbours read storage order as id order (src/lib/ids.ts, sql/0560).
import { expect, test } from "bun:test";
import { looksLikeId, newId } from "../../src/lib/ids";

test("ids made in the same millisecond sort in the order they were made", () => {
  const now = Date.now() + 60_000;
  const ids = Array.from({ length: 2000 }, () => newId("mem", now));
  expect([...ids].sort()).toEqual(ids);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.every((id) => looksLikeId("mem", id))).toBe(true);
});

test("an id asked for with an earlier time still sorts after the last one", () => {
  const later = newId("mem", Date.now() + 120_000);
  const earlier = newId("mem", Date.now());
  expect(earlier > later).toBe(true);
});
