// Key scopes, with every gate on: every authenticated operation in /openapi.json declares its scope
// (x-required-scope) and refuses a key lacking it with 403 insufficient-scope naming the scope,
// while a key holding only that scope gets past authorization; a key can only grant scopes it
// holds; the per-tenant cap on live keys; keys from before scopes (and boot keys) have full access.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemActor } from "../../src/domain/actor";
import { createKey } from "../../src/domain/keys/manage";
import { SCOPES, type Scope } from "../../src/lib/scopes";
import { requiredAccess } from "../../src/http/route-scopes";
import { show, testApp, type TestApp, type Tenant } from "../harness/app";
import { isAuthenticated, operationsOf, type Operation } from "../harness/openapi";

const SUPERADMIN_KEY = "superadmin-test-key-0123456789";
let t: TestApp;
let tenant: Tenant;
let ops: Operation[];

beforeAll(async () => {
  t = await testApp({
    DISTILL_ENABLED: true,
    INGEST_ENABLED: true,
    REFINE_ENABLED: true,
    FORGET_PROOF_ENABLED: true,
    MULTIMODAL_ENABLED: true,
    SUPERADMIN_ENABLED: true,
    SUPERADMIN_API_KEY: SUPERADMIN_KEY,
  });
  tenant = await t.tenant("scopes");
  ops = (await operationsOf(t)).filter(isAuthenticated);
});
afterAll(() => t.close());

const body = (op: Operation) => (["POST", "PUT", "PATCH"].includes(op.method) ? {} : undefined);
const scopeOf = (op: Operation): string => op.operation["x-required-scope"];

async function keyWith(scopes: readonly Scope[], from = tenant.key): Promise<string> {
  const r = await t.request("POST", "/v1/api-keys", {
    key: from,
    body: { name: `only ${scopes.join(" ")}`, scopes },
  });
  expect(r.status, show(r)).toBe(201);
  expect(r.body.scopes).toEqual([...scopes]);
  return r.body.key;
}

