// Runs the real `svc` entry point as a child process with an explicit environment (the run's
// database as the serving login, the owner in DATABASE_MIGRATION_URL).
import { TEST_QUEUE_PREFIX, TEST_VALKEY_URL, testDatabaseEnv } from "./env";

export const BUN = process.execPath;
export const MAIN = new URL("../../src/main.ts", import.meta.url).pathname;

export function serviceEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/tmp",
    ...testDatabaseEnv(),
    VALKEY_URL: TEST_VALKEY_URL,
    // Not the default "svc": files running at the same time would take each other's jobs.
    SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-svc`,
    LOG_LEVEL: "warn",
    ...extra,
  };
}

/**
 * Runs `svc <args>` to its exit. `openInput` keeps its standard input open (a pipe never written),
 * for `svc mcp`, which stops cleanly at end of input before it would reach its startup checks.
 */
export async function runSvc(
  args: string[],
  env: Record<string, string>,
  openInput = false,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([BUN, MAIN, ...args], {
    env,
    stdin: openInput ? "pipe" : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/**
 * A loopback port nothing holds right now, chosen by the kernel (bind to port 0, then release). A
 * random pick from a fixed range could land on the local port of one of the suite's own outgoing
 * connections (the ephemeral range starts at 32768), and the child's bind then fails.
 */
export function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

export async function waitFor(url: string, timeoutMs = 15000, expectStatus = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).status === expectStatus) return;
    } catch {
      /* not listening yet */
    }
    await Bun.sleep(100);
  }
  throw new Error(`${url} did not answer ${expectStatus} within ${timeoutMs} ms`);
}
