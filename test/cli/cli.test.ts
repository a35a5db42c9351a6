// The `svc` binary's contract: help and version exit 0, usage and exit 2 on bad invocations, exit 1
// naming a bad variable, `keys create` prints one JSON line, `serve` answers /v1/ready and stops
// cleanly on SIGTERM.
import { describe, expect, test } from "bun:test";
import pkg from "../../package.json";
import { BUN, freePort, MAIN, runSvc, serviceEnv, waitFor } from "../harness/process";

describe("svc CLI", () => {
  test("no command, an unknown command or a bad flag prints usage and exits 2", async () => {
    for (const args of [
      [],
      ["frobnicate"],
      ["keys", "create", "--org", "x", "--bogus"],
      ["keys", "rotate"],
      ["migrate", "extra"],
    ]) {
      const r = await runSvc(args, serviceEnv());
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("Usage:");
    }
  });

  test("--help, -h and help print usage on stdout and exit 0; --version prints the package version", async () => {
    for (const args of [["--help"], ["-h"], ["help"]]) {
      const r = await runSvc(args, serviceEnv());
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout).toContain("Usage:");
      expect(r.stdout).toContain("svc keys create --org <name>");
    }
    for (const args of [["--version"], ["-V"], ["version"]]) {
      const r = await runSvc(args, serviceEnv());
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout.trim()).toBe(`svc ${pkg.version}`);
    }
  });

  test("every subcommand answers --help with its own usage, exit 0, and starts nothing", async () => {
    const commands: Array<[string[], string]> = [
      [["serve", "--help"], "Usage: svc serve"],
      [["worker", "-h"], "Usage: svc worker"],
      [["beat", "--help"], "Usage: svc beat"],
      [["migrate", "--help"], "Usage: svc migrate"],
      [["keys", "--help"], "Usage: svc keys create"],
      [["keys", "create", "-h"], "Usage: svc keys create"],
      [["audit", "verify", "--help"], "Usage: svc audit verify"],
      [["refine", "schedule", "--help"], "Usage: svc refine schedule"],
      [["forget", "verify", "--help"], "Usage: svc forget verify"],
    ];
    // an unreachable database: a command that ran instead of printing help would fail, not exit 0
    const env = serviceEnv({
      DATABASE_URL: "postgres://nobody:x@127.0.0.1:1/none",
      DATABASE_MIGRATION_URL: "postgres://nobody:x@127.0.0.1:1/none",
      VALKEY_URL: "redis://127.0.0.1:1",
    });
    for (const [args, expected] of commands) {
      const r = await runSvc(args, env);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toStartWith(expected);
    }
  }, 180_000); // nine processes: seconds each on a busy machine; the bound only catches a hang

  test("an invalid variable stops the process naming the variable", async () => {
    const r = await runSvc(["migrate"], serviceEnv({ PORT: "eighty" }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("PORT");
    const b = await runSvc(["serve"], serviceEnv({ RATE_LIMIT_BURST: "-3" }));
    expect(b.code).toBe(1);
    expect(b.stderr).toContain("RATE_LIMIT_BURST");
  }, 180_000); // real processes: seconds each on a busy machine; the bound only catches a hang

  test("keys create prints one JSON line whose key works", async () => {
    const org = `cli-${process.pid}`;
    const r = await runSvc(["keys", "create", "--org", org], serviceEnv());
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines.length).toBe(1);
    const out = JSON.parse(lines[0]!);
    expect(Object.keys(out).sort()).toEqual(["key", "key_id", "org_id", "scopes"]);
    expect(out.scopes).toEqual([
      "memories:read",
      "memories:write",
      "forge:write",
      "audit:read",
      "export",
      "admin",
    ]);
    expect(out.key).toStartWith("svc_sk_");
    const again = JSON.parse((await runSvc(["keys", "create", "--org", org], serviceEnv())).stdout);
    expect(again.org_id).toBe(out.org_id);
    const sa = JSON.parse((await runSvc(["keys", "create", "--superadmin"], serviceEnv())).stdout);
    expect(sa.role).toBe("superadmin");
    expect(sa.key.length).toBeGreaterThan(40);
  }, 180_000); // real processes: seconds each on a busy machine; the bound only catches a hang

  test("migrate && serve: /v1/ready 200, then SIGTERM exits 0", async () => {
    expect((await runSvc(["migrate"], serviceEnv())).code).toBe(0);
    const port = freePort();
    const proc = Bun.spawn([BUN, MAIN, "serve"], {
      env: serviceEnv({ PORT: String(port), HOST: "127.0.0.1" }),
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      await waitFor(`http://127.0.0.1:${port}/v1/ready`, 120_000);
      const ready = (await (await fetch(`http://127.0.0.1:${port}/v1/ready`)).json()) as {
        checks: unknown;
      };
      expect(ready.checks).toEqual({ database: "ok", migrations: "ok", valkey: "ok" });
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
    } finally {
      proc.kill("SIGKILL");
    }
  }, 180_000); // real processes: seconds each on a busy machine; the bound only catches a hang
});
