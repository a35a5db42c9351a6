// Fair shares: bounds that keep one tenant's heavy or slow work from holding what others need.
import { Type as T } from "@sinclair/typebox";

export const fairnessSection = {
  TENANT_DB_CONCURRENCY: T.Optional(
    T.Integer({
      minimum: 1,
      description:
        "Most database transactions one tenant's requests hold at once in one serving process; more wait their turn. Unset: half the pool (DATABASE_POOL_MAX / 2; 1 in embedded mode)",
    }),
  ),
  TENANT_HEAVY_CONCURRENCY: T.Optional(
    T.Integer({
      minimum: 1,
      description:
        "Most heavy operations (CYPHER and GRAPH recalls, exports) of one tenant at once in one serving process. Unset: half of DATABASE_CPU_CORES and at most a fifth of the pool, at least 1",
    }),
  ),
  DATABASE_CPU_CORES: T.Optional(
    T.Integer({
      minimum: 1,
      description:
        "CPU cores of the PostgreSQL server, which sizes each tenant's share of heavy operations (a heavy query keeps one core busy). Unset: the cores of this host (right when the database runs beside the service, and in embedded mode)",
    }),
  ),
  TENANT_HEAVY_CPU_SHARE: T.Number({
    default: 0.1,
    minimum: 0.0001,
    maximum: 1,
    description:
      "Share of the database's CPU (DATABASE_CPU_CORES) one tenant's heavy queries (CYPHER, GRAPH and TRACE recalls, graph data) may use on average, per serving process: each query's running time is charged to its tenant, and a tenant that owes time waits for its next heavy query (a 503 tenant-busy when that is longer than TENANT_DB_WAIT_MS). Applies only while another tenant was active in the last five seconds (a tenant alone may use the whole database). At most five seconds of it is saved up; exports are not charged",
  }),
  TENANT_DB_WAIT_MS: T.Integer({
    default: 30000,
    minimum: 0,
    description:
      "How long a request waits for its tenant's turn before a 503 tenant-busy with Retry-After",
  }),
  EXPORT_STALL_SECONDS: T.Integer({
    default: 30,
    minimum: 1,
    description:
      "An export whose client reads nothing for this long is abandoned and its database connection released",
  }),
  EXPORT_MAX_SECONDS: T.Integer({
    default: 1800,
    minimum: 1,
    description:
      "Longest an HTTP export may hold its snapshot; past it the stream ends without its end record (use `svc export` for larger tenants)",
  }),
};
