// Builds the real app on the run's database (as the serving login, the owner in
// DATABASE_MIGRATION_URL) and Valkey, with captured logs and a small request helper.
import postgres from "postgres";
import { buildDeps, closeDeps } from "../../src/app/build-deps";
import type { Deps } from "../../src/operations/deps";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";
import { systemActor } from "../../src/domain/actor";
import { ensureOrg } from "../../src/domain/keys/bootstrap";
import { createKey } from "../../src/domain/keys/manage";
import { createApp, handleRequest } from "../../src/app/create-app";
import { createLogger } from "../../src/observability/log";
import { createMigratedDatabase, dropDatabase } from "./databases";
import { asServingLogin, TEST_QUEUE_PREFIX, testDatabaseUrl, TEST_VALKEY_URL } from "./env";

export type RequestBody = NonNullable<RequestInit["body"]>;
export type TestResponse = { status: number; headers: Headers; body: any; text: string };
export type RequestOptions = {
  key?: string | null;
  body?: unknown;
  rawBody?: RequestBody;
  headers?: Record<string, string>;
};
export type Tenant = { orgId: string; keyId: string; key: string; name: string };

export type TestApp = Awaited<ReturnType<typeof testApp>>;

export { TEST_QUEUE_PREFIX } from "./env";

let tenantCounter = 0;

/** The app on the run's database, or on another one the test created (its owner URL). */
export async function testApp(
  overrides: Partial<Record<keyof Config, unknown>> = {},
  ownerUrl = testDatabaseUrl(),
) {
  const database = { DATABASE_URL: asServingLogin(ownerUrl), DATABASE_MIGRATION_URL: ownerUrl };
  const config = loadConfig({}, {
    ...database,
    VALKEY_URL: TEST_VALKEY_URL,
    LOG_LEVEL: "info",
    RATE_LIMIT_ENABLED: false,
    // Like the rate limit, no heavy-time budget short of the whole database unless a test is about
    // it: graph tests run many heavy queries in one tenant.
    TENANT_HEAVY_CPU_SHARE: 1,
    SVC_QUEUE_PREFIX: TEST_QUEUE_PREFIX,
    ...overrides,
  } as Partial<Config>);
  const logLines: string[] = [];
  const log = createLogger(config.LOG_LEVEL, { write: (line: string) => void logLines.push(line) });
  const deps: Deps = buildDeps(config, { log, applicationName: "svc-test" });
  const app = createApp(deps);
  const handle = handleRequest(app, deps);
  // The owner, for fixtures the serving login may not touch (DDL, rows outside RLS); connects on
  // first use.
  const owner = postgres(ownerUrl, { max: 2, onnotice: () => {} });

  async function request(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<TestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    let body: RequestBody | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await handle(
      new Request(`http://localhost${path}`, { method, headers, body }),
    );
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* non-JSON bodies stay text */
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  async function tenant(label = "tenant"): Promise<Tenant> {
    const name = `${label}-${process.pid}-${++tenantCounter}-${Math.random().toString(36).slice(2, 8)}`;
    const orgId = await ensureOrg(deps.db, name);
    const created = await createKey(deps.db, systemActor(orgId), "test");
    return { orgId, keyId: created.key_id, key: created.key, name };
  }

  return {
    config,
    deps,
    app,
    handle,
    request,
    tenant,
    logLines,
    owner,
    close: async () => {
      await closeDeps(deps);
      await owner.end();
    },
  };
}

/**
 * The app on a database of its own, dropped by `close`: for tests of tasks that walk every tenant
 * (retention caps, decay, sweeps, drains), whose work and answers must not depend on what earlier
 * files left in the run's database. `label` names the test (letters and underscores).
 */
export async function privateTestApp(
  label: string,
  overrides: Partial<Record<keyof Config, unknown>> = {},
): Promise<TestApp> {
  const name = `svc_${label}_${process.pid}_${Date.now().toString(36)}`;
  const app = await testApp(overrides, await createMigratedDatabase(name));
  return {
    ...app,
    close: async () => {
      await app.close();
      await dropDatabase(name);
    },
  };
}

/** Formats a response for assertion messages, so a failure shows what came back. */
export const show = (r: TestResponse) => `${r.status} ${r.text.slice(0, 500)}`;