describe("every authenticated operation is guarded by its declared scope", () => {
  test("each authenticated operation declares a known scope, `any` or `superadmin`; every scope guards some route", () => {
    expect(ops.length).toBeGreaterThan(30);
    for (const op of ops)
      expect([...SCOPES, "any", "superadmin"], `${op.method} ${op.path}`).toContain(scopeOf(op));
    for (const op of ops)
      expect(op.operation.description, `${op.method} ${op.path}`).toContain(
        scopeOf(op) === "any"
          ? "Any valid tenant key"
          : scopeOf(op) === "superadmin"
            ? "Superadmin"
            : `\`${scopeOf(op)}\``,
      );
    const used = new Set(ops.map(scopeOf));
    for (const scope of SCOPES) expect(used.has(scope), scope).toBe(true);
  });

  test("the documented examples resolve as docs/keys.md says", () => {
    const at = (method: string, path: string) =>
      scopeOf(ops.find((o) => o.method === method && o.path === path)!);
    expect(at("POST", "/v1/memories/recall")).toBe("memories:read");
    expect(at("POST", "/v1/memories")).toBe("memories:write");
    expect(at("POST", "/v1/distill")).toBe("forge:write");
    expect(at("GET", "/v1/distill/{job_id}")).toBe("memories:read");
    expect(at("GET", "/v1/audit")).toBe("audit:read");
    expect(at("GET", "/v1/export")).toBe("export");
    expect(at("POST", "/v1/api-keys")).toBe("admin");
    expect(at("PUT", "/v1/tenants/me/budgets")).toBe("admin");
    expect(at("GET", "/v1/limits")).toBe("any");
  });

  test("a route no rule names needs admin, so a new route is closed until its scope is declared", () => {
    expect(requiredAccess("POST", "/v1/not-yet-declared")).toBe("admin");
    expect(requiredAccess("GET", "/v1/not-yet-declared/:id")).toBe("admin");
    expect(requiredAccess("GET", "/v1/memories/recall")).toBe("memories:read");
    expect(requiredAccess("POST", "/v1/ingest/search")).toBe("forge:write");
  });

  test("a key lacking the scope gets 403 insufficient-scope naming it; a key holding only that scope passes", async () => {
    const lacking = new Map<Scope, string>();
    const only = new Map<Scope, string>();
    for (const scope of SCOPES) {
      lacking.set(scope, await keyWith(SCOPES.filter((s) => s !== scope)));
      only.set(scope, await keyWith([scope]));
    }
    const guarded = ops.filter((op) => (SCOPES as readonly string[]).includes(scopeOf(op)));
    expect(guarded.length).toBeGreaterThan(30);
    for (const op of guarded) {
      const scope = scopeOf(op) as Scope;
      const label = `${op.method} ${op.path} (${scope})`;
      const refused = await t.request(op.method, op.concretePath, {
        key: lacking.get(scope)!,
        body: body(op),
      });
      expect(refused.status, `${label}: ${show(refused)}`).toBe(403);
      expect(refused.headers.get("content-type")).toStartWith("application/problem+json");
      expect(refused.body.type).toEndWith("/errors/insufficient-scope");
      expect(refused.body.missing_scopes).toEqual([scope]);
      expect(refused.body.detail).toContain(scope);
      const allowed = await t.request(op.method, op.concretePath, {
        key: only.get(scope)!,
        body: body(op),
      });
      expect([401, 403], `${label} with only ${scope}: ${show(allowed)}`).not.toContain(
        allowed.status,
      );
    }
  });

  test("`any` routes answer every valid key, whatever its scopes", async () => {
    const minimal = await keyWith(["memories:read"]);
    for (const op of ops.filter((o) => scopeOf(o) === "any")) {
      const r = await t.request(op.method, op.concretePath, { key: minimal, body: body(op) });
      expect(r.status, `${op.method} ${op.path}: ${show(r)}`).toBe(200);
    }
  });

  test("the scope check runs before validation: a bad body from a key without the scope is still 403", async () => {
    const reader = await keyWith(["memories:read"]);
    const r = await t.request("POST", "/v1/memories", {
      key: reader,
      body: { top_k: "nonsense", agent_id: 7 },
    });
    expect(r.status, show(r)).toBe(403);
    expect(r.body.missing_scopes).toEqual(["memories:write"]);
  });
});

describe("creating keys", () => {
  const liveKeyIds = async (key: string) =>
    (
      (await t.request("GET", "/v1/api-keys?limit=200", { key })).body.items as Array<{
        key_id: string;
        revoked_at: string | null;
      }>
    )
      .filter((k) => k.revoked_at === null)
      .map((k) => k.key_id)
      .sort();

  test("operator keys and keys created without `scopes` hold the creator's scopes", async () => {
    const own = await t.request("GET", "/v1/api-keys?limit=200", { key: tenant.key });
    expect(
      own.body.items.find((k: { key_id: string }) => k.key_id === tenant.keyId).scopes,
    ).toEqual([...SCOPES]);
    const full = await t.request("POST", "/v1/api-keys", {
      key: tenant.key,
      body: { name: "inherits all" },
    });
    expect(full.body.scopes).toEqual([...SCOPES]);
    const narrow = await keyWith(["memories:read", "admin"]);
    const inherited = await t.request("POST", "/v1/api-keys", {
      key: narrow,
      body: { name: "inherits narrow" },
    });
    expect(inherited.status, show(inherited)).toBe(201);
    expect(inherited.body.scopes).toEqual(["memories:read", "admin"]);
  });

  test("a key can only grant scopes it holds: a superset is 403 naming the missing scopes, and nothing is created", async () => {
    const narrow = await keyWith(["memories:read", "admin"]);
    const before = await liveKeyIds(tenant.key);
    const r = await t.request("POST", "/v1/api-keys", {
      key: narrow,
      body: {
        name: "escalate",
        scopes: ["memories:read", "memories:write", "audit:read", "admin"],
      },
    });
    expect(r.status, show(r)).toBe(403);
    expect(r.body.type).toEndWith("/errors/insufficient-scope");
    expect(r.body.missing_scopes).toEqual(["memories:write", "audit:read"]);
    expect(await liveKeyIds(tenant.key)).toEqual(before);
    const subset = await t.request("POST", "/v1/api-keys", {
      key: narrow,
      body: { name: "subset", scopes: ["memories:read"] },
    });
    expect(subset.status, show(subset)).toBe(201);
    // The narrowed key cannot widen itself back either: without admin it cannot create keys at all.
    const noAdmin = await t.request("POST", "/v1/api-keys", {
      key: subset.body.key,
      body: { name: "again" },
    });
    expect(noAdmin.status).toBe(403);
    expect(noAdmin.body.missing_scopes).toEqual(["admin"]);
  });

  test("unknown, empty or duplicated scopes are a 422 naming the field", async () => {
    for (const scopes of [["memories:delete"], [], ["admin", "admin"], "admin"]) {
      const r = await t.request("POST", "/v1/api-keys", {
        key: tenant.key,
        body: { name: "bad", scopes },
      });
      expect(r.status, `${JSON.stringify(scopes)}: ${show(r)}`).toBe(422);
      expect(r.body.detail).toContain("scopes");
    }
  });
});

