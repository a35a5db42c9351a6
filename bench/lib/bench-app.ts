// Starts the real app (Bun.serve of createApp + handleRequest) on a throwaway database on loopback,
// migrated by the owner (BENCH_ADMIN_DATABASE_URL's login) and served by the serving login
// (BENCH_SERVING_LOGIN, created by scripts/setup-services.sh), as in production.
import postgres from "postgres";
import { buildDeps, closeDeps } from "../../src/app/build-deps";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";
import { systemActor } from "../../src/domain/actor";
import { ensureOrg } from "../../src/domain/keys/bootstrap";
import { createKey } from "../../src/domain/keys/manage";
import { migrateAsOwner } from "../../src/app/database-roles";
import { createApp, handleRequest } from "../../src/app/create-app";
import { createLogger } from "../../src/observability/log";
import { BullmqQueue } from "../../src/queue/bullmq-queue";

export const ADMIN_DATABASE_URL =
  process.env.BENCH_ADMIN_DATABASE_URL ?? "postgres://svc:svc@127.0.0.1:5432/svc";
export const VALKEY_URL = process.env.BENCH_VALKEY_URL ?? "redis://127.0.0.1:6379";
const SERVING_LOGIN = process.env.BENCH_SERVING_LOGIN ?? "svc_serving";
const SERVING_PASSWORD = process.env.BENCH_SERVING_PASSWORD ?? "svc_serving";

export type BenchApp = Awaited<ReturnType<typeof startBenchApp>>;

/**
 * Drops a bench database once the serving login's backends have left it. A statement the app
 * started before it closed (an abandoned client's CYPHER product) runs on to its timeout, and the
 * owner may not terminate the serving login's backends (FORCE then fails with 42501).
 */
async function dropWhenLeft(admin: postgres.Sql, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "42501" || attempt === 30) throw error;
      await Bun.sleep(1000);
    }
  }
}

/**
 * `reuse` names a database an earlier run kept (`keep`): it is migrated again (new migrations
 * apply) and neither created nor dropped, so a 100k corpus is loaded once and measured many times.
 * `copyOf` names a kept database to start from a file copy of (dropped at the end like a fresh
 * one), for benchmarks whose tasks change the corpus they measure.
 */
export async function startBenchApp(
  label: string,
  overrides: Partial<Record<keyof Config, unknown>> = {},
  options: { reuse?: string; keep?: boolean; copyOf?: string } = {},
) {
  for (const given of [options.reuse, options.copyOf])
    if (given !== undefined && !/^svc_bench_[a-z0-9_]+$/.test(given))
      throw new Error(`not a bench database name: ${given}`);
  const name = options.reuse ?? `svc_bench_${label}_${process.pid}_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_DATABASE_URL, { max: 1, onnotice: () => {} });
  // Names generated or checked above, not input.
  if (options.copyOf)
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${options.copyOf} STRATEGY FILE_COPY`);
  else if (!options.reuse) await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  const serving = new URL(url);
  serving.username = SERVING_LOGIN;
  serving.password = SERVING_PASSWORD;

  const config = loadConfig({}, {
    DATABASE_URL: serving.toString(),
    DATABASE_MIGRATION_URL: url.toString(),
    VALKEY_URL,
    LOG_LEVEL: "error",
    RATE_LIMIT_ENABLED: false,
    // Latency benches time heavy strategies back to back in one tenant: no heavy-time budget short
    // of the whole database (noisy-neighbour.ts measures the service's).
    TENANT_HEAVY_CPU_SHARE: 1,
    DATABASE_POOL_MAX: 16,
    SVC_QUEUE_PREFIX: `bench-${process.pid}`,
    ...overrides,
  } as Partial<Config>);
  const deps = buildDeps(config, { log: createLogger("error"), applicationName: "svc-bench" });
  await migrateAsOwner(config, deps.db, "svc-bench"); // as svc serve: migrations, the vector index, the serving login's grants
  const handle = handleRequest(createApp(deps), deps);
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handle, idleTimeout: 60 });
  const orgId = await ensureOrg(deps.db, `bench-${label}`);
  const { key } = await createKey(deps.db, systemActor(orgId), "bench");
  const base = `http://127.0.0.1:${server.port}`;

  /** `as` is another tenant's key (the 1M tier's tenants); the bench org's key by default. */
  async function call(
    method: string,
    path: string,
    body?: unknown,
    as: string = key,
  ): Promise<{ status: number; body: any }> {
    const response = await fetch(base + path, {
      method,
      headers: {
        authorization: `Bearer ${as}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  async function stop(): Promise<void> {
    server.stop(true);
    // A batch store enqueues svc.generate_embedding (the vector backlog); the bench's own queue
    // goes with it.
    if (deps.queue instanceof BullmqQueue) await deps.queue.queue.obliterate({ force: true });
    await closeDeps(deps);
    if (!options.reuse && !options.keep) await dropWhenLeft(admin, name);
    await admin.end();
  }

  /**
   * What autovacuum leaves within a minute of a load, done now, so what is timed next is the steady
   * state: the statistics recall's plans depend on, and the visibility map its index-only scans
   * need. As the owner: under the app role VACUUM and ANALYZE skip the tables.
   */
  async function analyze(): Promise<void> {
    const owner = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      await owner`VACUUM (ANALYZE) memories, memory_terms, memory_term_stats`;
    } finally {
      await owner.end();
    }
  }

  return {
    base,
    key,
    orgId,
    deps,
    call,
    stop,
    analyze,
    databaseUrl: url.toString(),
    databaseName: name,
  };
}

/** Finds how the running app names the batch array, from its own OpenAPI description. */
export async function batchShape(app: BenchApp): Promise<{ field: string; max: number }> {
  const spec = (await app.call("GET", "/openapi.json")).body;
  const schema =
    spec.paths?.["/v1/memories/batch"]?.post?.requestBody?.content?.["application/json"]?.schema;
  if (!schema) throw new Error("POST /v1/memories/batch is not in /openapi.json yet");
  const resolved = schema.$ref ? spec.components.schemas[schema.$ref.split("/").pop()] : schema;
  const [field, prop] = Object.entries<any>(resolved.properties).find(
    ([, p]) => p.type === "array",
  )!;
  return { field, max: prop.maxItems ?? 100 };
}
