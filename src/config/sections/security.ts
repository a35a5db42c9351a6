// Request hardening: bounds on free-form JSON, where problem `type` URIs point.
import { Type as T } from "@sinclair/typebox";

export const securitySection = {
  SVC_PUBLIC_URL: T.Optional(
    T.String({
      pattern: "^https?://",
      description:
        "Public base URL of this service (e.g. https://memory.example.com); problem `type` URIs are {SVC_PUBLIC_URL}/docs/errors/<slug> unless SVC_DOCS_URL is set. Never taken from a request's Host header",
    }),
  ),
  SVC_JSON_MAX_DEPTH: T.Integer({
    default: 32,
    minimum: 4,
    maximum: 1000,
    description:
      "Deepest JSON nesting accepted anywhere in a request body (objects and arrays); deeper is a 422",
  }),
  SVC_JSON_FREEFORM_MAX_BYTES: T.Integer({
    default: 65536,
    minimum: 1024,
    maximum: 16777216,
    description:
      "Largest free-form JSON value (metadata, filters.metadata, params, …) in a body, as UTF-8 JSON bytes; never below MEMORY_METADATA_MAX_BYTES",
  }),
};
