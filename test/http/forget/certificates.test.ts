// Forget certificates (FORGET_PROOF_ENABLED): a forget returns cert_id; 200 certificates verify
// with only the published public key (also with node:crypto, independently of our verifier); 200
// single-byte mutations are all rejected; the CLI verifies offline; other tenants' ids are 404;
// gate off → absent.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createPublicKey, verify as nodeVerify } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { drainAudit } from "../../../src/domain/audit/drain";
import { sha256Hex } from "../../../src/lib/hash";
import { verifyCertificate } from "../../../src/domain/forget-proof/verify";
import { show, testApp, type TestApp, type Tenant } from "../../harness/app";
import { runSvc, serviceEnv } from "../../harness/process";

let t: TestApp;
let a: Tenant;
let b: Tenant;
let publicKey: string;
const documents: string[] = [];

beforeAll(async () => {
  t = await testApp({ FORGET_PROOF_ENABLED: true });
  a = await t.tenant("cert-a");
  b = await t.tenant("cert-b");
  const keys = await t.request("GET", "/v1/forget/keys", { key: a.key });
  expect(keys.status, show(keys)).toBe(200);
  publicKey = keys.body.keys[0].public_key;
});
afterAll(() => t.close());

async function storeMany(
  n: number,
  tag: string,
): Promise<Array<{ memory_id: string; content: string }>> {
  const memories = Array.from({ length: n }, (_, i) => ({
    agent_id: "agent-f",
    content: `${tag} fact number ${i}`,
  }));
  const res = await t.request("POST", "/v1/memories/batch", { key: a.key, body: { memories } });
  expect(res.status, show(res)).toBe(201);
  const items = (res.body.memories ?? res.body.items ?? res.body) as Array<{
    memory_id: string;
    content: string;
  }>;
  return items.map((m) => ({ memory_id: m.memory_id, content: m.content }));
}

