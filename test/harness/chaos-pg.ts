// Superuser access to the shared test cluster (pg_dump, pg_terminate_backend) and throwaway
// PostgreSQL/Valkey servers for chaos tests.
import { mkdtempSync, rmSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./process";

export const PG_BIN = process.env.TEST_PG_BIN ?? "/usr/lib/postgresql/15/bin";
const isRoot = process.getuid?.() === 0;

/**
 * Runs a PostgreSQL client or server binary as the `postgres` OS user when we are root, else as
 * ourselves.
 */
export function pgCommand(binary: string, args: string[]): string[] {
  const path = join(PG_BIN, binary);
  return isRoot ? ["runuser", "-u", "postgres", "--", path, ...args] : [path, ...args];
}

async function run(cmd: string[], env: Record<string, string> = {}): Promise<string> {
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${err.slice(-1500)}`);
  return out;
}

/**
 * A data-only dump of a database that sees every row despite FORCE ROW LEVEL SECURITY: as the
 * postgres superuser over the local socket when we are root (CI), else with TEST_PG_DUMP_URL (a
 * superuser URL).
 */
export function superuserDump(databaseUrl: string): Promise<string> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const override = process.env.TEST_PG_DUMP_URL;
  if (override) {
    const url = new URL(override);
    url.pathname = `/${name}`;
    return run([join(PG_BIN, "pg_dump"), "--no-owner", url.toString()]);
  }
  if (!isRoot)
    throw new Error(
      "superuserDump needs root (runuser -u postgres) or TEST_PG_DUMP_URL pointing at a superuser",
    );
  // the cluster's own port: the socket file is named after it (PG_PORT moves the test cluster off
  // 5432)
  return run(
    pgCommand("pg_dump", [
      "--no-owner",
      "-h",
      "/var/run/postgresql",
      "-p",
      new URL(databaseUrl).port || "5432",
      name,
    ]),
  );
}

export type ThrowawayPostgres = {
  port: number;
  url: string;
  servingUrl: string;
  env: { DATABASE_URL: string; DATABASE_MIGRATION_URL: string };
  dataDir: string;
  restart(mode?: "immediate" | "fast"): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
};

/**
 * initdb + pg_ctl on a random loopback port in a temp dir; a `svc` login owning database `svc`,
 * pgvector installed, and the `svc_serving` login the service serves as (`env`: DATABASE_URL as it,
 * the owner in DATABASE_MIGRATION_URL).
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const root = mkdtempSync(join(tmpdir(), "svc-chaos-pg-"));
  chmodSync(root, 0o777);
  const dataDir = join(root, "data");
  const port = freePort();
  await run(
    pgCommand("initdb", [
      "-D",
      dataDir,
      "-U",
      "postgres",
      "--auth=trust",
      "-E",
      "UTF8",
      "--no-sync",
    ]),
  );
  const ctl = (args: string[]) =>
    run(pgCommand("pg_ctl", ["-D", dataDir, "-w", "-t", "30", ...args]));
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const start = () => ctl(["-o", options, "-l", join(root, "log"), "start"]).then(() => undefined);
  await start();
  const psql = (db: string, sql: string) =>
    run(
      pgCommand("psql", [
        "-h",
        "127.0.0.1",
        "-p",
        String(port),
        "-U",
        "postgres",
        "-d",
        db,
        "-v",
        "ON_ERROR_STOP=1",
        "-Atc",
        sql,
      ]),
    );
  // Mirrors scripts/setup-services.sh: a non-superuser owner, the RLS-bound app role granted to it,
  // pgvector pre-created.
  await psql("postgres", "CREATE ROLE svc LOGIN PASSWORD 'svc' CREATEDB NOSUPERUSER NOBYPASSRLS");
  await psql("postgres", "CREATE ROLE svc_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT");
  await psql("postgres", "GRANT svc_app TO svc");
  await psql(
    "postgres",
    "CREATE ROLE svc_serving LOGIN PASSWORD 'svc_serving' NOSUPERUSER NOBYPASSRLS NOINHERIT",
  );
  await psql("postgres", "GRANT svc_app TO svc_serving");
  await psql("postgres", "CREATE DATABASE svc OWNER svc");
  await psql("svc", "CREATE EXTENSION IF NOT EXISTS vector");
  const url = `postgres://svc:svc@127.0.0.1:${port}/svc`;
  const servingUrl = `postgres://svc_serving:svc_serving@127.0.0.1:${port}/svc`;
  return {
    port,
    dataDir,
    url,
    servingUrl,
    env: { DATABASE_URL: servingUrl, DATABASE_MIGRATION_URL: url },
    start,
    stop: () => ctl(["-m", "immediate", "stop"]).then(() => undefined),
    restart: (mode = "immediate") =>
      ctl(["-m", mode, "-o", options, "-l", join(root, "log"), "restart"]).then(() => undefined),
  };
}

export async function destroyPostgres(pg: ThrowawayPostgres): Promise<void> {
  await pg.stop().catch(() => {});
  rmSync(join(pg.dataDir, ".."), { recursive: true, force: true });
}

export type ThrowawayValkey = {
  port: number;
  url: string;
  kill(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
};

/** redis-server (or valkey-server) with AOF everysec on a random port in a temp dir. */
export async function startThrowawayValkey(): Promise<ThrowawayValkey> {
  const dir = mkdtempSync(join(tmpdir(), "svc-chaos-valkey-"));
  const port = freePort();
  const binary = Bun.which("valkey-server") ?? Bun.which("redis-server");
  if (!binary) throw new Error("neither valkey-server nor redis-server is on PATH");
  let proc: ReturnType<typeof Bun.spawn> | null = null;
  async function start(): Promise<void> {
    proc = Bun.spawn(
      [
        binary!,
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--appendonly",
        "yes",
        "--appendfsync",
        "everysec",
        "--maxmemory-policy",
        "noeviction",
        "--save",
        "",
      ],
      { stdout: "ignore", stderr: "ignore" },
    );
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      try {
        const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
        socket.end();
        return;
      } catch {
        await Bun.sleep(50);
      }
    }
    throw new Error(`valkey on ${port} did not start`);
  }
  async function kill(): Promise<void> {
    proc?.kill(9);
    await proc?.exited;
    proc = null;
  }
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    kill,
    async destroy() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
