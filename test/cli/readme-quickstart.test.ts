// The README's quick start, exactly as a newcomer copy-pastes it, against a freshly started
// embedded server (no DATABASE_URL, no VALKEY_URL): the development key is read from its owner-only
// file in the data directory, and a restart says where that file is without printing the key again.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BUN, freePort, MAIN, waitFor } from "../harness/process";

const root = path.resolve(import.meta.dir, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "svc-quickstart-"));
const port = String(freePort());
const env = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: dataDir,
  PORT: port,
  SVC_DATA_DIR: dataDir,
  LOG_LEVEL: "warn",
};
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function startEmbedded() {
  const proc = Bun.spawn([BUN, MAIN, "serve"], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
  const stderr = new Response(proc.stderr).text();
  try {
    // A hang detector: a first start (initdb, every migration) takes minutes on a busy machine.
    await waitFor(`http://127.0.0.1:${port}/v1/health`, 180_000);
  } catch (error) {
    proc.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\n${await stderr}`);
  }
  return {
    proc,
    stop: async () => {
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
      return stderr;
    },
  };
}

test("the README quick start runs end to end on a fresh embedded start; the key file is 0600 and named on every start", async () => {
  const script = Bun.spawnSync([
    "node",
    path.join(root, "scripts/readme-quickstart.mjs"),
  ]).stdout.toString();
  expect(script).toContain("dev-api-key");
  const keyFile = path.join(dataDir, "dev-api-key");

  const first = await startEmbedded();
  const run = Bun.spawn(["bash", "-euo", "pipefail", "-c", script], {
    cwd: root,
    env,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(run.stdout).text(),
    new Response(run.stderr).text(),
    run.exited,
  ]);
  const firstLog = await first.stop();
  expect(code, `${err}\n${firstLog}`).toBe(0);
  // the stored memory, then the recall answer that finds it, each on its own line
  const [stored, recalled, ...rest] = out.trimEnd().split("\n");
  expect(rest).toEqual([]);
  expect(JSON.parse(stored!).memory_id).toStartWith("mem_");
  expect(JSON.parse(recalled!).results[0].content).toContain("ops/deploy.sh");
  // the first start says it is creating the database instead of staying silent
  expect(firstLog).toContain("creating the database");

  const key = readFileSync(keyFile, "utf8").trim();
  expect(key).toStartWith("svc_sk_");
  expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  expect(firstLog).toContain(`Development API key (new): ${key}`);
  expect(firstLog).toContain(`Saved to ${keyFile}`);

  const second = await startEmbedded();
  const secondLog = await second.stop();
  expect(secondLog).toContain(`Development API key: in ${keyFile}`);
  expect(secondLog).not.toContain(key);
  expect(secondLog).not.toContain("creating the database");
}, 420_000);
