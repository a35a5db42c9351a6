// Refine test helpers: start a run over HTTP and wait for it to settle, and read rows back through
// withTenant.
import { expect } from "bun:test";
import { withTenant } from "../../../src/data/with-tenant";
import { show, type TestApp } from "../../harness/app";
import { eventually } from "../../queue/wait";

export type Caller = { request: TestApp["request"] };

/**
 * POST /v1/refine, then polls GET /v1/refine/{job_id} until the run settles; returns the final
 * status body.
 */
export async function refine(
  t: Caller,
  key: string,
  body: Record<string, unknown>,
  timeoutMs = 30_000,
): Promise<any> {
  const started = await t.request("POST", "/v1/refine", { key, body });
  expect(started.status, show(started)).toBe(202);
  return settled(t, key, started.body.job_id, timeoutMs);
}

export async function settled(
  t: Caller,
  key: string,
  jobId: string,
  timeoutMs = 30_000,
): Promise<any> {
  return eventually(
    async () => {
      const r = await t.request("GET", `/v1/refine/${jobId}?limit=200`, { key });
      return ["succeeded", "failed", "rejected"].includes(r.body?.state) ? r.body : null;
    },
    `refine job ${jobId} to settle`,
    timeoutMs,
  );
}

export const passOf = (status: any, name: string) =>
  status.passes.find((p: { name: string }) => p.name === name);

export async function edgeRow(db: TestApp["deps"]["db"], orgId: string, edgeId: string) {
  const [row] = await withTenant(
    db,
    orgId,
    (tx) =>
      tx`SELECT weight, feedback_count, expired_at, expired_reason, origin, src_memo_id, dst_memo_id FROM edges WHERE edge_id = ${edgeId}`,
  );
  return row as {
    weight: number;
    feedback_count: number;
    expired_at: Date | null;
    expired_reason: string | null;
    origin: string;
    src_memo_id: string;
    dst_memo_id: string;
  };
}
