// Each database mode's real app listening on a loopback port with one tenant, for adapters driven
// over real HTTP by the TypeScript SDK, and the adapters' examples run as a user runs them.
import { BUN } from "../harness/process";
import type { Tenant } from "../harness/app";
import { twoTenantModes } from "../harness/two-tenant-modes";
import { SvcClient } from "../../sdk/src/index";

export type ServedMode = { name: string; open(): Promise<Served> };
export type Served = { url: string; tenant: Tenant; svc: SvcClient; close(): Promise<void> };

const ROOT = new URL("../..", import.meta.url).pathname;

export function servedModes(prefix: string): ServedMode[] {
  return twoTenantModes(prefix).map((mode) => ({
    name: mode.name,
    async open() {
      const { app, tenants, close } = await mode.open();
      const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: app.handle });
      const url = `http://127.0.0.1:${server.port}`;
      const svc = new SvcClient({ baseUrl: url, apiKey: tenants[0].key });
      return {
        url,
        tenant: tenants[0],
        svc,
        close: async () => {
          server.stop(true);
          await close();
        },
      };
    },
  }));
}

/**
 * Runs an adapter's example (`adapters/<name>/example.ts`) with Bun from the repo root, to its
 * exit.
 */
export async function runExample(adapter: string, args: string[], env: Record<string, string>) {
  const example = `${ROOT}adapters/${adapter}/example.ts`;
  const proc = Bun.spawn([BUN, example, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
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
