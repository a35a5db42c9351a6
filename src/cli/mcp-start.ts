// The heavy half of `svc mcp`, loaded in its worker thread (cli/mcp-worker.ts): opens the database
// (migrated as in serve), checks the key, runs the in-process worker, beat when there is no Valkey,
// and connects the MCP server to the transport that carries the main thread's stdio messages.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { closeDeps, openDeps } from "../app/build-deps";
import { checkServingLogin, migrateAsOwner, openEmbeddedServing } from "../app/database-roles";
import { installProcessGuards } from "../app/process-guards";
import type { Deps } from "../operations/deps";
import type { Config } from "../config/schema";
import { newId } from "../lib/ids";
import { tenantBucketPolicyOf } from "../domain/ratelimit/tenant-policy";
import { takeRequestTokens } from "../http/pipeline/6-rate-limit";
import { createMcpServer, type McpCaller } from "../mcp/server";
import type { Logger } from "../observability/log";
import { startBeat } from "../queue/beat";
import { startWorker } from "../queue/worker";

export function stdioActor(deps: Deps, key: string): () => Promise<McpCaller> {
  return async () => {
    const identity = await deps.authenticate(key);
    if (deps.config.RATE_LIMIT_ENABLED) {
      const caller = { role: "tenant" as const, ...identity };
      const tenantPolicy = tenantBucketPolicyOf(deps.config);
      const { refusal } = await takeRequestTokens(
        deps.limiter,
        caller,
        deps.bucketPolicy,
        tenantPolicy,
      );
      if (refusal) throw refusal;
    }
    const actor = {
      orgId: identity.orgId,
      keyId: identity.keyId,
      requestId: newId("req"),
      role: "tenant" as const,
    };
    return { actor, scopes: identity.scopes };
  };
}

/** `closers` gets what a shutdown closes, in order, as startup proceeds. */
export async function startMcp(
  config: Config,
  key: string,
  log: Logger,
  transport: Transport,
  closers: Array<() => Promise<void>>,
): Promise<void> {
  // Like serve: migrated by the owner (PGlite's superuser session when embedded), served by the
  // serving login.
  const embedded = config.DATABASE_URL ? null : await openEmbeddedServing(config, "svc-mcp");
  const deps = await openDeps(config, { log, applicationName: "svc-mcp", db: embedded?.db });
  closers.unshift(() => closeDeps(deps));
  installProcessGuards(log);
  if (!embedded) await migrateAsOwner(config, deps.db, "svc-mcp");
  await checkServingLogin(deps.db);
  const actorForCall = stdioActor(deps, key);
  await actorForCall(); // refuse a bad key at start, not at the first call
  // Without Valkey no other process takes jobs (and PGlite admits one process), so this one runs
  // them.
  if (deps.queue.backend === "in-process") {
    const running = [await startWorker(deps), await startBeat(deps)];
    for (const part of running) closers.unshift(() => part.close());
  }
  const server = createMcpServer(deps, { withCaller: async (call) => call(await actorForCall()) });
  closers.unshift(() => server.close());
  await server.connect(transport);
  log.info({ msg: "MCP server on stdio", mode: deps.db.kind });
}
