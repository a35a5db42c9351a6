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
    httpRequests: new client.Counter({
      name: "svc_http_requests_total",
      help: "HTTP requests by route and status",
      labelNames: ["method", "route", "status"] as const,
      registers: [registry],
    }),
    httpDuration: new client.Histogram({
      name: "svc_http_request_duration_seconds",
      help: "HTTP latency by route",
      labelNames: ["method", "route"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    dbTransactionsInFlight: new client.Gauge({
      name: "svc_db_transactions_in_flight",
      help: "Open database transactions in this process",
      registers: [registry],
      collect() {
        if (sources) this.set(sources.transactionsInFlight());
      },
    }),
    dbPoolSize: new client.Gauge({
      name: "svc_db_pool_max_connections",
      help: "Configured pool size",
      labelNames: ["pool"] as const,
      registers: [registry],
    }),
    refusedBeforePipeline: new client.Counter({
      name: "svc_http_refused_before_pipeline_total",
      help: "429s answered from the memory of empty buckets before the request pipeline (not logged)",
      labelNames: ["bucket"] as const,
      registers: [registry],
    }),
    rateLimitFallbacks: new client.Counter({
      name: "svc_ratelimit_fallback_total",
      help: "Rate-limit decisions made locally because Valkey was unreachable",
      registers: [registry],
    }),
    queueDepth: new client.Gauge({
      name: "svc_queue_jobs",
      help: "Jobs in the task queue by state",
      labelNames: ["state"] as const,
      registers: [registry],
    }),
    embeddings: embeddingGauges(registry),
    jobOutcomes: new client.Counter({
      name: "svc_task_runs_total",
      help: "Task runs by task and outcome",
      labelNames: ["task", "outcome"] as const,
      registers: [registry],
    }),
  };
}

/** What the embedding gauges show; the domain's embedding progress report has this shape. */
export type EmbeddingGaugeInput = {
  graph_backlog: number;
  serving: ReadonlyArray<{ model: string; dims: number; tenants: number }>;
  reembed: ReadonlyArray<{
    to: { model: string; dims: number };
    tenants: number;
    done: number;
    total: number;
  }>;
};

/**
 * Tenants per serving embedding generation and re-embed progress (docs/embeddings.md).
 * Deployment-wide figures read from the database: the API's /metrics sets them before rendering
 * (`set(progress)`); a worker's own metrics endpoint leaves them out.
 */
function embeddingGauges(registry: client.Registry) {
  const gauge = (name: string, help: string) =>
    new client.Gauge({ name, help, labelNames: ["model", "dims"] as const, registers: [registry] });
  const tenants = gauge(
    "svc_embedding_generation_tenants",
    "Tenants whose VECTOR recall reads this embedding generation",
  );
  const done = gauge(
    "svc_embedding_reembed_done",
    "Re-embed to this generation: current memories that have its vector",
  );
  const total = gauge(
    "svc_embedding_reembed_total",
    "Re-embed to this generation: current memories to embed",
  );
  const pending = gauge(
    "svc_embedding_reembed_tenants",
    "Tenants still served by an older generation while this one is built",
  );
  const backlog = new client.Gauge({
    name: "svc_vector_backlog_memories",
    help: "Batch-stored memories whose vector waits for the HNSW graph (svc.generate_embedding puts it in; recall scores it exactly meanwhile)",
    registers: [registry],
  });
  return {
    set(p: EmbeddingGaugeInput): void {
      for (const g of [tenants, done, total, pending]) g.reset();
      backlog.set(p.graph_backlog);
      for (const s of p.serving) tenants.set({ model: s.model, dims: s.dims }, s.tenants);
      for (const r of p.reembed) {
        const labels = { model: r.to.model, dims: r.to.dims };
        done.inc(labels, r.done);
        total.inc(labels, r.total);
        pending.inc(labels, r.tenants);
      }
    },
  };
}
