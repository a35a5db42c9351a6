// Idempotency-Key behaviour, written once and run on both database modes (PostgreSQL and embedded
// PGlite): replay without re-execution or a second audit row, 422 on reuse, 409 while in flight,
// stale claims taken over, 429 not stored, 4xx stored, TTL expiry and the lazy sweep, bad keys
// refused, tenants independent, and answers naming forgotten or expired memories kept as tombstones
// (issue 23 item 10).
import { expect, test } from "bun:test";
import type { Deps } from "../../../src/operations/deps";
import { withTenant } from "../../../src/data/with-tenant";
import { sweepExpiredIdempotencyKeys } from "../../../src/domain/idempotency/sweep-expired";
import { systemActor } from "../../../src/domain/actor";
import { forgetMemories } from "../../../src/domain/memories/forget";
import { findExpiredIds } from "../../../src/data/queries/memories/maintenance";
import type { Tenant, TestApp } from "../../harness/app";

export type IdempotencyTarget = {
  app: TestApp;
  deps: Deps;
  tenant(label: string): Promise<Tenant>;
};

const keyed = (key: string, extra: Record<string, string> = {}) => ({
  "idempotency-key": key,
  ...extra,
});

async function count(
  deps: Deps,
  orgId: string,
  what: "memories" | "store-audit" | "keys",
): Promise<number> {
  return withTenant(deps.db, orgId, async (tx) => {
    const rows =
      what === "memories"
        ? await tx`SELECT count(*)::int AS n FROM memories`
        : what === "keys"
          ? await tx`SELECT count(*)::int AS n FROM idempotency_keys`
          : await tx`SELECT ((SELECT count(*) FROM audit_pending WHERE operation = 'store') + (SELECT count(*) FROM audit_log WHERE operation = 'store'))::int AS n`;
    return rows[0]!.n as number;
  });
}

