// CODE's postings (sql/0440, docs/recall.md), in both database modes: memory_code_tokens holds
// exactly the identifier tokens (and the empty counting token) of every current version marked as
// code, whatever wrote it (batch store, PATCH, forget, a memory that stops being code); CODE
// answers from them, ranks a rare identifier above common words, applies the caller's filters and
// never sees another tenant's postings.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "../../../src/data/pools";
import { withTenant } from "../../../src/data/with-tenant";
import { show, type Tenant, type TestApp } from "../../harness/app";
import { twoTenantModes } from "../../harness/two-tenant-modes";
import { idsOf, recall, seed } from "./seed";

const AGENT = "agent-code-postings";
const CODE = { kind: "code", language: "python" };

/**
 * Every difference between the tenant's code postings and its current code versions; [] when they
 * agree.
 */
async function drift(
  db: Database,
  orgId: string,
): Promise<Array<{ side: string; memory_id: string; token: string }>> {
  return [
    ...(await withTenant(
      db,
      orgId,
      (tx) => tx<Array<{ side: string; memory_id: string; token: string }>>`
    WITH postings AS (SELECT agent_id, token, memory_id, version FROM memory_code_tokens),
    documents AS (
      SELECT m.agent_id, t.token, m.memory_id, m.version FROM memories m, svc_code_postings(m.content, m.metadata) AS t(token)
      WHERE m.valid_to IS NULL AND svc_marks_code(m.metadata)
    )
    SELECT 'extra' AS side, memory_id, token FROM (SELECT * FROM postings EXCEPT ALL SELECT * FROM documents) AS extra
    UNION ALL SELECT 'missing', memory_id, token FROM (SELECT * FROM documents EXCEPT ALL SELECT * FROM postings) AS missing`,
    )),
  ];
}

const postingsOf = async (
  db: Database,
  orgId: string,
  memoryId: string,
): Promise<Array<{ version: number; token: string }>> => [
  ...(await withTenant(
    db,
    orgId,
    (tx) =>
      tx<
        Array<{ version: number; token: string }>
      >`SELECT version, token FROM memory_code_tokens WHERE memory_id = ${memoryId} ORDER BY version, token`,
  )),
];

const modes = twoTenantModes("code-postings");

for (const mode of modes) {
  describe(mode.name, () => {
    let app: TestApp;
    let tenant: Tenant;
    let other: Tenant;
    let close: () => Promise<void>;
    beforeAll(async () => {
      let tenants: [Tenant, Tenant];
      ({ app, tenants, close } = await mode.open());
      [tenant, other] = tenants;
    }, 60_000);
    afterAll(() => close());

    const code = async (key: string, query: string, extra: Record<string, unknown> = {}) => {
      const res = await recall(app, key, {
        agent_id: AGENT,
        query,
        strategy: "CODE",
        top_k: 5,
        ...extra,
      });
      expect(res.status, show(res)).toBe(200);
      return idsOf(res);
    };

    test("stores post the tokens of code versions only; a rare identifier outranks common words", async () => {
      const common = Array.from({ length: 6 }, (_, i) => ({
        content: `def read_file_${i}(path):\n    return open(path).read()`,
        metadata: CODE,
      }));
      const ids = await seed(app, tenant, AGENT, [
        ...common,
        { content: "def checksum_archive(path):\n    return open(path).read()", metadata: CODE },
        { content: "read the checksum_archive notes before the release" }, // prose: never a CODE answer
      ]);
      expect(await drift(app.deps.db, tenant.orgId)).toEqual([]);
      expect(await postingsOf(app.deps.db, tenant.orgId, ids[7]!)).toEqual([]);
      expect((await postingsOf(app.deps.db, tenant.orgId, ids[6]!)).map((p) => p.token)).toEqual(
        expect.arrayContaining(["", "checksum", "archive", "checksum_archive"]),
      );
      const found = await code(tenant.key, "read checksum archive from path");
      expect(found[0]).toBe(ids[6]!);
      expect(found).not.toContain(ids[7]!);
      expect(await code(other.key, "checksum archive")).toEqual([]);
      expect(
        await code(tenant.key, "checksum archive", { filters: { memory_type: "episodic" } }),
      ).toEqual([]);
    });

    test("a PATCH moves the postings to the new version, a forget removes them, and CODE follows", async () => {
      const [id] = await seed(app, tenant, AGENT, [
        { content: "def render_invoice(order): pass", metadata: CODE },
      ]);
      expect(await code(tenant.key, "render_invoice")).toEqual([id!]);
      const patch = await app.request("PATCH", `/v1/memories/${id}`, {
        key: tenant.key,
        body: { content: "def print_receipt(order): pass" },
      });
      expect(patch.status, show(patch)).toBe(200);
      expect(
        new Set((await postingsOf(app.deps.db, tenant.orgId, id!)).map((p) => p.version)),
      ).toEqual(new Set([2]));
      expect(await code(tenant.key, "render_invoice")).toEqual([]);
      expect(await code(tenant.key, "print_receipt")).toEqual([id!]);
      expect(await drift(app.deps.db, tenant.orgId)).toEqual([]);

      const forget = await app.request("POST", "/v1/memories/forget", {
        key: tenant.key,
        body: { memory_id: id },
      });
      expect(forget.status, show(forget)).toBe(200);
      expect(await postingsOf(app.deps.db, tenant.orgId, id!)).toEqual([]);
      expect(await code(tenant.key, "print_receipt")).toEqual([]);
      expect(await drift(app.deps.db, tenant.orgId)).toEqual([]);
    });
  });
}
