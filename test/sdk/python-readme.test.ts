// The README's Python quick start as a newcomer follows it: the package installed with pip
// (offline, into a directory of its own, from a copy of sdk/python), then the ```python block run
// against a freshly started embedded server, reading the development key from its file.
import { afterAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BUN, freePort, MAIN, waitFor } from "../harness/process";
import { findPython } from "./python-server";

const root = path.resolve(import.meta.dir, "../..");
const work = mkdtempSync(path.join(tmpdir(), "svc-python-quickstart-"));
const dataDir = path.join(work, "data");
afterAll(() => rmSync(work, { recursive: true, force: true }));

function quickStart(): { sh: string; python: string } {
  const section = readFileSync(path.join(root, "README.md"), "utf8")
    .split(/^## /m)
    .find((part) => part.startsWith("Python quick start"));
  const sh = section && /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  const python = section && /```python\n([\s\S]*?)```/.exec(section)?.[1];
  if (!sh || !python)
    throw new Error("README.md has no ```sh and ```python block under ## Python quick start");
  return { sh, python };
}

async function run(cmd: string[], env: Record<string, string>, cwd = root) {
  const proc = Bun.spawn(cmd, {
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { out, err, code };
}

test("pip install ./sdk/python, then the README's Python block against a fresh embedded server", async () => {
  const { sh, python } = quickStart();
  expect(sh.trim().split("\n")[0]).toStartWith("pip install ./sdk/python");
  const interpreter = findPython();
  const source = path.join(work, "sdk-python");
  cpSync(path.join(root, "sdk/python"), source, {
    recursive: true,
    filter: (from) => !from.includes("__pycache__"),
  });
  const site = path.join(work, "site");
  const install = await run(
    [
      interpreter,
      "-m",
      "pip",
      "install",
      "--no-deps",
      "--no-build-isolation",
      "--no-index",
      "--target",
      site,
      source,
    ],
    {},
  );
  expect(install.code, install.out + install.err).toBe(0);

  const port = String(freePort());
  const env = { PORT: port, SVC_DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  const server = Bun.spawn([BUN, MAIN, "serve"], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work, ...env },
    stdout: "ignore",
    stderr: "pipe",
  });
  const serverLog = new Response(server.stderr).text();
  try {
    await waitFor(`http://127.0.0.1:${port}/v1/health`, 90_000);
    // Only the installed copy is importable: not the repository's sdk/python.
    const block = await run([interpreter, "-c", python], { ...env, PYTHONPATH: site }, work);
    expect(block.code, block.err).toBe(0);
    expect(block.out.trim()).toBe("The deploy script lives in ops/deploy.sh");
    const where = await run(
      [interpreter, "-c", "import svc; print(svc.__file__)"],
      { PYTHONPATH: site },
      work,
    );
    expect(where.out.trim()).toStartWith(site);
  } finally {
    server.kill("SIGTERM");
    const code = await server.exited;
    expect(code, await serverLog).toBe(0);
  }
}, 240_000);