export function idempotencyCases(target: () => IdempotencyTarget, timeoutMs = 30_000) {
  test(
    "a repeated POST with the same key replays the first response: one memory, one audit row",
    async () => {
      const { app, deps, tenant } = target();
      const a = await tenant("idem-replay");
      const body = {
        agent_id: "agent",
        content: "the spare key is under the third flowerpot",
        metadata: { room: "porch", floor: 0 },
      };
      const first = await app.request("POST", "/v1/memories", {
        key: a.key,
        body,
        headers: keyed("store-1"),
      });
      expect(first.status, first.text).toBe(201);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      // The same JSON with its keys in another order is the same request.
      const reordered = {
        metadata: { floor: 0, room: "porch" },
        content: body.content,
        agent_id: "agent",
      };
      const again = await app.request("POST", "/v1/memories", {
        key: a.key,
        body: reordered,
        headers: keyed("store-1"),
      });
      expect(again.status, again.text).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.headers.get("content-type")).toContain("application/json");
      expect(again.text).toBe(first.text);
      expect(await count(deps, a.orgId, "memories")).toBe(1);
      expect(await count(deps, a.orgId, "store-audit")).toBe(1);
      // Without a key every POST executes.
      await app.request("POST", "/v1/memories", { key: a.key, body });
      expect(await count(deps, a.orgId, "memories")).toBe(2);
    },
    timeoutMs,
  );

  test(
    "the same key with another body, path or API key is 422 idempotency-key-reused and runs nothing",
    async () => {
      const { app, deps, tenant } = target();
      const a = await tenant("idem-reuse");
      expect(
        (
          await app.request("POST", "/v1/memories", {
            key: a.key,
            body: { agent_id: "agent", content: "one" },
            headers: keyed("reuse"),
          })
        ).status,
      ).toBe(201);
      const otherBody = await app.request("POST", "/v1/memories", {
        key: a.key,
        body: { agent_id: "agent", content: "two" },
        headers: keyed("reuse"),
      });
      expect(otherBody.status, otherBody.text).toBe(422);
      expect(otherBody.body.type).toEndWith("/errors/idempotency-key-reused");
      expect(otherBody.body.header).toBe("Idempotency-Key");
      const otherPath = await app.request("POST", "/v1/sessions", {
        key: a.key,
        body: { agent_id: "agent" },
        headers: keyed("reuse"),
      });
      expect(otherPath.status, otherPath.text).toBe(422);
      const created = await app.request("POST", "/v1/api-keys", {
        key: a.key,
        body: { name: "second" },
      });
      expect(created.status, created.text).toBe(201);
      const otherKey = await app.request("POST", "/v1/memories", {
        key: created.body.key,
        body: { agent_id: "agent", content: "one" },
        headers: keyed("reuse"),
      });
      expect(otherKey.status, otherKey.text).toBe(422);
      expect(await count(deps, a.orgId, "memories")).toBe(1);
    },
    timeoutMs,
  );

  test(
    "keys are per tenant: another tenant's identical key and body executes for that tenant",
    async () => {
      const { app, deps, tenant } = target();
      const [a, b] = [await tenant("idem-tenant-a"), await tenant("idem-tenant-b")];
      const body = { agent_id: "agent", content: "shared wording" };
      const fromA = await app.request("POST", "/v1/memories", {
        key: a.key,
        body,
        headers: keyed("same"),
      });
      const fromB = await app.request("POST", "/v1/memories", {
        key: b.key,
        body,
        headers: keyed("same"),
      });
      expect([fromA.status, fromB.status]).toEqual([201, 201]);
      expect(fromB.headers.get("idempotent-replayed")).toBeNull();
      expect(fromB.body.memory_id).not.toBe(fromA.body.memory_id);
      expect(await count(deps, b.orgId, "memories")).toBe(1);
    },
    timeoutMs,
  );

  test(
    "a malformed key is a 400 naming the header, and nothing runs",
    async () => {
      const { app, deps, tenant } = target();
      const a = await tenant("idem-bad");
      for (const bad of ["", '""', "k".repeat(256), "caf\u00e9", "tab\there"]) {
        const r = await app.request("POST", "/v1/memories", {
          key: a.key,
          body: { agent_id: "agent", content: "x" },
          headers: keyed(bad),
        });
        expect(r.status, `${JSON.stringify(bad)} → ${r.text}`).toBe(400);
        expect(r.headers.get("content-type")).toContain("application/problem+json");
        expect(r.body.detail).toContain("Idempotency-Key");
      }
      expect(await count(deps, a.orgId, "memories")).toBe(0);
      // 255 printable characters, and the structured-field string form, are fine.
      expect(
        (
          await app.request("POST", "/v1/memories", {
            key: a.key,
            body: { agent_id: "agent", content: "x" },
            headers: keyed("k".repeat(255)),
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await app.request("POST", "/v1/memories", {
            key: a.key,
            body: { agent_id: "agent", content: "y" },
            headers: keyed('"sf-string key"'),
          })
        ).status,
      ).toBe(201);
    },
    timeoutMs,
  );

  test(
    "while the first request is in flight a repeat gets 409 with Retry-After; a stale claim (killed process) is taken over",
    async () => {
      const { app, deps, tenant } = target();
      const a = await tenant("idem-flight");
      const body = { agent_id: "agent", content: "in flight" };
      // Claim the key as the pipeline does, then leave it in flight, as a process killed
      // mid-request would.
      const first = await app.request("POST", "/v1/memories", {
        key: a.key,
        body,
        headers: keyed("flight"),
      });
      expect(first.status).toBe(201);
      await withTenant(
        deps.db,
        a.orgId,
        (tx) =>
          tx`UPDATE idempotency_keys SET state = 'in_flight', response_status = NULL, response_headers = NULL, response_body = NULL WHERE idem_key = 'flight'`,
      );
      const busy = await app.request("POST", "/v1/memories", {
        key: a.key,
        body,
        headers: keyed("flight"),
      });
      expect(busy.status, busy.text).toBe(409);
      expect(busy.body.type).toEndWith("/errors/idempotency-key-in-flight");
      expect(Number(busy.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      // A different body is still a reuse, even while in flight.
      expect(
        (
          await app.request("POST", "/v1/memories", {
            key: a.key,
            body: { ...body, content: "other" },
            headers: keyed("flight"),
          })
        ).status,
      ).toBe(422);
      await withTenant(
        deps.db,
        a.orgId,
        (tx) =>
          tx`UPDATE idempotency_keys SET claimed_at = now() - interval '1 hour' WHERE idem_key = 'flight'`,
      );
      const retried = await app.request("POST", "/v1/memories", {
        key: a.key,
        body,
        headers: keyed("flight"),
      });
      expect(retried.status, retried.text).toBe(201);
      expect(retried.headers.get("idempotent-replayed")).toBeNull();
      const replayed = await app.request("POST", "/v1/memories", {
        key: a.key,
        body,
        headers: keyed("flight"),
      });
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      expect(replayed.body.memory_id).toBe(retried.body.memory_id);
    },
    timeoutMs,
  );

  test(
    "4xx answers are stored and replayed; a 429 is not stored, so the retry runs once the budget allows",
    async () => {
      const { app, deps, tenant } = target();
      const a = await tenant("idem-4xx");
      const missing = await app.request("POST", "/v1/sessions/ses_00000000000000000000000000/end", {
        key: a.key,
        headers: keyed("end-missing"),
      });
      expect(missing.status, missing.text).toBe(404);
      const missingAgain = await app.request(
        "POST",
        "/v1/sessions/ses_00000000000000000000000000/end",
        { key: a.key, headers: keyed("end-missing") },
      );
      expect(missingAgain.status).toBe(404);
      expect(missingAgain.headers.get("idempotent-replayed")).toBe("true");
      expect(missingAgain.headers.get("content-type")).toContain("application/problem+json");

      expect(
        (
          await app.request("PUT", "/v1/tenants/me/budgets", {
            key: a.key,
            body: { daily_tokens: 0 },
          })
        ).status,
      ).toBe(200);
      const body = { agent_id: "agent", content: "over budget" };
      const refused = await app.request("POST", "/v1/memories", {
        key: a.key,
        body,
        headers: keyed("budget"),
      });
      expect(refused.status, refused.text).toBe(429);
      expect(
        (
          await app.request("PUT", "/v1/tenants/me/budgets", {
            key: a.key,
            body: { daily_tokens: null },
          })
        ).status,
      ).toBe(200);
      const retried = await app.request("POST", "/v1/memories", {
        key: a.key,
        body,
        headers: keyed("budget"),
      });
      expect(retried.status, retried.text).toBe(201);
      expect(retried.headers.get("idempotent-replayed")).toBeNull();
      expect(await count(deps, a.orgId, "memories")).toBe(1);
    },
    timeoutMs,
  );

  test(
    "an expired key may be reused for a new request; claims and the expiry sweep delete expired rows",
    async () => {
      const { app, deps, tenant } = target();
      const a = await tenant("idem-ttl");
      for (let i = 0; i < 5; i++) {
        expect(
          (
            await app.request("POST", "/v1/memories", {
              key: a.key,
              body: { agent_id: "agent", content: `ttl ${i}` },
              headers: keyed(`ttl-${i}`),
            })
          ).status,
        ).toBe(201);
      }
      expect(await count(deps, a.orgId, "keys")).toBe(5);
      await withTenant(
        deps.db,
        a.orgId,
        (tx) => tx`UPDATE idempotency_keys SET expires_at = now() - interval '1 second'`,
      );
      const reused = await app.request("POST", "/v1/memories", {
        key: a.key,
        body: { agent_id: "agent", content: "a new request" },
        headers: keyed("ttl-0"),
      });
      expect(reused.status, reused.text).toBe(201);
      expect(reused.headers.get("idempotent-replayed")).toBeNull();
      expect(await count(deps, a.orgId, "keys")).toBe(1);
      // The expiry sweep (svc.sweep_expired_memories) deletes what is left; a rerun finds nothing.
      await withTenant(
        deps.db,
        a.orgId,
        (tx) => tx`UPDATE idempotency_keys SET expires_at = now() - interval '1 second'`,
      );
      expect(await sweepExpiredIdempotencyKeys(deps.db)).toBeGreaterThanOrEqual(1);
      expect(await count(deps, a.orgId, "keys")).toBe(0);
      expect(await sweepExpiredIdempotencyKeys(deps.db)).toBe(0);
    },
    timeoutMs,
  );

  test(
    "the streaming POSTs ignore the header; recall honours it",
    async () => {
      const { app, tenant } = target();
      const a = await tenant("idem-exempt");
      await app.request("POST", "/v1/memories", {
        key: a.key,
        body: { agent_id: "agent", content: "the lighthouse keeper" },
      });
      const query = { agent_id: "agent", query: "lighthouse", strategy: "LEXICAL" };
      const recall = await app.request("POST", "/v1/memories/recall", {
        key: a.key,
        body: query,
        headers: keyed("recall"),
      });
      const recallAgain = await app.request("POST", "/v1/memories/recall", {
        key: a.key,
        body: query,
        headers: keyed("recall"),
      });
      expect(recall.status).toBe(200);
      expect(recallAgain.headers.get("idempotent-replayed")).toBe("true");
      for (let i = 0; i < 2; i++) {
        const stream = await app.request("POST", "/v1/memories/recall/stream", {
          key: a.key,
          body: query,
          headers: keyed("stream"),
        });
        expect(stream.status).toBe(200);
        expect(stream.headers.get("idempotent-replayed")).toBeNull();
      }
    },
    timeoutMs,
  );
  test(
    "forget turns the stored answers naming the memory (its store's 201, a recall that returned it) into tombstones, and only those",
    async () => {
      const { app, deps, tenant } = target();
      const a = await tenant("idem-forget");
      const stored = await app.request("POST", "/v1/memories", {
        key: a.key,
        body: { agent_id: "agent", content: "the vault code is 4471" },
        headers: keyed("forget-store"),
      });
      expect(stored.status, stored.text).toBe(201);
      const id = (stored.body as { memory_id: string }).memory_id;
      const other = await app.request("POST", "/v1/memories", {
        key: a.key,
        body: { agent_id: "agent", content: "the garden gate squeaks" },
        headers: keyed("keep-store"),
      });
      expect(other.status).toBe(201);
      const recall = await app.request("POST", "/v1/memories/recall", {
        key: a.key,
        body: { agent_id: "agent", query: "vault code", strategy: "LEXICAL" },
        headers: keyed("forget-recall"),
      });
      expect(recall.text).toContain(id);
      expect(await count(deps, a.orgId, "keys")).toBe(3);
      const forgot = await app.request("POST", "/v1/memories/forget", {
        key: a.key,
        body: { memory_ids: [id] },
      });
      expect(forgot.status, forgot.text).toBe(200);
      const left = await withTenant(
        deps.db,
        a.orgId,
        (tx) => tx<{ idem_key: string; state: string; response_body: string | null }[]>`
      SELECT idem_key, state, response_body FROM idempotency_keys ORDER BY idem_key`,
      );
      expect(left.map((r) => [r.idem_key, r.state])).toEqual([
        ["forget-recall", "forgotten"],
        ["forget-store", "forgotten"],
        ["keep-store", "done"],
      ]);
      expect(left.some((r) => r.response_body?.includes("vault code"))).toBe(false);
      // The key stays taken: a retry neither replays the forgotten content nor stores it again.
      const retried = await app.request("POST", "/v1/memories", {
        key: a.key,
        body: { agent_id: "agent", content: "the vault code is 4471" },
        headers: keyed("forget-store"),
      });
      expect(retried.status, retried.text).toBe(410);
      expect((retried.body as { type: string }).type).toEndWith("/idempotency-key-forgotten");
      expect(retried.text).not.toContain("4471");
      const recalledAgain = await app.request("POST", "/v1/memories/recall", {
        key: a.key,
        body: { agent_id: "agent", query: "vault code", strategy: "LEXICAL" },
        headers: keyed("forget-recall"),
      });
      expect(recalledAgain.status).toBe(410);
      expect(await count(deps, a.orgId, "memories")).toBe(2);
    },
    timeoutMs,
  );

  test(
    "a batch store retried after one item was forgotten, or expired, stores nothing twice and brings nothing back",
    async () => {
      const { app, deps, tenant } = target();
      const a = await tenant("idem-batch-forget");
      const batch = (tag: string) => ({
        memories: ["otters", "herons", "voles"].map((w) => ({
          agent_id: "agent",
          content: `${tag}: the ${w} came back`,
        })),
      });
      const ids: Record<string, string[]> = {};
      for (const tag of ["forgotten", "expired", "swept"]) {
        const first = await app.request("POST", "/v1/memories/batch", {
          key: a.key,
          body: batch(tag),
          headers: keyed(`batch-${tag}`),
        });
        expect(first.status, first.text).toBe(201);
        ids[tag] = (first.body as { memories: Array<{ memory_id: string }> }).memories.map(
          (m) => m.memory_id,
        );
      }
      const forgot = await app.request("POST", "/v1/memories/forget", {
        key: a.key,
        body: { memory_ids: [ids.forgotten![1]] },
      });
      expect(forgot.status, forgot.text).toBe(200);
      // Past their expiry: one not swept yet, one that the sweep closed (its forget path, this
      // tenant only: the database is shared with other files).
      await withTenant(deps.db, a.orgId, async (tx) => {
        await tx`UPDATE memories SET expires_at = now() - interval '1 second' WHERE memory_id = ${ids.swept![1]!}`;
        const expired = await findExpiredIds(tx, new Date(), 10);
        expect(expired).toEqual([ids.swept![1]!]);
        await forgetMemories(tx, systemActor(a.orgId), expired, "ttl");
        await tx`UPDATE memories SET expires_at = now() - interval '1 second' WHERE memory_id = ${ids.expired![1]!}`;
      });
      const before = await count(deps, a.orgId, "memories");
      for (const tag of ["forgotten", "expired", "swept"]) {
        const retried = await app.request("POST", "/v1/memories/batch", {
          key: a.key,
          body: batch(tag),
          headers: keyed(`batch-${tag}`),
        });
        expect(retried.status, `${tag}: ${retried.text}`).toBe(410);
        expect((retried.body as { type: string }).type).toEndWith("/idempotency-key-forgotten");
      }
      expect(await count(deps, a.orgId, "memories")).toBe(before);
      const current = await withTenant(
        deps.db,
        a.orgId,
        (tx) => tx<{ memory_id: string }[]>`
      SELECT memory_id FROM memories WHERE valid_to IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      );
      const expected = [
        ids.forgotten![0],
        ids.forgotten![2],
        ids.expired![0],
        ids.expired![2],
        ids.swept![0],
        ids.swept![2],
      ];
      expect(current.map((r) => r.memory_id).sort()).toEqual(expected.map(String).sort());
    },
    timeoutMs,
  );

  test(
    "a replayed recall is re-checked against expiry: a memory past it is never replayed",
    async () => {
      const { app, deps, tenant } = target();
      const a = await tenant("idem-recall-expiry");
      const stored = await app.request("POST", "/v1/memories", {
        key: a.key,
        body: { agent_id: "agent", content: "the ferry leaves at dawn" },
      });
      expect(stored.status, stored.text).toBe(201);
      const id = (stored.body as { memory_id: string }).memory_id;
      const query = { agent_id: "agent", query: "ferry dawn", strategy: "LEXICAL" };
      const first = await app.request("POST", "/v1/memories/recall", {
        key: a.key,
        body: query,
        headers: keyed("recall-expiry"),
      });
      expect(first.text).toContain(id);
      const replayed = await app.request("POST", "/v1/memories/recall", {
        key: a.key,
        body: query,
        headers: keyed("recall-expiry"),
      });
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      await withTenant(
        deps.db,
        a.orgId,
        (tx) =>
          tx`UPDATE memories SET expires_at = now() - interval '1 second' WHERE memory_id = ${id}`,
      );
      const afterExpiry = await app.request("POST", "/v1/memories/recall", {
        key: a.key,
        body: query,
        headers: keyed("recall-expiry"),
      });
      expect(afterExpiry.status, afterExpiry.text).toBe(410);
      expect(afterExpiry.text).not.toContain(id);
      expect(afterExpiry.text).not.toContain("ferry");
    },
    timeoutMs,
  );
}
