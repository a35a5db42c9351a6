// Shared steps of the graph tests: store memories over HTTP, run a distill job with a given
// extractor, and read graph rows through the tenant transaction (never raw owner SQL).
import { expect } from "bun:test";
import { findJob, insertJob, type JobRow } from "../../src/data/queries/jobs/jobs";
import { withTenant } from "../../src/data/with-tenant";
import type { Extractor } from "../../src/domain/forge/extract/types";
import { runDistillJob } from "../../src/domain/forge/distill/run";
import { newId } from "../../src/lib/ids";
import { show, type TestApp, type Tenant } from "../harness/app";

export async function storeAll(
  t: TestApp,
  tenant: Tenant,
  agentId: string,
  contents: string[],
): Promise<string[]> {
  const res = await t.request("POST", "/v1/memories/batch", {
    key: tenant.key,
    body: { memories: contents.map((content) => ({ agent_id: agentId, content })) },
  });
  expect(res.status, show(res)).toBe(201);
  return res.body.memories.map((m: { memory_id: string }) => m.memory_id);
}

/** Creates a distill job row as POST /v1/distill does and runs the pipeline in this process. */
export async function distill(
  t: TestApp,
  tenant: Tenant,
  extractor: Extractor,
  agentId: string,
  memoryIds: string[],
): Promise<JobRow> {
  const jobId = newId("job");
  await withTenant(t.deps.db, tenant.orgId, (tx) =>
    insertJob(tx, tenant.orgId, jobId, "distill", { agent_id: agentId, memory_ids: memoryIds }),
  );
  await runDistillJob(t.deps, extractor, tenant.orgId, jobId);
  return (await withTenant(t.deps.db, tenant.orgId, (tx) => findJob(tx, jobId)))!;
}

export type EdgeView = {
  edge_id: string;
  src: string;
  relation: string;
  dst: string;
  mention_count: number;
  weight: number;
  valid_at: Date | null;
  invalid_at: Date | null;
  expired_reason: string | null;
  superseded_by: string | null;
  sources: number;
};

/** Every edge of an agent with its endpoint names (through the tenant transaction). */
export function edgesOf(t: TestApp, tenant: Tenant, agentId: string): Promise<EdgeView[]> {
  return withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) => tx<EdgeView[]>`
    SELECT e.edge_id, s.name AS src, e.relation, d.name AS dst, e.mention_count, e.weight, e.valid_at, e.invalid_at, e.expired_reason, e.superseded_by,
      (SELECT count(*)::int FROM edge_sources x WHERE x.edge_id = e.edge_id) AS sources
    FROM edges e JOIN memos s ON s.memo_id = e.src_memo_id JOIN memos d ON d.memo_id = e.dst_memo_id
    WHERE e.agent_id = ${agentId} ORDER BY e.created_at, e.edge_id`,
  );
}

export function memosOf(
  t: TestApp,
  tenant: Tenant,
  agentId: string,
): Promise<
  Array<{
    memo_id: string;
    name: string;
    memo_type: string;
    mention_count: number;
    aliases: string[];
    retired_reason: string | null;
  }>
> {
  return withTenant(
    t.deps.db,
    tenant.orgId,
    (tx) => tx`
    SELECT memo_id, name, memo_type, mention_count, aliases, retired_reason FROM memos WHERE agent_id = ${agentId} ORDER BY created_at, name`,
  ) as never;
}

export const live = <T extends { expired_reason?: string | null; retired_reason?: string | null }>(
  rows: T[],
) => rows.filter((r) => (r.expired_reason ?? r.retired_reason ?? null) === null);
