// A bare /metrics listener for processes without the HTTP API (`svc worker` with WORKER_METRICS_PORT).
import type { Deps } from "../app/deps";

export function serveMetrics(deps: Deps, port: number) {
  return Bun.serve({
    hostname: deps.config.HOST,
    port,
    fetch: async (request) => new URL(request.url).pathname === "/metrics"
      ? new Response(await deps.metrics.registry.metrics(), { headers: { "content-type": deps.metrics.registry.contentType } })
      : new Response("not found", { status: 404 }),
  });
}
