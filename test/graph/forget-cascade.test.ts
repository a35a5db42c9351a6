// Forget reaches the graph on every path that forgets (API, TTL sweep, retention cap), in the
// forget's transaction: provenance deleted, edges left without a source expired (superseded ones
// too, so as_of views cannot show them), orphan memos retired, stale SUMMARY memos retired, shared
// facts kept with one mention less; the forget certificate (v2) lists the retired rows and
// verifies; v1 certificates still do.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { withTenant } from "../../src/data/with-tenant";
import { canonicalJson } from "../../src/domain/audit/canonical";
import { rootOf } from "../../src/domain/forget-proof/certificate";
import { verifyCertificate } from "../../src/domain/forget-proof/verify";
import { sha256Hex } from "../../src/lib/hash";
import { newId } from "../../src/lib/ids";
import { enforceRetentionCaps } from "../../src/domain/memories/retention";
import { sweepExpiredMemories } from "../../src/domain/memories/sweep-expired";
import { show, privateTestApp, type TestApp, type Tenant } from "../harness/app";
import { fixtureExtractor } from "./fixture-extractor";
import { distill, edgesOf, live, memosOf, storeAll } from "./helpers";

let t: TestApp;
let tenant: Tenant;
let publicKey: string;
const extractor = fixtureExtractor();

beforeAll(async () => {
  t = await privateTestApp("forget_cascade", { FORGET_PROOF_ENABLED: true });
  tenant = await t.tenant("forget-graph");
  publicKey = (await t.request("GET", "/v1/forget/keys", { key: tenant.key })).body.keys[0]
    .public_key;
});
afterAll(() => t.close());

const forget = (ids: string[]) =>
  t.request("POST", "/v1/memories/forget", { key: tenant.key, body: { memory_ids: ids } });
/** The nodes and edges graph/data returns (not the echo of the request's own `around`). */
const graphText = async (agent: string, query = "") => {
  const res = await t.request("GET", `/v1/graph/data?agent_id=${agent}${query}`, {
    key: tenant.key,
  });
  expect(res.status, show(res)).toBe(200);
  return JSON.stringify({ nodes: res.body.nodes, edges: res.body.edges });
};

