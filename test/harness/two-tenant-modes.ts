// The same suite in both database modes, each with two tenants of its own (the second checks
// isolation).
import { testApp, type Tenant, type TestApp } from "./app";
import { embeddedApp } from "./embedded-app";
import type { Config } from "../../src/config/schema";

type Overrides = Partial<Record<keyof Config, unknown>>;

export type TwoTenantMode = {
  name: string;
  /** overrides: configuration for this suite (gates), applied in both modes. */
  open(
    overrides?: Overrides,
  ): Promise<{ app: TestApp; tenants: [Tenant, Tenant]; close(): Promise<void> }>;
};

/** PostgreSQL and PGlite, their tenants named `<prefix>-a` and `<prefix>-b`. */
export function twoTenantModes(prefix: string): TwoTenantMode[] {
  return [
    {
      name: "PostgreSQL",
      async open(overrides = {}) {
        const app = await testApp(overrides);
        const tenants: [Tenant, Tenant] = [
          await app.tenant(`${prefix}-a`),
          await app.tenant(`${prefix}-b`),
        ];
        return { app, tenants, close: () => app.close() };
      },
    },
    {
      name: "PGlite (embedded)",
      async open(overrides = {}) {
        const e = await embeddedApp(prefix, overrides);
        const tenants: [Tenant, Tenant] = [
          await e.tenant(`${prefix}-a`),
          await e.tenant(`${prefix}-b`),
        ];
        return { app: e.app, tenants, close: () => e.close() };
      },
    },
  ];
}
