// Core variables: network, database, broker, keys, logging, CORS, body size.
import { Type as T } from "@sinclair/typebox";

export const coreSection = {
  HOST: T.String({
    default: "127.0.0.1",
    minLength: 1,
    description: "Bind address; loopback by default so a fresh install is private",
  }),
  PORT: T.Integer({
    default: 8080,
    minimum: 0,
    maximum: 65535,
    description: "HTTP port of `svc serve`",
  }),
  DATABASE_URL: T.Optional(
    T.String({
      pattern: "^postgres(ql)?://",
      description:
        "PostgreSQL URL of the serving login (not a superuser, no BYPASSRLS, owns nothing, member of svc_app only; serve, worker, beat and mcp refuse any other); unset means embedded mode",
    }),
  ),
  DATABASE_MIGRATION_URL: T.Optional(
    T.String({
      pattern: "^postgres(ql)?://",
      description:
        "PostgreSQL URL of the owner login that migrates (svc migrate, and serve under its lock); without it DATABASE_URL migrates, and serve refuses it if it owns the tables (docs/operations.md, Database roles)",
    }),
  ),
  DATABASE_READ_URL: T.Optional(
    T.String({
      pattern: "^postgres(ql)?://",
      description: "Read replica for read-only tenant queries (recall, listings)",
    }),
  ),
  DATABASE_POOL_MAX: T.Integer({
    default: 10,
    minimum: 1,
    maximum: 500,
    description: "Connections per pool per process",
  }),
  DATABASE_STATEMENT_TIMEOUT_MS: T.Integer({
    default: 30000,
    minimum: 100,
    description: "statement_timeout of every connection",
  }),
  VALKEY_URL: T.Optional(
    T.String({
      pattern: "^rediss?://",
      description: "Valkey URL; unset means in-process queue and limiter",
    }),
  ),
  SVC_DATA_DIR: T.String({
    default: "./.svc-data",
    minLength: 1,
    description: "Embedded mode: where the database and generated keys live",
  }),
  SVC_API_KEY: T.Optional(
    T.String({
      pattern: "^svc_sk_[A-Za-z0-9]{24,}$",
      description: "Bootstrap key of the default org",
    }),
  ),
  SVC_DEFAULT_ORG: T.String({
    default: "default",
    minLength: 1,
    maxLength: 100,
    description: "Name of the org that owns SVC_API_KEY and the development key",
  }),
  SVC_CORS_ORIGINS: T.String({
    default: "*",
    description: "Comma-separated allowed origins; * allows any origin without credentials",
  }),
  SVC_DOCS_URL: T.Optional(
    T.String({
      pattern: "^https?://",
      description:
        "Base of problem type URIs; default {SVC_PUBLIC_URL}/docs, else http://HOST:PORT/docs (never the request's Host header)",
    }),
  ),
  SVC_MAX_BODY_BYTES: T.Integer({
    default: 1048576,
    minimum: 1024,
    description: "Cap on JSON request bodies",
  }),
  LOG_LEVEL: T.Union(
    [
      T.Literal("trace"),
      T.Literal("debug"),
      T.Literal("info"),
      T.Literal("warn"),
      T.Literal("error"),
      T.Literal("fatal"),
      T.Literal("silent"),
    ],
    { default: "info" },
  ),
};
