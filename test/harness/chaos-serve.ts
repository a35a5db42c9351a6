// A real `svc serve` child process with its own bootstrap key and org, for chaos tests.
import postgres from "postgres";
import { BUN, freePort, MAIN, serviceEnv, waitFor } from "./process";

export type ServeChild = {
  base: string;
  key: string;
  orgName: string;
  proc: ReturnType<typeof Bun.spawn>;
  stderr: () => string;
  alive: () => boolean;
  stop: () => Promise<void>;
};

export function randomKey(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return (
    "svc_sk_" +
    Array.from(
      crypto.getRandomValues(new Uint8Array(40)),
      (b) => alphabet[b % alphabet.length],
    ).join("")
  );
}

export async function startServe(
  env: Record<string, string> = {},
  readyTimeoutMs = 20_000,
): Promise<ServeChild> {
  const port = freePort();
  const key = randomKey();
  const orgName = `chaos-${process.pid}-${port}`;
  const proc = Bun.spawn([BUN, MAIN, "serve"], {
    env: serviceEnv({
      PORT: String(port),
      HOST: "127.0.0.1",
      SVC_API_KEY: key,
      SVC_DEFAULT_ORG: orgName,
      RATE_LIMIT_ENABLED: "false",
      LOG_LEVEL: "warn",
      ...env,
    }),
    stdout: "ignore",
    stderr: "pipe",
  });
  let err = "";
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>)
      err = (err + decoder.decode(chunk)).slice(-20_000);
  })();
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/v1/health`, readyTimeoutMs);
  } catch (error) {
    proc.kill("SIGKILL");
    throw new Error(`svc serve did not come up: ${(error as Error).message}\n${err}`);
  }
  return {
    base,
    key,
    orgName,
    proc,
    stderr: () => err,
    alive: () => proc.exitCode === null && proc.signalCode === null,
    async stop() {
      proc.kill("SIGTERM");
      const t = setTimeout(() => proc.kill("SIGKILL"), 5000);
      await proc.exited;
      clearTimeout(t);
    },
  };
}

export type ServeAnswer = { status: number; body: any; contentType: string };

/**
 * An authenticated call to a serve child; status 0 when no answer came within `timeoutMs` (or the
 * process is gone).
 */
export async function callServe(
  serve: ServeChild,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = 30_000,
): Promise<ServeAnswer> {
  try {
    const r = await fetch(serve.base + path, {
      method,
      headers: { authorization: `Bearer ${serve.key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await r.text();
    return {
      status: r.status,
      body: text.startsWith("{") ? JSON.parse(text) : text,
      contentType: r.headers.get("content-type") ?? "",
    };
  } catch {
    return { status: 0, body: null, contentType: "" };
  }
}

/**
 * Terminates every backend the serve process holds (application_name `svc-serve`); returns how
 * many.
 */
export async function terminateServeBackends(admin: postgres.Sql): Promise<number> {
  const rows =
    await admin`SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = 'svc-serve' AND datname = current_database()`;
  return rows.filter((r) => r.done).length;
}

export type SvcChild = {
  proc: ReturnType<typeof Bun.spawn>;
  stderr: () => string;
  alive: () => boolean;
  kill: (signal?: NodeJS.Signals | number) => Promise<void>;
};

/** Any long-running `svc` subcommand (worker, beat) as a child process, stderr captured. */
export function spawnSvc(args: string[], env: Record<string, string>): SvcChild {
  const proc = Bun.spawn([BUN, MAIN, ...args], {
    env: serviceEnv({ LOG_LEVEL: "warn", ...env }),
    stdout: "ignore",
    stderr: "pipe",
  });
  let err = "";
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>)
      err = (err + decoder.decode(chunk)).slice(-20_000);
  })();
  return {
    proc,
    stderr: () => err,
    alive: () => proc.exitCode === null && proc.signalCode === null,
    async kill(signal = "SIGTERM") {
      proc.kill(signal);
      const t = setTimeout(() => proc.kill("SIGKILL"), 5000);
      await proc.exited;
      clearTimeout(t);
    },
  };
}
