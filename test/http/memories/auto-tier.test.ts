// MEMORY_TIER_AUTO_ROUTE: the documented rules pick memory_type when the caller gives none.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { autoMemoryType } from "../../../src/domain/memories/auto-tier";
import { testApp, show, type TestApp, type Tenant } from "../../harness/app";

describe("autoMemoryType rules (docs/memories.md)", () => {
  test.each([
    ["TODO: rotate the staging credentials", null, "working"],
    ["Remind me to call Alice back", null, "working"],
    ["The build is currently broken on main", null, "working"],
    ["Alice's favourite colour is green", 3600, "working"],
    ["How to rotate the API key: open settings, then revoke", null, "procedural"],
    ["1. Stop the worker\n2. Run migrations\n3. Start the worker", null, "procedural"],
    ["Yesterday the deploy failed because of a missing env var", null, "episodic"],
    ["We shipped version 2.0 to production", null, "episodic"],
    ["Incident on 2025-03-14: database failover", null, "episodic"],
    ["Alice's favourite colour is green", null, "semantic"],
    ["Paris is the capital of France", 7 * 86_400, "semantic"],
  ] as const)("%j (ttl %p) → %s", (content, ttl, expected) => {
    expect(autoMemoryType(content, ttl)).toBe(expected);
  });
});

describe("through the API", () => {
  let on: TestApp;
  let off: TestApp;
  let a: Tenant;
  let b: Tenant;
  beforeAll(async () => {
    on = await testApp({ MEMORY_TIER_AUTO_ROUTE: true });
    off = await testApp();
    a = await on.tenant();
    b = await off.tenant();
  });
  afterAll(async () => {
    await on.close();
    await off.close();
  });

  test("assigns a type when none is given, and never overrides an explicit one", async () => {
    const auto = await on.request("POST", "/v1/memories", {
      key: a.key,
      body: { agent_id: "x", content: "How to restart the queue: run svc worker" },
    });
    expect(auto.status, show(auto)).toBe(201);
    expect(auto.body.memory_type).toBe("procedural");
    const batch = await on.request("POST", "/v1/memories/batch", {
      key: a.key,
      body: {
        memories: [
          { agent_id: "x", content: "Yesterday we met the vendor" },
          { agent_id: "x", content: "Water boils at 100 °C" },
          { agent_id: "x", content: "TODO ship it", memory_type: "semantic" },
        ],
      },
    });
    expect(batch.body.memories.map((m: any) => m.memory_type)).toEqual([
      "episodic",
      "semantic",
      "semantic",
    ]);
  });

  test("is off by default: everything without a type is semantic", async () => {
    const r = await off.request("POST", "/v1/memories", {
      key: b.key,
      body: { agent_id: "x", content: "How to restart the queue: run svc worker" },
    });
    expect(r.body.memory_type).toBe("semantic");
  });
});
