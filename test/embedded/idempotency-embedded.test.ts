// Idempotency-Key in embedded mode (PGlite): the same cases as on PostgreSQL.
import { afterAll, beforeAll, describe } from "bun:test";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import { idempotencyCases } from "../http/idempotency/cases";

let e: EmbeddedApp;
beforeAll(async () => {
  e = await embeddedApp("idempotency");
}, 120_000);
afterAll(() => e.close());

describe("Idempotency-Key on PGlite", () => {
  idempotencyCases(
    () => ({
      app: e.app,
      deps: e.deps,
      tenant: (label) => e.tenant(`${label}-${Math.random().toString(36).slice(2, 8)}`),
    }),
    60_000,
  );
});
