// Prometheus metrics (prom-client), one registry per process, served at /metrics.
import client from "prom-client";

export type Metrics = ReturnType<typeof createMetrics>;

/** Reads live values at scrape time. */
export type MetricSources = { transactionsInFlight: () => number };

export function createMetrics(sources?: MetricSources) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: "svc_process_" });
  return {
    registry,
    httpRequests: new client.Counter({ name: "svc_http_requests_total", help: "HTTP requests by route and status", labelNames: ["method", "route", "status"] as const, registers: [registry] }),
    httpDuration: new client.Histogram({
      name: "svc_http_request_duration_seconds", help: "HTTP latency by route", labelNames: ["method", "route"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [registry],
    }),
    dbTransactionsInFlight: new client.Gauge({
      name: "svc_db_transactions_in_flight", help: "Open database transactions in this process", registers: [registry],
      collect() { if (sources) this.set(sources.transactionsInFlight()); },
    }),
    dbPoolSize: new client.Gauge({ name: "svc_db_pool_max_connections", help: "Configured pool size", labelNames: ["pool"] as const, registers: [registry] }),
    rateLimitFallbacks: new client.Counter({ name: "svc_ratelimit_fallback_total", help: "Rate-limit decisions made locally because Valkey was unreachable", registers: [registry] }),
    queueDepth: new client.Gauge({ name: "svc_queue_jobs", help: "Jobs in the task queue by state", labelNames: ["state"] as const, registers: [registry] }),
    jobOutcomes: new client.Counter({ name: "svc_task_runs_total", help: "Task runs by task and outcome", labelNames: ["task", "outcome"] as const, registers: [registry] }),
  };
}
