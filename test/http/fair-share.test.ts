// Each tenant's fair share of the database, in both database modes (fair-share-cases.ts): a
// tenant flooding with heavy CYPHER recalls, an MCP batch of them and unknown keys gets 503
// tenant-busy beyond its share and 429 for its address's failed keys; another tenant's requests
// all succeed.
import { afterAll, beforeAll, describe, test } from "bun:test";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import { testApp, type TestApp } from "../harness/app";
import { noisyNeighbourIsContained, seedNoisy, UNKNOWN_KEY_BURST } from "./fair-share-cases";

const share = {
  TENANT_HEAVY_CONCURRENCY: 1,
  TENANT_DB_WAIT_MS: 100,
  CYPHER_TIMEOUT_MS: 20_000,
  TRUSTED_PROXY_HOPS: 1,
  RATE_LIMIT_ENABLED: true,
  RATE_LIMIT_REQUESTS: 60_000,
  RATE_LIMIT_BURST: 1000,
  RATE_LIMIT_UNAUTHENTICATED_BURST: UNKNOWN_KEY_BURST,
  RATE_LIMIT_UNAUTHENTICATED_REQUESTS: 1,
  RATE_LIMIT_WINDOW: 3600,
};
let pg: TestApp;
let embedded: EmbeddedApp;

beforeAll(async () => {
  pg = await testApp(share);
  embedded = await embeddedApp("fair-share", share);
}, 240_000);

afterAll(async () => {
  await Promise.all([pg?.close(), embedded?.close()]);
});

// Generous bounds that still catch a hang: PGlite runs A's cartesian products on the test's own
// thread, and on a busy machine the flood alone took 71 s.
describe("fair share of the database", () => {
  test("PostgreSQL: A's heavy flood is refused beyond its share; B's requests all succeed", async () => {
    const [a, b] = [await pg.tenant("noisy-a"), await pg.tenant("quiet-b")];
    await noisyNeighbourIsContained(pg, a, b, await seedNoisy(pg, a, b));
  }, 180_000);

  test("embedded: the same on the one connection", async () => {
    const [a, b] = [await embedded.tenant("noisy-a"), await embedded.tenant("quiet-b")];
    await noisyNeighbourIsContained(embedded.app, a, b, await seedNoisy(embedded.app, a, b));
  }, 180_000);
});
