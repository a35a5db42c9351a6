// MCP in embedded mode (PGlite): the HTTP transport on a listening in-process app with two tenants,
// then `svc mcp` over stdio on the same data directory (PGlite admits one process, so one stdio
// client).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
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
import { httpClient, listen, ok, stdioClient } from "./helpers";
import { expectCoreToolsOnly, roundTrip } from "./shared-cases";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-mcp-embedded-"));
let deps: Deps | null = null;
let keys: string[] = [];

beforeAll(async () => {
  const config = loadConfig({}, {
    SVC_DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    RATE_LIMIT_ENABLED: false,
    EMBEDDING_DIMENSIONS: 128,
  } as Partial<Config>);
  deps = await openDeps(config, {
    log: createLogger("error"),
    applicationName: "svc-mcp-embedded",
  });
  await migrate(deps.db.primary);
  await ensureVectorIndex(deps.db.primary, 128);
  for (const name of ["embedded-a", "embedded-b"])
    keys.push((await createKey(deps.db, systemActor(await ensureOrg(deps.db, name)), "test")).key);
}, 60_000);

afterAll(async () => {
  if (deps) await closeDeps(deps);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("MCP in embedded mode", () => {
  test("HTTP transport: round trip and tenant isolation on PGlite", async () => {
    const server = listen(handleRequest(createApp(deps!), deps!));
    const [a, b] = [await httpClient(server.url, keys[0]!), await httpClient(server.url, keys[1]!)];
    try {
      await expectCoreToolsOnly(a);
      await roundTrip(a, b, "embedded-agent");
    } finally {
      await Promise.all([a.close(), b.close()]);
      server.stop();
    }
  }, 60_000);

  test("stdio transport: svc mcp on the same data directory", async () => {
    await closeDeps(deps!);
    deps = null;
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      SVC_DATA_DIR: dataDir,
      EMBEDDING_DIMENSIONS: "128",
      LOG_LEVEL: "warn",
      RATE_LIMIT_ENABLED: "false",
      SVC_MCP_API_KEY: keys[0]!,
    };
    const { client } = await stdioClient(env);
    try {
      await roundTrip(client, null, "embedded-stdio");
      // What the HTTP test stored earlier is there too: same database, same tenant.
      const history = ok(
        await client.callTool({
          name: "recall",
          arguments: { agent_id: "embedded-agent", query: "pizza Fridays", strategy: "LEXICAL" },
        }),
      );
      expect(history.results[0].content).toBe("Lunch is pizza on Fridays");
    } finally {
      await client.close();
    }
  }, 90_000);
});
