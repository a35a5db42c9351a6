// One app per database mode for a whole test file, opened before its tests and closed after, with
// tenants made on demand: for suites that run each case in PostgreSQL and in PGlite.
import { afterAll, beforeAll } from "bun:test";
import type { Config } from "../../src/config/schema";
import { testApp, type Tenant, type TestApp } from "./app";
import { embeddedApp, type EmbeddedApp } from "./embedded-app";

export type Mode = { name: string; app: () => TestApp; tenant(label: string): Promise<Tenant> };

/** `label` names the embedded data directory; `overrides` configure both apps alike. */
export function bothModes(
  label: string,
  overrides: Partial<Record<keyof Config, unknown>> = {},
): Mode[] {
  let pg: TestApp;
  let embedded: EmbeddedApp;
  beforeAll(async () => {
    pg = await testApp(overrides);
    embedded = await embeddedApp(label, overrides);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([pg?.close(), embedded?.close()]);
  });
  return [
    { name: "PostgreSQL", app: () => pg, tenant: (name) => pg.tenant(name) },
    { name: "PGlite (embedded)", app: () => embedded.app, tenant: (name) => embedded.tenant(name) },
  ];
}
