// A real `svc serve` for the Python SDK's suite, as a child process on a kernel-chosen port, in
// either database mode: PostgreSQL (the run's database, Valkey, and a `svc worker` on a queue
// prefix of its own) or embedded (PGlite in a fresh data directory, queue in-process). Every gate
// is on.
import Redis from "ioredis";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomKey } from "../harness/chaos-serve";
import { TEST_VALKEY_URL } from "../harness/env";
import { BUN, freePort, MAIN, serviceEnv, waitFor } from "../harness/process";

export type Mode = "postgres" | "embedded";
export type PythonServer = {
  url: string;
  bootstrapKey: string;
  dataDir: string;
  stop: () => Promise<void>;
  log: () => string;
};

const GATES = {
  INGEST_ENABLED: "true",
  DISTILL_ENABLED: "true",
  REFINE_ENABLED: "true",
  FORGET_PROOF_ENABLED: "true",
};

export async function startServer(mode: Mode): Promise<PythonServer> {
  const port = freePort();
  const bootstrapKey = randomKey();
  const dataDir = mkdtempSync(path.join(tmpdir(), `svc-python-${mode}-`));
  const prefix = `svcpy${process.pid}x${Date.now().toString(36)}`;
  const common = {
    PORT: String(port),
    HOST: "127.0.0.1",
    SVC_API_KEY: bootstrapKey,
    SVC_DEFAULT_ORG: `python-sdk-${mode}-${port}`,
    RATE_LIMIT_ENABLED: "false",
    LOG_LEVEL: "warn",
    SVC_DATA_DIR: dataDir,
    ...GATES,
  };
  const env =
    mode === "postgres"
      ? serviceEnv({ ...common, SVC_QUEUE_PREFIX: prefix, SVC_AUDIT_LISTEN_ENABLED: "true" })
      : {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: dataDir,
          AUDIT_DRAIN_INTERVAL_SECONDS: "0.2",
          ...common,
        };
  const children = [Bun.spawn([BUN, MAIN, "serve"], { env, stdout: "ignore", stderr: "pipe" })];
  if (mode === "postgres")
    children.push(Bun.spawn([BUN, MAIN, "worker"], { env, stdout: "ignore", stderr: "pipe" }));
  let log = "";
  for (const child of children) {
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of child.stderr as ReadableStream<Uint8Array>)
        log = (log + decoder.decode(chunk)).slice(-20_000);
    })();
  }
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    for (const child of children) child.kill("SIGTERM");
    const force = setTimeout(() => children.forEach((child) => child.kill("SIGKILL")), 10_000);
    await Promise.all(children.map((child) => child.exited));
    clearTimeout(force);
    rmSync(dataDir, { recursive: true, force: true });
    if (mode === "postgres") await dropQueue(prefix);
  };
  try {
    await waitFor(`${url}/v1/health`, 90_000);
  } catch (error) {
    await stop();
    throw new Error(`svc serve (${mode}) did not come up: ${(error as Error).message}\n${log}`);
  }
  return { url, bootstrapKey, dataDir, stop, log: () => log };
}

/** A key made through the API (what a user does), holding every scope the bootstrap key holds. */
export async function createKey(server: PythonServer, name: string): Promise<string> {
  const response = await fetch(`${server.url}/v1/api-keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.bootstrapKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      name,
      scopes: ["memories:read", "memories:write", "forge:write", "audit:read", "admin", "export"],
    }),
  });
  const body = (await response.json()) as { key: string };
  if (response.status !== 201)
    throw new Error(`key creation answered ${response.status}: ${JSON.stringify(body)}`);
  return body.key;
}

async function dropQueue(prefix: string): Promise<void> {
  const redis = new Redis(TEST_VALKEY_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

/**
 * Debian's python3 with python3-httpx and python3-pytest (scripts/setup-services.sh installs them).
 */
export function findPython(): string {
  for (const candidate of [process.env.SVC_TEST_PYTHON, "/usr/bin/python3", "python3"]) {
    if (!candidate) continue;
    try {
      if (Bun.spawnSync([candidate, "-c", "import httpx, pytest"]).exitCode === 0) return candidate;
    } catch {
      /* not installed */
    }
  }
  throw new Error(
    "no python3 with httpx and pytest: run scripts/setup-services.sh (installs python3-httpx, python3-pytest)",
  );
}

export type PytestRun = {
  code: number;
  output: string;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
};

/**
 * Runs pytest on `target` with the server's URL and a key in the environment; parses its summary
 * line.
 */
export async function runPytest(
  python: string,
  target: string,
  env: Record<string, string>,
): Promise<PytestRun> {
  const root = path.resolve(import.meta.dir, "../..");
  const proc = Bun.spawn([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", target], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      PYTHONDONTWRITEBYTECODE: "1",
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  const summary = out.trim().split("\n").pop() ?? "";
  const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(summary)?.[1] ?? 0);
  return {
    code,
    output: `${out}\n${err}`,
    passed: count("passed"),
    failed: count("failed"),
    errors: count("error"),
    skipped: count("skipped"),
  };
}
