// Builds ./svc once into an empty directory and drives the binary with a bare environment (no
// node_modules, no source tree): embedded mode first, then against PostgreSQL and Valkey with
// separate serve, worker and beat processes. Health, key, store, recall, forget in both.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pkg from "../../package.json";
import { createLogger } from "../../src/observability/log";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { TEST_VALKEY_URL, testDatabaseEnv } from "../harness/env";
import { freePort, waitFor } from "../harness/process";
import { writeTinyModelDir } from "../harness/tiny-bert-model";
import { eventually } from "../queue/wait";

const dir = mkdtempSync(path.join(tmpdir(), "svc-binary-"));
const binary = path.join(dir, "svc");
const bareEnv = (extra: Record<string, string> = {}) => ({
  PATH: "/usr/bin:/bin",
  HOME: dir,
  LOG_LEVEL: "warn",
  ...extra,
});
const running: Subprocess[] = [];
const queuePrefix = `svcbin${process.pid}x${Date.now().toString(36)}`;

async function svc(args: string[], env: Record<string, string>) {
  const proc = Bun.spawn([binary, ...args], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

function start(args: string[], env: Record<string, string>): Subprocess<"ignore", "pipe", "pipe"> {
  const proc = Bun.spawn([binary, ...args], {
    cwd: dir,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  running.push(proc);
  return proc;
}

async function flows(base: string, key: string, label: string) {
  const call = async (method: string, url: string, body?: unknown) => {
    const r = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json().catch(() => null)) as any };
  };
  expect((await fetch(`${base}/v1/health`)).status).toBe(200);
  const stored = await call("POST", "/v1/memories", {
    agent_id: "smoke",
    content: `${label}: the release train leaves on Thursdays`,
  });
  expect(stored.status, JSON.stringify(stored.body)).toBe(201);
  await call("POST", "/v1/memories", {
    agent_id: "smoke",
    content: `${label}: the cafeteria closes at three`,
  });
  const recalled = await call("POST", "/v1/memories/recall", {
    agent_id: "smoke",
    query: "when does the release train leave?",
    top_k: 1,
  });
  expect(recalled.status, JSON.stringify(recalled.body)).toBe(200);
  expect(recalled.body.results[0].memory_id).toBe(stored.body.memory_id);
  const forgotten = await call("POST", "/v1/memories/forget", { memory_id: stored.body.memory_id });
  expect(forgotten.body.forgotten).toEqual([stored.body.memory_id]);
}

async function stop(proc: Subprocess): Promise<number> {
  proc.kill("SIGTERM");
  return proc.exited;
}

beforeAll(async () => {
  const build = Bun.spawnSync(
    [process.execPath, "run", path.resolve(import.meta.dir, "../../scripts/build.ts"), binary],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`);
  console.log(build.stdout.toString().trim());
}, 300_000); // a hang bound: compiling took over 60 s with other files running beside it

afterAll(async () => {
  for (const proc of running) proc.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  const queue = new BullmqQueue(TEST_VALKEY_URL, queuePrefix, createLogger("silent"));
  await queue.queue.obliterate({ force: true });
  await queue.close();
});

test("the binary has a version and help, exit 0", async () => {
  const version = await svc(["--version"], bareEnv());
  expect(version.code, version.stderr).toBe(0);
  expect(version.stdout.trim()).toBe(`svc ${pkg.version}`);
  const help = await svc(["serve", "--help"], bareEnv());
  expect(help.code, help.stderr).toBe(0);
  expect(help.stdout).toStartWith("Usage: svc serve");
});

test("embedded: keys create, serve from an empty directory, main flows, data dir locked while serving", async () => {
  const created = await svc(["keys", "create", "--org", "smoke"], bareEnv());
  expect(created.code, created.stderr).toBe(0);
  const { key } = JSON.parse(created.stdout);
  const port = freePort();
  const startedAt = performance.now();
  const serve = start(["serve"], bareEnv({ PORT: String(port) }));
  await waitFor(`http://127.0.0.1:${port}/v1/ready`, 20_000);
  console.log(
    `binary cold start, embedded (existing data dir) to /v1/ready 200: ${(performance.now() - startedAt).toFixed(0)} ms`,
  );
  await flows(`http://127.0.0.1:${port}`, key, "embedded");
  await eventually(
    async () => (await fetch(`http://127.0.0.1:${port}/v1/worker/health`)).status === 200,
    "the in-process worker pulse",
    20_000,
  );

  const second = await svc(["keys", "create", "--org", "other"], bareEnv());
  expect(second.code).toBe(1);
  expect(second.stderr).toContain("in use by process");
  expect(await stop(serve)).toBe(0);
  const startupLog = await new Response(serve.stdout).text();
  expect(startupLog).toContain("running EMBEDDED");
  expect(startupLog).toContain("set DATABASE_URL");
}, 60_000);

test("server mode: migrate, keys create, serve + worker + beat against PostgreSQL and Valkey", async () => {
  const env = bareEnv({
    ...testDatabaseEnv(),
    VALKEY_URL: TEST_VALKEY_URL,
    SVC_QUEUE_PREFIX: queuePrefix,
  });
  expect((await svc(["migrate"], env)).code).toBe(0);
  const created = await svc(["keys", "create", "--org", `binary-${process.pid}`], env);
  expect(created.code, created.stderr).toBe(0);
  const { key } = JSON.parse(created.stdout);
  const port = freePort();
  const startedAt = performance.now();
  const serve = start(["serve"], { ...env, PORT: String(port) });
  await waitFor(`http://127.0.0.1:${port}/v1/ready`, 20_000);
  console.log(
    `binary cold start, PostgreSQL + Valkey, to /v1/ready 200: ${(performance.now() - startedAt).toFixed(0)} ms`,
  );
  const worker = start(["worker"], env);
  const beat = start(["beat"], env);
  await flows(`http://127.0.0.1:${port}`, key, "server");
  await eventually(
    async () => {
      const r = await fetch(`http://127.0.0.1:${port}/v1/worker/health`);
      return (
        r.status === 200 &&
        ((await r.json()) as { worker_id: string }).worker_id.endsWith(`-${worker.pid}`)
      );
    },
    "the worker's pulse",
    30_000,
  );
  expect(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).toContain(
    'svc_queue_jobs{state="waiting"}',
  );
  expect(await Promise.all([stop(beat), stop(worker), stop(serve)])).toEqual([0, 0, 0]);
}, 60_000);

test("embedded with EMBEDDING_PROVIDER=onnx: the embedded .wasm runs the model, VECTOR recall answers", async () => {
  const modelDir = writeTinyModelDir({ dims: 16, pooling: "mean" });
  try {
    const env = bareEnv({
      EMBEDDING_PROVIDER: "onnx",
      EMBEDDING_MODEL_PATH: modelDir,
      SVC_DATA_DIR: path.join(dir, "onnx-data"),
    });
    const created = await svc(["keys", "create", "--org", "onnx"], env);
    expect(created.code, created.stderr).toBe(0);
    const { key } = JSON.parse(created.stdout);
    const port = freePort();
    const serve = start(["serve"], { ...env, PORT: String(port) });
    await waitFor(`http://127.0.0.1:${port}/v1/ready`, 20_000);
    const call = async (url: string, body: unknown) => {
      const r = await fetch(`http://127.0.0.1:${port}${url}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: (await r.json()) as any };
    };
    const stored = await call("/v1/memories", { agent_id: "smoke", content: "the kafka broker" });
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);
    expect(stored.body.embedding_status).toBe("ready");
    await call("/v1/memories", { agent_id: "smoke", content: "the vault secret rotated" });
    const recalled = await call("/v1/memories/recall", {
      agent_id: "smoke",
      query: "Kafka broker",
      strategy: "VECTOR",
      top_k: 1,
    });
    expect(recalled.status, JSON.stringify(recalled.body)).toBe(200);
    expect(recalled.body.routing.degraded_from).toBeUndefined();
    expect(recalled.body.results[0].memory_id).toBe(stored.body.memory_id);
    expect(await stop(serve)).toBe(0);
  } finally {
    rmSync(modelDir, { recursive: true, force: true });
  }
}, 120_000);
