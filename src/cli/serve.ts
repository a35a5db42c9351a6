// `svc serve`: migrate (as the owner), refuse a serving login that can bypass RLS, ensure boot
// keys, listen (plus worker and beat when the queue is in-process); stop cleanly on SIGTERM/SIGINT.
import { closeDeps, openDeps } from "../app/build-deps";
import { installProcessGuards } from "../app/process-guards";
import { checkServingLogin, migrateAsOwner, openEmbeddedServing } from "../app/database-roles";
import { ensureBootKeys } from "../domain/keys/bootstrap";
import { createApp, handleRequest, serverBodyCap } from "../app/create-app";
import { listenHttp } from "../http/listen";
import { startBeat } from "../queue/beat";
import { startQueueDepthSampler } from "../queue/depth";
import { startWorker } from "../queue/worker";
import { prepareEmbeddingGenerations } from "../domain/memories/reembed-boot";
import { exitAfterLogs } from "../observability/log";
import { configOrExit } from "./config";
import { devKeyBanner, devKeyPath, saveDevKey } from "./dev-key-file";
import { existsSync } from "node:fs";
import path from "node:path";

export async function runServe(): Promise<void> {
  const config = configOrExit();
  // Embedded: migrated as PGlite's superuser before the serving session opens; a server: by the
  // owner login. The first embedded start creates the database (10–30 s): say so rather than stay
  // silent meanwhile.
  const firstStart =
    !config.DATABASE_URL && !existsSync(path.join(config.SVC_DATA_DIR, "pg", "PG_VERSION"));
  if (firstStart)
    console.error(
      `svc: first start in embedded mode: creating the database in ${config.SVC_DATA_DIR} (10–30 s)…`,
    );
  const progress = firstStart ? (step: string) => console.error(`svc: ${step}…`) : undefined;
  const embedded = config.DATABASE_URL
    ? null
    : await openEmbeddedServing(config, "svc-serve", progress);
  const deps = await openDeps(config, { applicationName: "svc-serve", db: embedded?.db });
  installProcessGuards(deps.log);
  const { log } = deps;
  const migrated = embedded
    ? { applied: embedded.applied }
    : await migrateAsOwner(config, deps.db, "svc-serve");
  await checkServingLogin(deps.db);
  if (migrated.applied.length > 0)
    log.info({ msg: "migrations applied", applied: migrated.applied });
  await prepareEmbeddingGenerations(deps);
  const boot = await ensureBootKeys(deps.db, {
    bootstrapKey: config.SVC_API_KEY,
    defaultOrg: config.SVC_DEFAULT_ORG,
    host: config.HOST,
  });
  const keyPath = devKeyPath(config.SVC_DATA_DIR);
  if (boot.developmentKey) {
    log.warn({
      msg: "seeded a DEVELOPMENT API key because no key exists; it must not be used off this machine",
      file: keyPath,
    });
    await saveDevKey(config.SVC_DATA_DIR, boot.developmentKey).catch((error) =>
      log.warn({
        msg: "could not save the development key; copy it from the banner",
        file: keyPath,
        error: (error as Error).message,
      }),
    );
  }
  const banner = devKeyBanner(keyPath, boot.developmentKey);
  if (banner) console.error(banner);
  const app = createApp(deps);
  const server = listenHttp(deps, {
    port: config.PORT,
    maxRequestBodySize: serverBodyCap(deps),
    fetch: handleRequest(app, deps),
    idleTimeout: 120,
  });
  log.info({
    msg: "listening",
    url: `http://${server.hostname}:${server.port}`,
    mode: deps.db.kind,
    valkey: Boolean(deps.redis),
  });
  // Without Valkey nothing outside this process can take jobs, so this process is also the worker
  // and the beat.
  const background =
    deps.queue.backend === "in-process" ? [await startWorker(deps), await startBeat(deps)] : [];
  const depth = background.length === 0 ? startQueueDepthSampler(deps) : null; // the in-process worker samples it itself
  if (deps.db.kind === "embedded" || background.length > 0) {
    log.warn({
      msg:
        "running EMBEDDED: API, worker and beat in this one process" +
        (deps.db.kind === "embedded"
          ? `, PostgreSQL in-process (PGlite) with data in ${config.SVC_DATA_DIR}`
          : ""),
      production:
        "set DATABASE_URL (PostgreSQL 15+ with pgvector) and VALKEY_URL, then run `svc serve`, `svc worker` and exactly one `svc beat`; see docs/operations.md",
    });
  }

  const stop = async (signal: string) => {
    log.info({ msg: "shutting down", signal });
    await server.stop();
    depth?.stop();
    for (const part of background.reverse()) await part.close();
    await closeDeps(deps);
    exitAfterLogs(log, 0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}
