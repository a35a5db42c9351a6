// OpenTelemetry export (OTEL_ENABLED): one server span per HTTP request, sent over OTLP/HTTP.
import { Type as T } from "@sinclair/typebox";

export const telemetrySection = {
  OTEL_ENABLED: T.Boolean({
    default: false,
    description: "Export a span per HTTP request over OTLP/HTTP (JSON)",
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: T.String({
    default: "http://127.0.0.1:4318",
    pattern: "^https?://",
    description: "OTLP/HTTP collector base URL; spans go to {endpoint}/v1/traces",
  }),
  OTEL_SERVICE_NAME: T.String({
    default: "svc",
    minLength: 1,
    description: "service.name resource attribute",
  }),
};
