// `svc keys create --scopes` (issue 15, key scopes): the CLI mints a key holding exactly the listed
// scopes, which the real app then enforces; an unknown scope is a usage error listing the allowed
// set, and nothing is created; without --scopes the key holds every scope, as before.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SCOPES } from "../../src/lib/scopes";
import { show, testApp, type TestApp } from "../harness/app";
import { runSvc, serviceEnv } from "../harness/process";

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const create = (org: string, ...flags: string[]) =>
  runSvc(["keys", "create", "--org", org, ...flags], serviceEnv());

describe("svc keys create --scopes", () => {
  test("a read/write key stores and recalls but cannot manage keys", async () => {
    const org = `cli-scopes-${process.pid}`;
    const r = await create(org, "--scopes", "memories:write, memories:read");
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim());
    expect(out.scopes).toEqual(["memories:read", "memories:write"]);
    const stored = await t.request("POST", "/v1/memories", {
      key: out.key,
      body: { agent_id: "cli", content: "scoped by the CLI" },
    });
    expect(stored.status, show(stored)).toBe(201);
    const recalled = await t.request("POST", "/v1/memories/recall", {
      key: out.key,
      body: { agent_id: "cli", query: "scoped" },
    });
    expect(recalled.status, show(recalled)).toBe(200);
    const keys = await t.request("GET", "/v1/api-keys", { key: out.key });
    expect(keys.status, show(keys)).toBe(403);
    expect(keys.body.missing_scopes).toEqual(["admin"]);
  });

  test("without --scopes the key holds every scope", async () => {
    const r = await create(`cli-scopes-full-${process.pid}`);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim());
    expect(out.scopes).toEqual([...SCOPES]);
    const listed = await t.request("GET", "/v1/api-keys", { key: out.key });
    expect(listed.status, show(listed)).toBe(200);
    expect(
      listed.body.items.find((k: { key_id: string }) => k.key_id === out.key_id).scopes,
    ).toEqual([...SCOPES]);
  });

  const refused: Array<[string, string[], RegExp]> = [
    [
      "an unknown scope",
      ["--scopes", "memories:read,memories:delete"],
      /unknown scope memories:delete in --scopes \(allowed: memories:read, memories:write, forge:write, audit:read, export, admin\)/,
    ],
    [
      "an empty list",
      ["--scopes", ""],
      /--scopes is a comma-separated list of one or more scopes \(allowed: /,
    ],
    ["a scope named twice", ["--scopes", "admin,admin"], /--scopes names a scope twice/],
  ];
  for (const [what, flags, message] of refused) {
    test(`${what} is a usage error (exit 2) naming the allowed set, and creates nothing`, async () => {
      const org = `cli-scopes-bad-${process.pid}-${what.length}`;
      const r = await create(org, ...flags);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
      const [row] = await t.deps.db
        .primary`SELECT count(*)::int AS n FROM orgs WHERE name = ${org}`;
      expect(row!.n).toBe(0);
    });
  }

  test("--scopes with --superadmin is a usage error", async () => {
    const r = await runSvc(["keys", "create", "--superadmin", "--scopes", "admin"], serviceEnv());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--scopes is for tenant keys");
  });
});