describe("forget certificates", () => {
  test("a forget returns cert_id; the certificate names the forgotten versions and their Merkle root", async () => {
    const [m1, m2] = await storeMany(2, "single");
    const forget = await t.request("POST", "/v1/memories/forget", {
      key: a.key,
      body: { memory_ids: [m2!.memory_id, m1!.memory_id, "mem_unknown"] },
    });
    expect(forget.status, show(forget)).toBe(200);
    expect(forget.body.cert_id).toStartWith("cert_");
    const cert = await t.request("GET", `/v1/forget/${forget.body.cert_id}`, { key: a.key });
    expect(cert.status, show(cert)).toBe(200);
    const expectedItems = [m1!, m2!]
      .sort((x, y) => (x.memory_id < y.memory_id ? -1 : 1))
      .map((m) => ({ memory_id: m.memory_id, version: 1, content_hash: sha256Hex(m.content) }));
    expect(cert.body).toMatchObject({
      org_id: a.orgId,
      reason: "api",
      items: expectedItems,
      tree_size: 2,
      signature_algorithm: "ed25519",
      merkle_algorithm: "rfc9162-sha256",
      public_key: publicKey,
    });
    expect(await verifyCertificate(cert.text, publicKey)).toEqual({
      ok: true,
      cert_id: forget.body.cert_id,
    });
    await drainAudit(t.deps.db, { orgId: a.orgId });
    const audit = await t.request("GET", "/v1/audit?operation=forget.certificate", { key: a.key });
    expect(audit.body.items.length).toBe(1);
    expect(audit.body.items[0]).toMatchObject({
      target_ids: [forget.body.cert_id, ...expectedItems.map((i) => i.memory_id)],
      detail: {
        merkle_root: cert.body.merkle_root,
        tree_size: 2,
        key_id: cert.body.key_id,
        payload_sha256: sha256Hex(cert.body.payload),
      },
    });
  });

  test("nothing forgotten → cert_id null", async () => {
    const res = await t.request("POST", "/v1/memories/forget", {
      key: a.key,
      body: { memory_id: "mem_01ARZ3NDEKTSV4RRFFQ69G5FAV" },
    });
    expect(res.status).toBe(200);
    expect(res.body.cert_id).toBeNull();
  });

  test("200 certificates verify with only the public key", async () => {
    const stored = await storeMany(400, "bulk");
    let at = 0;
    for (let i = 0; i < 200; i++) {
      const take = 1 + (i % 3);
      const ids = stored.slice(at, at + take).map((m) => m.memory_id);
      if (i % 5 === 4) ids.push(stored[at - 1]!.memory_id); // already forgotten: lands in not_found, not in the certificate
      at += take;
      const forget = await t.request("POST", "/v1/memories/forget", {
        key: a.key,
        body: { memory_ids: ids },
      });
      expect(forget.body.cert_id, show(forget)).toStartWith("cert_");
      const cert = await t.request("GET", `/v1/forget/${forget.body.cert_id}`, { key: a.key });
      documents.push(cert.text);
    }
    const jwk = createPublicKey({
      key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(publicKey, "hex").toString("base64url") },
      format: "jwk",
    });
    for (const text of documents) {
      expect((await verifyCertificate(text, publicKey)).ok).toBe(true);
      const doc = JSON.parse(text);
      expect(
        nodeVerify(null, Buffer.from(doc.payload, "utf8"), jwk, Buffer.from(doc.signature, "hex")),
      ).toBe(true);
    }
    expect(documents.length).toBe(200);
  }, 60_000);

  test("200 single-byte mutations are all rejected", async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (d, at, delta) => {
          const bytes = new TextEncoder().encode(documents[d % documents.length]!);
          const position = at % bytes.length;
          bytes[position] = (bytes[position]! + delta) % 256;
          const verdict = await verifyCertificate(new TextDecoder().decode(bytes), publicKey);
          checked++;
          expect(verdict.ok).toBe(false);
        },
      ),
      { numRuns: 200, seed: 9162 },
    );
    expect(checked).toBe(200);
    const otherKey = "11".repeat(32);
    expect((await verifyCertificate(documents[0]!, otherKey)).ok).toBe(false);
  }, 30_000);

  test("svc forget verify checks a saved certificate offline", async () => {
    const dir = await mkdtemp(join(tmpdir(), "svc-cert-"));
    const good = join(dir, "good.json");
    const bad = join(dir, "bad.json");
    await writeFile(good, JSON.stringify(JSON.parse(documents[0]!), null, 2));
    await writeFile(bad, documents[0]!.replace(/"reason":"api"/g, '"reason":"apx"'));
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" };
    const ok = await runSvc(["forget", "verify", good, "--public-key", publicKey], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).ok).toBe(true);
    const ko = await runSvc(["forget", "verify", bad, "--public-key", publicKey], env);
    expect(ko.code).toBe(1);
    expect((await runSvc(["forget", "verify", good], env)).code).toBe(2);
  }, 30_000);

  test("other tenants' and malformed cert ids are 404", async () => {
    const certId = JSON.parse(documents[0]!).cert_id;
    for (const id of [certId, "cert_01ARZ3NDEKTSV4RRFFQ69G5FAV", "nope"]) {
      expect((await t.request("GET", `/v1/forget/${id}`, { key: b.key })).status).toBe(404);
    }
  });

  test("the generated key is persisted: a second app instance publishes the same public key", async () => {
    const again = await testApp({ FORGET_PROOF_ENABLED: true });
    try {
      const keys = await again.request("GET", "/v1/forget/keys", { key: a.key });
      expect(keys.body.keys[0].public_key).toBe(publicKey);
    } finally {
      await again.close();
    }
  });
});

test("FORGET_SIGNING_KEY sets the key; with the gate off the routes are absent and cert_id is null", async () => {
  const seed = Buffer.alloc(32, 7).toString("base64");
  const fixed = await testApp({ FORGET_PROOF_ENABLED: true, FORGET_SIGNING_KEY: seed });
  try {
    const tenant = await fixed.tenant("fixed");
    const key = (await fixed.request("GET", "/v1/forget/keys", { key: tenant.key })).body.keys[0]
      .public_key;
    expect(key).not.toBe(publicKey);
  } finally {
    await fixed.close();
  }
  const off = await testApp();
  try {
    const tenant = await off.tenant("off");
    expect((await off.request("GET", "/v1/forget/keys", { key: tenant.key })).status).toBe(404);
    const stored = await off.request("POST", "/v1/memories", {
      key: tenant.key,
      body: { agent_id: "x", content: "bye" },
    });
    const forget = await off.request("POST", "/v1/memories/forget", {
      key: tenant.key,
      body: { memory_id: stored.body.memory_id },
    });
    expect(forget.body).toMatchObject({ forgotten: [stored.body.memory_id], cert_id: null });
    expect(
      (await off.request("GET", "/v1/forget/cert_01ARZ3NDEKTSV4RRFFQ69G5FAV", { key: tenant.key }))
        .status,
    ).toBe(404);
  } finally {
    await off.close();
  }
});
