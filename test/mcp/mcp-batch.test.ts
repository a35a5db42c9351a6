// POST /mcp JSON-RPC batches in both database modes (batch-cases.ts): counted per call against the
// rate limit, and stopped by a revocation mid-batch.
import { afterAll, beforeAll, describe, test } from "bun:test";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import { startFakeEmbeddingServer } from "../harness/fake-embedding-server";
import { testApp, type TestApp } from "../harness/app";
import {
  batchCountsPerCall,
  emptyAndDuplicateBatchesRefused,
  revokedKeyStopsBatch,
} from "./batch-cases";

const DIMS = 128;
const embedder = startFakeEmbeddingServer({ dims: DIMS });
const limited = {
  RATE_LIMIT_ENABLED: true,
  RATE_LIMIT_BURST: 5,
  RATE_LIMIT_REQUESTS: 1,
  RATE_LIMIT_WINDOW: 3600,
};
const embedding = {
  EMBEDDING_PROVIDER: "openai",
  EMBEDDING_PROVIDER_API_KEY: "sk-test",
  EMBEDDING_BASE_URL: embedder.baseUrl,
  EMBEDDING_DIMENSIONS: DIMS,
  EMBEDDING_MAX_RETRIES: 0,
  EMBEDDING_TIMEOUT_MS: 30_000,
};

let pg: TestApp;
let pgLimited: TestApp;
let embedded: EmbeddedApp;
let embeddedLimited: EmbeddedApp;

beforeAll(async () => {
  pg = await testApp(embedding);
  pgLimited = await testApp(limited);
  embedded = await embeddedApp("mcp-batch", embedding);
  embeddedLimited = await embeddedApp("mcp-batch-limited", limited);
}, 240_000);

afterAll(async () => {
  await Promise.all([pg?.close(), pgLimited?.close(), embedded?.close(), embeddedLimited?.close()]);
  embedder.stop();
});

describe("MCP batches (PostgreSQL)", () => {
  test("each call of a batch takes a rate-limit token", async () => {
    await batchCountsPerCall(pgLimited, await pgLimited.tenant("batch-limited"));
  });

  test("a key revoked mid-batch stops the rest of the batch", async () => {
    await revokedKeyStopsBatch(pg, await pg.tenant("batch-revoked"), embedder);
  });

  test("an empty batch and a batch with a repeated id are refused", async () => {
    await emptyAndDuplicateBatchesRefused(pg, await pg.tenant("batch-refused"));
  });
});

describe("MCP batches (embedded)", () => {
  test("each call of a batch takes a rate-limit token", async () => {
    await batchCountsPerCall(embeddedLimited.app, await embeddedLimited.tenant("batch-limited"));
  });

  test("a key revoked mid-batch stops the rest of the batch", async () => {
    await revokedKeyStopsBatch(embedded.app, await embedded.tenant("batch-revoked"), embedder);
  });

  test("an empty batch and a batch with a repeated id are refused", async () => {
    await emptyAndDuplicateBatchesRefused(embedded.app, await embedded.tenant("batch-refused"));
  });
});
