// The real app on PGlite (embedded mode) in a throwaway data directory, driven through
// handleRequest, with the same request/tenant shape as testApp() so a test body runs unchanged on
// both database modes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeDeps, openDeps } from "../../src/app/build-deps";
import type { Deps } from "../../src/operations/deps";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";
import { migrate } from "../../src/data/migrate";
import { ensureVectorIndex } from "../../src/data/queries/memories/vector-index";
import { systemActor } from "../../src/domain/actor";
import { ensureOrg } from "../../src/domain/keys/bootstrap";
import { createKey } from "../../src/domain/keys/manage";
import { createApp, handleRequest } from "../../src/app/create-app";
import { createLogger } from "../../src/observability/log";
import type { Tenant, TestApp } from "./app";
import { seedEmbeddedDataDir } from "./pglite-template";

const DIMENSIONS = 128;

export type EmbeddedApp = {
  app: TestApp;
  deps: Deps;
  tenant(name: string): Promise<Tenant>;
  close(): Promise<void>;
};

export async function embeddedApp(
  label: string,
  overrides: Partial<Record<keyof Config, unknown>> = {},
): Promise<EmbeddedApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `svc-embedded-${label}-`));
  await seedEmbeddedDataDir(dataDir);
  const config = loadConfig({}, {
    SVC_DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    RATE_LIMIT_ENABLED: false,
    // Like the rate limit, no heavy-time budget short of the whole database unless a test is about
    // it: graph tests run many heavy queries in one tenant.
    TENANT_HEAVY_CPU_SHARE: 1,
    EMBEDDING_DIMENSIONS: DIMENSIONS,
    ...overrides,
  } as Partial<Config>);
  const deps = await openDeps(config, {
    log: createLogger("error"),
    applicationName: `svc-embedded-${label}`,
  });
  await migrate(deps.db.primary);
  await ensureVectorIndex(deps.db.primary, DIMENSIONS);
  const handle = handleRequest(createApp(deps), deps);
  const request = async (
    method: string,
    url: string,
    options: {
      key?: string | null;
      body?: unknown;
      rawBody?: NonNullable<RequestInit["body"]>;
      headers?: Record<string, string>;
    } = {},
  ) => {
    const response = await handle(
      new Request(`http://localhost${url}`, {
        method,
        headers: {
          ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
          ...(options.body === undefined ? {} : { "content-type": "application/json" }),
          ...options.headers,
        },
        body: options.body === undefined ? options.rawBody : JSON.stringify(options.body),
      }),
    );
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* non-JSON bodies (SSE, /metrics) stay text */
    }
    return { status: response.status, headers: response.headers, body, text };
  };
  return {
    app: { deps, config, request, handle } as unknown as TestApp,
    deps,
    async tenant(name) {
      const orgId = await ensureOrg(deps.db, name);
      const created = await createKey(deps.db, systemActor(orgId), "test");
      return { orgId, keyId: created.key_id, key: created.key, name };
    },
    async close() {
      await closeDeps(deps);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
