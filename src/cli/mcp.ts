// `svc mcp [--key <API key>]`: the MCP server over stdio for one tenant's key (SVC_MCP_API_KEY or --key).
// stdout carries the protocol only, so logs go to stderr. Every tool call re-checks the key (a revoked key
// stops working mid-session), takes a rate-limit token like a REST request, and gets its own request id.
import { parseArgs } from "node:util";
import pino from "pino";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { closeDeps, openDeps } from "../app/build-deps";
import { checkServingLogin, migrateAsOwner, openEmbeddedServing } from "../app/database-roles";
import { installProcessGuards } from "../app/process-guards";
import type { Deps } from "../app/deps";
import { newId } from "../domain/ids";
import { takeRequestTokens } from "../http/pipeline/6-rate-limit";
import { createMcpServer, type McpCaller } from "../mcp/server";
import { tenantBucketPolicyOf } from "../domain/ratelimit/tenant-policy";
import { createLogger } from "../observability/log";
import { startBeat } from "../queue/beat";
import { startWorker } from "../queue/worker";
import { configOrExit } from "./config";
import { UsageError } from "./usage";

export function stdioActor(deps: Deps, key: string): () => Promise<McpCaller> {
  return async () => {
    const identity = await deps.authenticate(key);
    if (deps.config.RATE_LIMIT_ENABLED) {
      const { refusal } = await takeRequestTokens(deps.limiter, { role: "tenant", ...identity }, deps.bucketPolicy, tenantBucketPolicyOf(deps.config));
      if (refusal) throw refusal;
    }
    return { actor: { orgId: identity.orgId, keyId: identity.keyId, requestId: newId("req"), role: "tenant" }, scopes: identity.scopes };
  };
}

export async function runMcp(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, strict: true, allowPositionals: false, options: { key: { type: "string" } } });
  const config = configOrExit();
  const key = values.key ?? config.SVC_MCP_API_KEY;
  if (!key) throw new UsageError("svc mcp needs an API key: set SVC_MCP_API_KEY or pass --key");
  const log = createLogger(config.LOG_LEVEL, pino.destination({ fd: 2, sync: false }));
  // Like serve: migrated by the owner (PGlite's superuser session when embedded), served by the serving login.
  const embedded = config.DATABASE_URL ? null : await openEmbeddedServing(config, "svc-mcp");
  const deps = await openDeps(config, { log, applicationName: "svc-mcp", db: embedded?.db });
  installProcessGuards(log);
  if (!embedded) await migrateAsOwner(config, deps.db, "svc-mcp");
  await checkServingLogin(deps.db);
  const actorForCall = stdioActor(deps, key);
  await actorForCall(); // refuse a bad key at start, not at the first call
  // Without Valkey no other process takes jobs (and PGlite admits one process), so this one runs them.
  const background = deps.queue.backend === "in-process" ? [await startWorker(deps), await startBeat(deps)] : [];
  const server = createMcpServer(deps, { withCaller: async (call) => call(await actorForCall()) });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    for (const part of background.reverse()) await part.close();
    await closeDeps(deps);
    process.exit(0);
  };
  server.onclose = () => void stop();
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
  process.stdin.once("end", () => void stop()); // the client went away
  await server.connect(new StdioServerTransport());
  log.info({ msg: "MCP server on stdio", mode: deps.db.kind });
}
