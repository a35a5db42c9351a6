// GET /v1/export's limits in both database modes (export-limits-cases.ts): the `export` scope, one
// export per tenant at a time, and a stalled client dropped so its connection goes back to the
// pool.
import { afterAll, beforeAll, describe, test } from "bun:test";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import { testApp, type TestApp } from "../harness/app";
import {
  exportNeedsExportScope,
  oneExportPerTenant,
  seedBulk,
  stalledExportLetsGo,
} from "./export-limits-cases";

const limits = { EXPORT_STALL_SECONDS: 1 };
let pg: TestApp;
let pgStall: TestApp;
let embedded: EmbeddedApp;
let embeddedStall: EmbeddedApp;

beforeAll(async () => {
  // The stall limit only on the apps of the stall tests: a held export in the others must not be
  // dropped because a busy machine took a second for the requests made meanwhile.
  pg = await testApp();
  pgStall = await testApp(limits);
  embedded = await embeddedApp("export-limits");
  embeddedStall = await embeddedApp("export-stall", limits);
}, 240_000);

afterAll(async () => {
  await Promise.all([pg?.close(), pgStall?.close(), embedded?.close(), embeddedStall?.close()]);
});

describe("export limits (PostgreSQL)", () => {
  test("the export scope, not admin, opens GET /v1/export", async () => {
    await exportNeedsExportScope(pg, await pg.tenant("export-scope"));
  });

  test("one export per tenant at a time; other tenants are not held up", async () => {
    const tenant = await pg.tenant("export-one");
    await seedBulk(pg, tenant);
    await oneExportPerTenant(pg, tenant, await pg.tenant("export-other"));
  });

  test("a client that stops reading is dropped and the connection released", async () => {
    const tenant = await pgStall.tenant("export-stall");
    await seedBulk(pgStall, tenant);
    await stalledExportLetsGo(pgStall, tenant, await pgStall.tenant("export-bystander"));
  });
});

describe("export limits (embedded)", () => {
  test("the export scope, not admin, opens GET /v1/export", async () => {
    await exportNeedsExportScope(embedded.app, await embedded.tenant("export-scope"));
  });

  test("one export per tenant at a time", async () => {
    const tenant = await embedded.tenant("export-one");
    await seedBulk(embedded.app, tenant);
    await oneExportPerTenant(embedded.app, tenant, null);
  });

  test("a client that stops reading is dropped and the one connection released", async () => {
    const tenant = await embeddedStall.tenant("export-stall");
    await seedBulk(embeddedStall.app, tenant);
    await stalledExportLetsGo(
      embeddedStall.app,
      tenant,
      await embeddedStall.tenant("export-bystander"),
    );
  });
});
