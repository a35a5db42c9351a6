// Audit listener latency: the real LISTEN/NOTIFY listener (as `svc worker` runs it) drains each
// store's audit row; measured from the store's 201 to the row's appearance in audit_log (polled
// every 2 ms).
import { withTenantRead } from "../../src/data/with-tenant";
import { startAuditListener } from "../../src/data/listen";
import { drainAudit } from "../../src/domain/audit/drain";
import type { BenchApp } from "./bench-app";
import { AGENT } from "./load-corpus";
import { percentile } from "./stats";

export type ListenerLatency = {
  writes: number;
  debounceMs: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
};

export async function listenerLatency(app: BenchApp, writes = 200): Promise<ListenerLatency> {
  const { config, log, db } = app.deps;
  const debounceMs = config.SVC_AUDIT_LISTEN_DEBOUNCE_MS;
  const listener = startAuditListener({
    url: app.databaseUrl,
    log,
    debounceMs,
    fallbackPollMs: 60_000,
    drain: async (orgIds) => {
      if (orgIds === null) return (await drainAudit(db)).drained;
      let drained = 0;
      for (const orgId of orgIds) drained += (await drainAudit(db, { orgId })).drained;
      return drained;
    },
  });
  try {
    // The bench app runs no worker, so the recalls measured before this left their audit rows
    // pending: drain that backlog first, or the first probe waits for it and the figure is the
    // backlog's, not the listener's.
    await drainAudit(db);
    const deadline = Date.now() + 10_000;
    while (listener.listens() === 0 && Date.now() < deadline) await Bun.sleep(20);
    const latencies: number[] = [];
    for (let i = 0; i < writes; i++) {
      const res = await app.call("POST", "/v1/memories", {
        agent_id: AGENT,
        content: `listener probe ${i}`,
      });
      if (res.status !== 201) throw new Error(`store answered ${res.status}`);
      const acknowledged = performance.now();
      const id = res.body.memory_id as string;
      for (;;) {
        const [row] = await withTenantRead(
          db,
          app.orgId,
          (tx) => tx`SELECT 1 AS found FROM audit_log WHERE ${id} = ANY(target_ids) LIMIT 1`,
        );
        if (row) break;
        if (performance.now() - acknowledged > 30_000)
          throw new Error(`audit row of ${id} not drained within 30 s`);
        await Bun.sleep(2);
      }
      latencies.push(performance.now() - acknowledged);
    }
    latencies.sort((a, b) => a - b);
    return {
      writes,
      debounceMs,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      max: latencies[latencies.length - 1]!,
    };
  } finally {
    await listener.close();
  }
}