describe("per-tenant cap on live keys (API_KEYS_MAX_ACTIVE)", () => {
  test("the key past the cap is a 409 key-limit-reached; revoking one makes room; concurrent creates never overshoot", async () => {
    const capped = await testApp({ API_KEYS_MAX_ACTIVE: 3 });
    try {
      const owner = await capped.tenant("cap");
      const other = await capped.tenant("cap-other");
      const created: string[] = [];
      for (let i = 0; i < 2; i++) {
        const r = await capped.request("POST", "/v1/api-keys", {
          key: owner.key,
          body: { name: `k${i}` },
        });
        expect(r.status, show(r)).toBe(201);
        created.push(r.body.key_id);
      }
      const over = await capped.request("POST", "/v1/api-keys", {
        key: owner.key,
        body: { name: "one too many" },
      });
      expect(over.status, show(over)).toBe(409);
      expect(over.headers.get("content-type")).toStartWith("application/problem+json");
      expect(over.body.type).toEndWith("/errors/key-limit-reached");
      expect(over.body.max_active_keys).toBe(3);
      expect(over.body.detail).toContain("API_KEYS_MAX_ACTIVE");
      // Another tenant's count is its own.
      expect(
        (
          await capped.request("POST", "/v1/api-keys", {
            key: other.key,
            body: { name: "elsewhere" },
          })
        ).status,
      ).toBe(201);

      expect(
        (await capped.request("DELETE", `/v1/api-keys/${created[0]}`, { key: owner.key })).status,
      ).toBe(200);
      const burst = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          capped.request("POST", "/v1/api-keys", { key: owner.key, body: { name: `race${i}` } }),
        ),
      );
      expect(burst.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      const live = (
        await capped.request("GET", "/v1/api-keys?limit=200", { key: owner.key })
      ).body.items.filter((k: { revoked_at: unknown }) => k.revoked_at === null);
      expect(live.length).toBe(3);
    } finally {
      await capped.close();
    }
  });

  test("operator keys (CLI, boot) are outside the cap and hold full access", async () => {
    const capped = await testApp({ API_KEYS_MAX_ACTIVE: 1 });
    try {
      const owner = await capped.tenant("cap-op");
      const extra = await createKey(capped.deps.db, systemActor(owner.orgId), "operator");
      expect(extra.scopes).toEqual([...SCOPES]);
      const r = await capped.request("POST", "/v1/api-keys", {
        key: owner.key,
        body: { name: "tenant-made" },
      });
      expect(r.status, show(r)).toBe(409);
    } finally {
      await capped.close();
    }
  });
});
