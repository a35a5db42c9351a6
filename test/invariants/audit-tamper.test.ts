// 500 random tamperings of a copied chain (flip, delete, reorder, insert, truncate) are all
// detected, and `svc audit verify` names the first broken row of a chain tampered in the database
// itself.
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { readChainHead, readChainPage } from "../../src/data/queries/audit/audit";
import { withTenant, withTenantRead } from "../../src/data/with-tenant";
import { systemActor } from "../../src/domain/actor";
import { chainHash } from "../../src/domain/audit/canonical";
import { drainAudit } from "../../src/domain/audit/drain";
import { toStoredChainRow, verifyOrgChain } from "../../src/domain/audit/list";
import { recordAudit } from "../../src/domain/audit/record";
import {
  verifyChain,
  type ChainHead,
  type StoredChainRow,
} from "../../src/domain/audit/verify-chain";
import { testApp, type TestApp } from "../harness/app";
import { runSvc, serviceEnv } from "../harness/process";

let t: TestApp;
let orgId: string;
let chain: StoredChainRow[];
let head: ChainHead;

beforeAll(async () => {
  t = await testApp();
  orgId = (await t.tenant("tamper")).orgId;
  for (let i = 0; i < 6; i++) {
    await withTenant(t.deps.db, orgId, (tx) =>
      recordAudit(
        tx,
        systemActor(orgId, `req_${i}`),
        Array.from({ length: 10 }, (_, j) => ({
          operation: j % 3 === 0 ? ("recall" as const) : ("store" as const),
          agentId: `agent-${j % 4}`,
          targetIds: [`mem_${i}_${j}`],
          detail: { i, j, score: j / 7, tags: ["x", `é${j}`] },
        })),
      ),
    );
    await drainAudit(t.deps.db, { orgId, batchSize: 7 });
  }
  chain = (await withTenantRead(t.deps.db, orgId, (tx) => readChainPage(tx, 0, 1000))).map(
    toStoredChainRow,
  );
  head = await withTenantRead(t.deps.db, orgId, readChainHead);
});
afterAll(() => t.close());

const copy = (rows: StoredChainRow[]) => rows.map((r) => structuredClone(r));
const flipHex = (hex: string, at: number) =>
  hex.slice(0, at) + (hex[at] === "0" ? "1" : "0") + hex.slice(at + 1);

type Tamper = (rows: StoredChainRow[], pick: number, pick2: number) => StoredChainRow[];
const TAMPERS: Record<string, Tamper> = {
  flipOperation: (r, i) => {
    r[i]!.operation += "x";
    return r;
  },
  flipAgent: (r, i) => {
    r[i]!.agent_id = r[i]!.agent_id === null ? "a" : null;
    return r;
  },
  flipTarget: (r, i) => {
    r[i]!.target_ids = [...r[i]!.target_ids, "mem_extra"];
    return r;
  },
  flipDetail: (r, i) => {
    (r[i]!.detail as Record<string, unknown>).i = 1e6;
    return r;
  },
  flipTime: (r, i) => {
    r[i]!.occurred_at += 1;
    return r;
  },
  flipRequest: (r, i) => {
    r[i]!.request_id = `${r[i]!.request_id}!`;
    return r;
  },
  flipHash: (r, i, j) => {
    r[i]!.hash = flipHex(r[i]!.hash, j % 64);
    return r;
  },
  flipPrevHash: (r, i, j) => {
    r[i]!.prev_hash = flipHex(r[i]!.prev_hash, j % 64);
    return r;
  },
  flipSeq: (r, i) => {
    r[i]!.seq += 1;
    return r;
  },
  delete: (r, i) => {
    r.splice(i, 1);
    return r;
  },
  reorder: (r, i, j) => {
    const k = i === j % r.length ? (i + 1) % r.length : j % r.length;
    [r[i], r[k]] = [r[k]!, r[i]!];
    return r;
  },
  insertCopy: (r, i) => {
    r.splice(i, 0, structuredClone(r[i]!));
    return r;
  },
  insertForged: (r, i) => {
    const prev = i === 0 ? "0".repeat(64) : r[i - 1]!.hash;
    const forged = { ...structuredClone(r[i]!), operation: "forget", prev_hash: prev };
    forged.hash = chainHash(prev, forged);
    r.splice(i, 0, forged);
    return r;
  },
  rehashFromHere: (r, i) => {
    r[i]!.operation = "forget";
    for (let k = i; k < r.length; k++) {
      r[k]!.prev_hash = k === 0 ? "0".repeat(64) : r[k - 1]!.hash;
      r[k]!.hash = chainHash(r[k]!.prev_hash, r[k]!);
    }
    return r;
  },
  truncate: (r, i) => r.slice(0, Math.min(i, r.length - 1)),
};

test("the untampered copy verifies", () => {
  expect(chain.length).toBe(61);
  expect(verifyChain(orgId, chain, head)).toEqual({ ok: true, rows: 61 });
});

test("500 random tamperings are all detected", () => {
  const kinds = Object.keys(TAMPERS);
  const seen = new Set<string>();
  fc.assert(
    fc.property(fc.constantFrom(...kinds), fc.nat(), fc.nat(), (kind, a, b) => {
      seen.add(kind);
      const tampered = TAMPERS[kind]!(copy(chain), a % chain.length, b);
      const verdict = verifyChain(orgId, tampered, head);
      expect(verdict.ok, kind).toBe(false);
    }),
    { numRuns: 500, seed: 20261122 },
  );
  expect(seen.size).toBe(kinds.length);
});

test("a row edited in the database is named by the verifier", async () => {
  await t.owner.begin(async (tx) => {
    // the owner: the serving login has no UPDATE on audit_log
    await tx`SELECT set_config('app.current_org_id', ${orgId}, true)`;
    await tx`UPDATE audit_log SET detail = detail || '{"tampered": true}' WHERE seq = 17`;
  });
  const verdict = await verifyOrgChain(t.deps.db, orgId, 10);
  expect(verdict.ok).toBe(false);
  if (!verdict.ok) expect(verdict.firstBroken.seq).toBe(17);
});

test("svc audit verify exits 1 naming the broken row, and 0 on an intact chain", async () => {
  const broken = await runSvc(["audit", "verify", "--org", orgId], serviceEnv());
  expect(broken.code, broken.stderr).toBe(1);
  expect(JSON.parse(broken.stdout.trim())).toMatchObject({
    org_id: orgId,
    ok: false,
    first_broken_seq: 17,
  });
  const intact = (await t.tenant("intact")).orgId;
  await drainAudit(t.deps.db, { orgId: intact });
  const good = await runSvc(["audit", "verify", "--org", intact], serviceEnv());
  expect(good.code, good.stderr).toBe(0);
  expect(JSON.parse(good.stdout.trim())).toEqual({ org_id: intact, ok: true, rows: 1 });
  const unknown = await runSvc(["audit", "verify", "--org", "org_nope"], serviceEnv());
  expect(unknown.code).toBe(1);
}, 30_000);

test("undoing the edit makes the chain verify again (and leaves the run's database clean)", async () => {
  await t.owner.begin(async (tx) => {
    // the owner: the serving login has no UPDATE on audit_log
    await tx`SELECT set_config('app.current_org_id', ${orgId}, true)`;
    await tx`UPDATE audit_log SET detail = detail - 'tampered' WHERE seq = 17`;
  });
  expect(await verifyOrgChain(t.deps.db, orgId)).toEqual({ ok: true, rows: 61 });
});
