// `svc serve`: migrate, ensure boot keys, listen; stop cleanly on SIGTERM/SIGINT.
import { buildDeps, closeDeps } from "../app/build-deps";
import { migrate } from "../data/migrate";
import { ensureBootKeys } from "../domain/keys/bootstrap";
import { createApp, handleRequest, serverBodyCap } from "../http/create-app";
import { configOrExit } from "./config";

export async function runServe(): Promise<void> {
  const config = configOrExit();
  const deps = buildDeps(config, { applicationName: "svc-serve" });
  const { log } = deps;
  const migrated = await migrate(deps.db.primary);
  if (migrated.applied.length > 0) log.info({ msg: "migrations applied", applied: migrated.applied });
  const boot = await ensureBootKeys(deps.db, { bootstrapKey: config.SVC_API_KEY, defaultOrg: config.SVC_DEFAULT_ORG, host: config.HOST });
  if (boot.developmentKey) {
    log.warn({ msg: "seeded a DEVELOPMENT API key because no key exists; it is printed once and must not be used off this machine" });
    console.error(`\n  Development API key (shown once): ${boot.developmentKey}\n  Use it as: Authorization: Bearer <key>\n`);
  }
  const app = createApp(deps);
  const server = Bun.serve({ hostname: config.HOST, port: config.PORT, maxRequestBodySize: serverBodyCap(deps), fetch: handleRequest(app, deps), idleTimeout: 120 });
  log.info({ msg: "listening", url: `http://${server.hostname}:${server.port}`, mode: deps.db.kind, valkey: Boolean(deps.redis) });

  const stop = async (signal: string) => {
    log.info({ msg: "shutting down", signal });
    await server.stop();
    await closeDeps(deps);
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}
