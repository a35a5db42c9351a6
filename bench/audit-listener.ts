// Audit listener write-to-visible latency: a real `svc worker` logic (startWorker with the listener
// on, no beat) against a throwaway database; each write is a real POST /v1/memories, and the clock
// stops when GET /v1/audit returns its row (polled every 2 ms). Run: node_modules/.bin/bun run
// bench/audit-listener.ts [writes=50] [debounce_ms=50]
import { startWorker } from "../src/queue/worker";
import { startBenchApp } from "./lib/bench-app";

const writes = Number(process.argv[2] ?? 50);
const debounceMs = Number(process.argv[3] ?? 50);
const app = await startBenchApp("listener", {
  SVC_AUDIT_LISTEN_ENABLED: true,
  SVC_AUDIT_LISTEN_DEBOUNCE_MS: debounceMs,
});
const worker = await startWorker(app.deps);
try {
  await Bun.sleep(500); // let the LISTEN connect and the startup catch-up drain finish
  const latencies: number[] = [];
  for (let i = 0; i < writes; i++) {
    const started = performance.now();
    const stored = await app.call("POST", "/v1/memories", {
      agent_id: "bench",
      content: `listener latency probe ${i}`,
    });
    if (stored.status !== 201)
      throw new Error(`store failed: ${stored.status} ${JSON.stringify(stored.body)}`);
    const committed = performance.now();
    for (;;) {
      const since = new Date(Date.parse(stored.body.created_at) - 1000).toISOString();
      const page = await app.call(
        "GET",
        `/v1/audit?operation=store&limit=50&since=${encodeURIComponent(since)}`,
      );
      if (page.status !== 200)
        throw new Error(`GET /v1/audit answered ${page.status}: ${JSON.stringify(page.body)}`);
      if (
        page.body.items.some((row: { target_ids: string[] }) =>
          row.target_ids.includes(stored.body.memory_id),
        )
      )
        break;
      if (performance.now() - committed > 10_000)
        throw new Error(`write ${i} not visible after 10 s`);
      await Bun.sleep(2);
    }
    latencies.push(performance.now() - committed);
  }
  latencies.sort((a, b) => a - b);
  const q = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(1);
  console.log(
    `audit listener, write committed → visible in GET /v1/audit (${writes} writes, debounce ${debounceMs} ms): p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${q(1)} ms`,
  );
} finally {
  await worker.close();
  await app.stop();
}