describe("forget cascades into the graph", () => {
  test("API forget: unshared facts expire, shared ones lose a mention, orphans retire; the certificate lists them", async () => {
    const agent = "api";
    const [both, works, paris, berlin] = await storeAll(t, tenant, agent, [
      "Alice works at Acme. Acme has its headquarters in Berlin.",
      "Alice is employed by Acme.",
      "In 2019 Alice moved to Paris.",
      "In 2023 Alice moved to Berlin.",
    ]);
    await distill(t, tenant, extractor, agent, [both!, works!, paris!, berlin!]);

    const first = await forget([both!]);
    expect(first.status, show(first)).toBe(200);
    const edges = await edgesOf(t, tenant, agent);
    expect(edges.find((e) => e.relation === "LOCATED_IN")).toMatchObject({
      expired_reason: "source_forgotten",
      sources: 0,
    });
    expect(edges.find((e) => e.relation === "WORKS_AT")).toMatchObject({
      expired_reason: null,
      mention_count: 1,
      sources: 1,
    });
    expect(
      live(await memosOf(t, tenant, agent))
        .map((m) => m.name)
        .sort(),
    ).toEqual(["Acme", "Alice", "Berlin", "Paris"]);
    expect(await graphText(agent, "&include_expired=true")).not.toContain("headquarters");

    // The superseded Paris edge is expired already; forgetting its only source relabels it so as_of
    // views cannot show it.
    expect(await graphText(agent, "&as_of=2020-01-01T00:00:00Z")).toContain("Paris");
    const second = await forget([paris!]);
    const pariEdge = edges.find((e) => e.dst === "Paris")!;
    expect(
      (await edgesOf(t, tenant, agent)).find((e) => e.edge_id === pariEdge.edge_id),
    ).toMatchObject({ expired_reason: "source_forgotten" });
    for (const query of [
      "",
      "&as_of=2020-01-01T00:00:00Z",
      "&include_expired=true",
      "&around=Paris",
      "&around=Alice&depth=3&include_expired=true",
    ]) {
      expect(await graphText(agent, query), query).not.toContain("Paris");
    }
    const parisMemo = (await memosOf(t, tenant, agent)).find((m) => m.name === "Paris")!;
    expect(parisMemo.retired_reason).toBe("source_forgotten");

    const cert = await t.request("GET", `/v1/forget/${second.body.cert_id}`, { key: tenant.key });
    expect(cert.status, show(cert)).toBe(200);
    expect(cert.body).toMatchObject({
      version: 2,
      tree_size: 3,
      derived: [
        { kind: "edge", id: pariEdge.edge_id, digest: sha256Hex("In 2019 Alice moved to Paris.") },
        { kind: "memo", id: parisMemo.memo_id, digest: sha256Hex("Paris") },
      ],
    });
    expect(await verifyCertificate(cert.text, publicKey)).toEqual({
      ok: true,
      cert_id: second.body.cert_id,
    });
    const tampered = JSON.parse(cert.text);
    tampered.derived = [];
    expect((await verifyCertificate(JSON.stringify(tampered), publicKey)).ok).toBe(false);
  });

  test("a version 1 certificate (items only) still verifies", async () => {
    const items = [{ memory_id: newId("mem"), version: 1, content_hash: sha256Hex("old") }];
    const payload = {
      version: 1,
      cert_id: newId("cert"),
      org_id: tenant.orgId,
      issued_at: new Date().toISOString(),
      reason: "api",
      items,
      tree_size: 1,
      merkle_root: rootOf(items),
      merkle_algorithm: "rfc9162-sha256",
      signature_algorithm: "ed25519",
      key_id: await t.deps.forgetSigner!.keyId(),
      public_key: publicKey,
    };
    const text = canonicalJson(payload);
    const doc = JSON.stringify({
      ...payload,
      payload: text,
      signature: await t.deps.forgetSigner!.sign(utf8ToBytes(text)),
    });
    expect(await verifyCertificate(doc, publicKey)).toEqual({ ok: true, cert_id: payload.cert_id });
  });

  test("the TTL sweep and the retention cap cascade the same way", async () => {
    const ttl = await t.request("POST", "/v1/memories", {
      key: tenant.key,
      body: { agent_id: "ttl", content: "Bob uses Postgres.", ttl_seconds: 60 },
    });
    expect(ttl.status, show(ttl)).toBe(201);
    await distill(t, tenant, extractor, "ttl", [ttl.body.memory_id]);
    expect(live(await edgesOf(t, tenant, "ttl")).length).toBe(1);
    expect(
      await sweepExpiredMemories(t.deps.db, new Date(Date.now() + 120_000)),
    ).toBeGreaterThanOrEqual(1);
    expect(live(await edgesOf(t, tenant, "ttl"))).toEqual([]);
    expect(live(await memosOf(t, tenant, "ttl"))).toEqual([]);

    const stored = [];
    for (const [content, importance] of [
      ["Dave mentors Erin.", 0.1],
      ["Bob knows Alice.", 0.9],
      ["Alice works at Acme.", 0.8],
    ] as const) {
      const res = await t.request("POST", "/v1/memories", {
        key: tenant.key,
        body: { agent_id: "capped", content, importance },
      });
      stored.push(res.body.memory_id as string);
    }
    await distill(t, tenant, extractor, "capped", stored);
    expect(await enforceRetentionCaps(t.deps.db, 2)).toBeGreaterThanOrEqual(1);
    expect(
      live(await edgesOf(t, tenant, "capped"))
        .map((e) => e.relation)
        .sort(),
    ).toEqual(["KNOWS", "WORKS_AT"]);
    expect(
      live(await memosOf(t, tenant, "capped"))
        .map((m) => m.name)
        .sort(),
    ).toEqual(["Acme", "Alice", "Bob"]);
  });

  test("a SUMMARY memo whose cluster contained a forgotten memory's memo is retired with its SUMMARIZES edges", async () => {
    const agent = "summary";
    const [m1, m2] = await storeAll(t, tenant, agent, ["Bob uses Postgres.", "Bob knows Alice."]);
    await distill(t, tenant, extractor, agent, [m1!, m2!]);
    const memos = await memosOf(t, tenant, agent);
    const summaryId = newId("memo");
    await withTenant(t.deps.db, tenant.orgId, async (tx) => {
      await tx`INSERT INTO memos (org_id, memo_id, agent_id, memo_type, name, normalized_name, description, origin)
        VALUES (${tenant.orgId}, ${summaryId}, ${agent}, 'SUMMARY', 'Bob and his tools', 'bob and his tools', 'Bob uses Postgres and knows Alice', 'summary')`;
      for (const member of memos) {
        await tx`INSERT INTO edges (org_id, edge_id, agent_id, src_memo_id, dst_memo_id, relation, fact, origin, confidence, weight)
          VALUES (${tenant.orgId}, ${newId("edge")}, ${agent}, ${summaryId}, ${member.memo_id}, 'SUMMARIZES', 'summary member', 'structural', 1, 1)`;
      }
    });
    const res = await forget([m1!]);
    const cert = await t.request("GET", `/v1/forget/${res.body.cert_id}`, { key: tenant.key });
    expect(cert.body.derived.filter((d: { id: string }) => d.id === summaryId).length).toBe(1);
    const after = await memosOf(t, tenant, agent);
    expect(after.find((m) => m.memo_id === summaryId)!.retired_reason).toBe("stale_summary");
    expect(
      live(after)
        .map((m) => m.name)
        .sort(),
    ).toEqual(["Alice", "Bob"]);
    expect(live(await edgesOf(t, tenant, agent)).map((e) => e.relation)).toEqual(["KNOWS"]);
  });
});
