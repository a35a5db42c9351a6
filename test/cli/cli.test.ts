// The `svc` binary's contract: usage and exit 2 on bad invocations, exit 1 naming a bad variable,
// `keys create` prints one JSON line, `serve` answers /v1/ready and stops cleanly on SIGTERM.
import { describe, expect, test } from "bun:test";
import { BUN, freePort, MAIN, runSvc, serviceEnv, waitFor } from "../harness/process";

describe("svc CLI", () => {
  test("no command, an unknown command or a bad flag prints usage and exits 2", async () => {
    for (const args of [[], ["frobnicate"], ["keys", "create", "--org", "x", "--bogus"], ["keys", "rotate"], ["migrate", "extra"]]) {
      const r = await runSvc(args, serviceEnv());
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("Usage:");
    }
  });

  test("an invalid variable stops the process naming the variable", async () => {
    const r = await runSvc(["migrate"], serviceEnv({ PORT: "eighty" }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("PORT");
    const b = await runSvc(["serve"], serviceEnv({ RATE_LIMIT_BURST: "-3" }));
    expect(b.code).toBe(1);
    expect(b.stderr).toContain("RATE_LIMIT_BURST");
  });

  test("keys create prints one JSON line whose key works", async () => {
    const org = `cli-${process.pid}`;
    const r = await runSvc(["keys", "create", "--org", org], serviceEnv());
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines.length).toBe(1);
    const out = JSON.parse(lines[0]!);
    expect(Object.keys(out).sort()).toEqual(["key", "key_id", "org_id"]);
    expect(out.key).toStartWith("svc_sk_");
    const again = JSON.parse((await runSvc(["keys", "create", "--org", org], serviceEnv())).stdout);
    expect(again.org_id).toBe(out.org_id);
    const sa = JSON.parse((await runSvc(["keys", "create", "--superadmin"], serviceEnv())).stdout);
    expect(sa.role).toBe("superadmin");
    expect(sa.key.length).toBeGreaterThan(40);
  });

  test("migrate && serve: /v1/ready 200, then SIGTERM exits 0", async () => {
    expect((await runSvc(["migrate"], serviceEnv())).code).toBe(0);
    const port = freePort();
    const proc = Bun.spawn([BUN, MAIN, "serve"], { env: serviceEnv({ PORT: String(port), HOST: "127.0.0.1" }), stdout: "pipe", stderr: "pipe" });
    try {
      await waitFor(`http://127.0.0.1:${port}/v1/ready`);
      const ready = await (await fetch(`http://127.0.0.1:${port}/v1/ready`)).json() as { checks: unknown };
      expect(ready.checks).toEqual({ database: "ok", migrations: "ok", valkey: "ok" });
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
    } finally {
      proc.kill("SIGKILL");
    }
  });
});
