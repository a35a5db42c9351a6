// OpenTelemetry tracing (OTEL_ENABLED): a server span per HTTP request, batched to an OTLP/HTTP
// collector.
import { SpanKind, SpanStatusCode, type Span, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { Config } from "../config/schema";
import pkg from "../../package.json";

export type Tracing = {
  startRequestSpan(request: Request): Span;
  /** Flushes pending spans; call on shutdown. */
  shutdown(): Promise<void>;
};

export function createTracing(config: Config): Tracing | null {
  if (!config.OTEL_ENABLED) return null;
  const exporter = new OTLPTraceExporter({
    url: `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`,
  });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      "service.name": config.OTEL_SERVICE_NAME,
      "service.version": pkg.version,
    }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 })],
  });
  const tracer: Tracer = provider.getTracer("svc", pkg.version);
  return {
    startRequestSpan(request) {
      const url = new URL(request.url);
      return tracer.startSpan(request.method, {
        kind: SpanKind.SERVER,
        attributes: { "http.request.method": request.method, "url.path": url.pathname },
      });
    },
    shutdown: () => provider.shutdown(),
  };
}

/** Names the span after the matched route (known only once the app has answered) and closes it. */
export function endRequestSpan(
  span: Span,
  method: string,
  route: string,
  status: number,
  attributes: Record<string, string | undefined>,
): void {
  span.updateName(`${method} ${route}`);
  span.setAttribute("http.route", route);
  span.setAttribute("http.response.status_code", status);
  for (const [name, value] of Object.entries(attributes))
    if (value !== undefined) span.setAttribute(name, value);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
