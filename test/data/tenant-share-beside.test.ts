// besideSlot (src/data/tenant-share.ts): a turn for work beside the request's transaction is taken
// only when free now, never ahead of a request queued for one, and given back on release.
import { expect, test } from "bun:test";
import { besideSlot, createTenantShare, shareScope } from "../../src/data/tenant-share";

const share = () =>
  createTenantShare(
    { perTenant: 2, heavyPerTenant: 1, waitMs: 5_000, heavyMsPerSecond: 1000 },
    (what) => new Error(what),
    () => new Error("over budget"),
  );

test("a turn beside is taken while one is free, refused when none is, and given back", async () => {
  const s = share();
  await shareScope(s, () =>
    s.transaction("org_a", async () => {
      const second = besideSlot("org_a");
      expect(second).not.toBeNull();
      expect(besideSlot("org_a")).toBeNull(); // both turns held
      expect(besideSlot("org_b")).not.toBeNull(); // another tenant's share is its own
      second!();
      expect(besideSlot("org_a")).not.toBeNull();
    }),
  );
});

test("a turn freed while a request queues goes to that request, not beside", async () => {
  const s = share();
  await shareScope(s, async () => {
    let releaseFirst!: () => void;
    const first = s.transaction("org_a", () => new Promise<void>((r) => (releaseFirst = r)));
    const second = s.transaction("org_a", async () => {
      // Two held; a third queues. The turn the first frees goes to it, not beside.
      const third = s.transaction("org_a", async () => "third ran");
      releaseFirst();
      await Promise.resolve();
      expect(besideSlot("org_a")).toBeNull();
      return third;
    });
    await first;
    expect(await await second).toBe("third ran");
  });
});

test("outside a request's share nothing is bounded: a turn beside is always given", () => {
  expect(besideSlot("org_a")).not.toBeNull();
});
