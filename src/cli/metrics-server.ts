// A bare /metrics listener for processes without the HTTP API (`svc worker` with
// WORKER_METRICS_PORT).
import type { Deps } from "../operations/deps";
import { listenHttp } from "../http/listen";

export function serveMetrics(deps: Deps, port: number) {
  return listenHttp(deps, {
    port,
    fetch: async (request) =>
      URL.parse(request.url)?.pathname === "/metrics"
        ? new Response(await deps.metrics.registry.metrics(), {
            headers: { "content-type": deps.metrics.registry.contentType },
          })
        : new Response("not found", { status: 404 }),
  });
}
