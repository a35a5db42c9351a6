// Embedded mode (no DATABASE_URL): PostgreSQL in-process through PGlite with pgvector and pg_trgm,
// served to postgres.js over a private unix socket with ONE connection (pglite-socket multiplexes a
// single backend session; more connections hang or break transactions). PGlite's default user is a
// superuser, so `svc serve` migrates in such a session, then reopens as the non-superuser serving
// login (src/app/database-roles.ts).
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { loadPgliteAssets } from "./embedded-assets";
import { connect, type Database } from "./pools";

export class DataDirInUseError extends Error {}

const heldHere = new Set<string>();

/** One open per data directory: PGlite has no locking of its own and two writers corrupt it. */
function lockDataDir(dataDir: string): () => void {
  const lockPath = path.join(dataDir, "svc.pid");
  if (heldHere.has(lockPath))
    throw new DataDirInUseError(
      `the embedded database in ${dataDir} is already open in this process`,
    );
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.add(lockPath);
      return () => {
        heldHere.delete(lockPath);
        rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(readFileSync(lockPath, "utf8").trim());
      // Our own pid in the file but not held here: a previous life of this pid (containers restart
      // as pid 1).
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new DataDirInUseError(
          `the embedded database in ${dataDir} is in use by process ${holder}; stop it first (one process per SVC_DATA_DIR), or set DATABASE_URL to use PostgreSQL`,
        );
      }
      rmSync(lockPath, { force: true }); // left behind by a process that died
    }
  }
  throw new DataDirInUseError(`could not lock ${lockPath}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * `username` opens the session as that role (default: PGlite's superuser, which migrations need).
 */
export async function openEmbedded(
  dataDir: string,
  options: { statementTimeoutMs: number; applicationName: string; username?: string },
): Promise<Database> {
  const pgDir = path.resolve(dataDir, "pg");
  mkdirSync(pgDir, { recursive: true });
  const unlock = lockDataDir(path.resolve(dataDir));
  try {
    const assets = await loadPgliteAssets();
    const extension = (name: "vector" | "pg_trgm") => ({
      name,
      setup: async (_pg: unknown, emscriptenOpts: unknown) => ({
        emscriptenOpts,
        bundlePath: assets.extensionBundles[name],
      }),
    });
    const pglite = await PGlite.create({
      dataDir: pgDir,
      ...(options.username ? { username: options.username } : {}),
      pgliteWasmModule: assets.pgliteWasmModule,
      initdbWasmModule: assets.initdbWasmModule,
      fsBundle: assets.fsBundle,
      extensions: { vector: extension("vector"), pg_trgm: extension("pg_trgm") },
    });
    // A unix socket path is limited to ~107 bytes, so it lives in the temp dir rather than under
    // dataDir.
    const socketPath = path.join(
      os.tmpdir(),
      `svc-pglite-${process.pid}-${Math.random().toString(36).slice(2, 8)}.sock`,
    );
    const server = new PGLiteSocketServer({ db: pglite, path: socketPath, maxConnections: 1 });
    await server.start();
    // The socket's one backend session LISTENs for the process: NOTIFYs committed by any
    // transaction here come back to it as NotificationResponse messages (verified on pglite-socket
    // 0.2.17).
    const listeners = new Map<string, Array<(payload: string) => void>>();
    const onnotify = (channel: string, payload: string) => {
      for (const fn of listeners.get(channel) ?? []) fn(payload);
    };
    const sql = connect(
      { path: socketPath },
      {
        max: 1,
        statementTimeoutMs: options.statementTimeoutMs,
        applicationName: options.applicationName,
      },
      onnotify,
    );
    return {
      primary: sql,
      read: sql,
      kind: "embedded",
      connections: 1,
      stats: { inFlight: 0 },
      async listen(channel, onMessage, onListen) {
        if (!listeners.has(channel)) {
          await sql`LISTEN ${sql(channel)}`;
          listeners.set(channel, []);
        }
        listeners.get(channel)!.push(onMessage);
        onListen();
      },
      async close() {
        await sql.end({ timeout: 5 });
        await server.stop();
        await pglite.close();
        rmSync(socketPath, { force: true });
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
