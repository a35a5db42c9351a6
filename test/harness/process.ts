// Runs the real `svc` entry point as a child process with an explicit environment (the run's database as the
// serving login, the owner in DATABASE_MIGRATION_URL).
import { TEST_VALKEY_URL, testDatabaseEnv } from "./env";

export const BUN = process.execPath;
export const MAIN = new URL("../../src/main.ts", import.meta.url).pathname;

export function serviceEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...testDatabaseEnv(), VALKEY_URL: TEST_VALKEY_URL, LOG_LEVEL: "warn", ...extra };
}

export async function runSvc(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([BUN, MAIN, ...args], { env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

export const freePort = () => 20000 + Math.floor(Math.random() * 20000);

export async function waitFor(url: string, timeoutMs = 15000, expectStatus = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).status === expectStatus) return;
    } catch { /* not listening yet */ }
    await Bun.sleep(100);
  }
  throw new Error(`${url} did not answer ${expectStatus} within ${timeoutMs} ms`);
}
