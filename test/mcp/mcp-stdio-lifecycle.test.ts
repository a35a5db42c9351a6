// `svc mcp` over stdio ends cleanly at any moment: end of input, SIGTERM or SIGINT, while still
// starting (with calls queued) or after startup (with a call in flight, also one waiting on a row
// lock in the database). Every request it received gets exactly one answer (a result, or the
// shutdown's JSON-RPC error) and the process exits 0. It exits within about 2 s (printed); the
// bound asserted here only catches a hang, as the machine may be busy. "Starting" begins when the
// process logs it: before that the runtime itself is still loading. Beside CPU-bound load, a stop
// while the app's modules load must still be seen at once (they load in a worker thread): there the
// exit is asserted under LOADED_EXIT_S, 2.5 times the 2 s target (before the worker thread it took
// 6 to 25 s; bench/mcp-exit.ts prints the table).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import pkg from "../../package.json";
import { SHUTTING_DOWN_CODE } from "../../src/mcp/stdio-session";
import { TEST_QUEUE_PREFIX, testApp, type TestApp, type Tenant } from "../harness/app";
import { BUN, MAIN, serviceEnv } from "../harness/process";

const HANG_MS = 30_000;
const LOADED_EXIT_S = 5;
const BUSY_LOOPS = 4;

let t: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  t = await testApp();
  tenant = await t.tenant("stdio-lifecycle");
});
afterAll(() => t.close());

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "lifecycle", version: "1" },
  },
};
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const forget = (id: number, memoryId: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "forget", arguments: { memory_id: memoryId } },
});
const recall = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: {
    name: "recall",
    arguments: { agent_id: "lifecycle", query: "anything", strategy: "LEXICAL" },
  },
});

function start() {
  const env = serviceEnv({
    SVC_MCP_API_KEY: tenant.key,
    RATE_LIMIT_ENABLED: "false",
    SVC_QUEUE_PREFIX: TEST_QUEUE_PREFIX,
    LOG_LEVEL: "info",
  });
  const proc = Bun.spawn([BUN, MAIN, "mcp"], {
    env,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const answers: Array<{
    id?: number;
    result?: unknown;
    error?: { code: number; message: string };
  }> = [];
  let pending = "";
  let stderr = "";
  const logging = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) stderr += decoder.decode(chunk);
  })();
  const logged = async (text: string) => {
    for (const deadline = Date.now() + HANG_MS; Date.now() < deadline; await Bun.sleep(10))
      if (stderr.includes(text)) return;
    throw new Error(`svc mcp never logged ${text}: ${stderr}`);
  };
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout) {
      pending += decoder.decode(chunk);
      for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
        answers.push(JSON.parse(pending.slice(0, nl)));
        pending = pending.slice(nl + 1);
      }
    }
  })();
  const send = (message: unknown) => {
    proc.stdin.write(`${JSON.stringify(message)}\n`);
    proc.stdin.flush();
  };
  const answered = async (id: number) => {
    for (const deadline = Date.now() + HANG_MS; Date.now() < deadline; await Bun.sleep(20))
      if (answers.some((a) => a.id === id)) return;
    throw new Error(`no answer to request ${id}`);
  };
  /** Waits for the exit (a hang fails the test); returns the exit code and the seconds it took. */
  const exit = async (label: string) => {
    const from = performance.now();
    const code = await Promise.race([proc.exited, Bun.sleep(HANG_MS).then(() => "hung" as const)]);
    if (code === "hung") proc.kill("SIGKILL");
    await Promise.all([reading, logging]);
    const seconds = (performance.now() - from) / 1000;
    console.log(`svc mcp ${label}: exit ${code} after ${seconds.toFixed(2)} s`);
    return { code, stderr, seconds };
  };
  return { proc, answers, send, answered, logged, exit };
}

/** Each id got exactly one answer: a result, or the shutdown's refusal. */
function expectOneAnswerEach(answers: ReturnType<typeof start>["answers"], ids: number[]) {
  for (const id of ids) {
    const mine = answers.filter((a) => a.id === id);
    expect(mine.length, `answers to request ${id}: ${JSON.stringify(answers)}`).toBe(1);
    const [answer] = mine;
    if (answer!.error) expect(answer!.error.code, answer!.error.message).toBe(SHUTTING_DOWN_CODE);
    else expect(answer!.result).toBeDefined();
  }
}

describe("svc mcp (stdio) shutdown", () => {
  test("end of input while still starting, with calls queued: each is refused, exit 0", async () => {
    const mcp = start();
    mcp.send(initialize);
    mcp.send(initialized);
    mcp.send(recall(2));
    mcp.proc.stdin.end();
    const { code, stderr } = await mcp.exit("end of input while starting");
    expect(code, stderr).toBe(0);
    expectOneAnswerEach(mcp.answers, [1, 2]);
  }, 60_000);

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`${signal} while still starting, with calls queued and input open: each is refused, exit 0`, async () => {
      const mcp = start();
      mcp.send(initialize);
      mcp.send(recall(2));
      await mcp.logged("MCP server starting");
      mcp.proc.kill(signal);
      const { code, stderr } = await mcp.exit(`${signal} while starting`);
      expect(code, stderr).toBe(0);
      expectOneAnswerEach(mcp.answers, [1, 2]);
    }, 60_000);
  }

  test(`SIGTERM while the app loads beside ${BUSY_LOOPS} busy loops: refused, exit within ${LOADED_EXIT_S} s`, async () => {
    const busy = Array.from({ length: BUSY_LOOPS }, () =>
      Bun.spawn([BUN, "-e", "for (;;) {}"], { stdout: "ignore", stderr: "ignore" }),
    );
    try {
      const mcp = start();
      mcp.send(initialize);
      mcp.send(recall(2));
      await mcp.logged("MCP server starting");
      await Bun.sleep(200); // into the module loading, which takes seconds under this load
      mcp.proc.kill("SIGTERM");
      const { code, stderr, seconds } = await mcp.exit("SIGTERM while loading, under load");
      expect(code, stderr).toBe(0);
      expectOneAnswerEach(mcp.answers, [1, 2]);
      expect(seconds).toBeLessThan(LOADED_EXIT_S);
    } finally {
      for (const proc of busy) proc.kill("SIGKILL");
    }
  }, 60_000);

  test("after startup, a call sent just before the input ends is answered, then exit 0", async () => {
    const mcp = start();
    mcp.send(initialize);
    await mcp.answered(1);
    mcp.send(initialized);
    mcp.send(recall(2));
    mcp.send(recall(3));
    mcp.proc.stdin.end();
    const { code, stderr } = await mcp.exit("end of input after startup");
    expect(code, stderr).toBe(0);
    expectOneAnswerEach(mcp.answers, [1, 2, 3]);
    // The service's own version, not the MCP SDK's default.
    expect(
      (mcp.answers.find((a) => a.id === 1)!.result as { serverInfo: unknown }).serverInfo,
    ).toEqual({ name: "svc", version: pkg.version });
  }, 60_000);

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`after startup, ${signal} with a call in flight: it is answered or refused, exit 0`, async () => {
      const mcp = start();
      mcp.send(initialize);
      await mcp.answered(1);
      mcp.send(initialized);
      mcp.send(recall(2));
      mcp.proc.kill(signal);
      const { code, stderr } = await mcp.exit(`${signal} after startup`);
      expect(code, stderr).toBe(0);
      expectOneAnswerEach(mcp.answers, [1, 2]);
    }, 60_000);
  }

  test("after startup, SIGTERM with a call waiting on the database (a row lock): it is answered or refused, exit 0", async () => {
    const stored = await t.request("POST", "/v1/memories", {
      key: tenant.key,
      body: { agent_id: "lifecycle", content: "held by a lock" },
    });
    expect(stored.status, stored.text).toBe(201);
    const memoryId = stored.body.memory_id as string;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = t.owner.begin(async (tx) => {
      await tx`SELECT set_config('app.current_org_id', ${tenant.orgId}, true)`;
      const rows = await tx`SELECT 1 FROM memories WHERE memory_id = ${memoryId} FOR UPDATE`;
      expect(rows.length).toBe(1);
      locked();
      await released;
    });
    await lockTaken;
    const mcp = start();
    try {
      mcp.send(initialize);
      await mcp.answered(1);
      mcp.send(initialized);
      mcp.send(forget(2, memoryId));
      // In flight: a session of this database waits for a lock (pg_locks shows every role's waits).
      for (const deadline = Date.now() + HANG_MS; ; await Bun.sleep(20)) {
        const [waiting] = await t.owner`SELECT count(*)::int AS n FROM pg_locks
          WHERE NOT granted AND pid IN (SELECT pid FROM pg_stat_activity WHERE datname = current_database())`;
        if (waiting!.n > 0) break;
        if (Date.now() > deadline) throw new Error("the forget never waited on the lock");
      }
      mcp.proc.kill("SIGTERM");
      const { code, stderr } = await mcp.exit("SIGTERM with a call waiting on a lock");
      expect(code, stderr).toBe(0);
      expectOneAnswerEach(mcp.answers, [1, 2]);
    } finally {
      mcp.proc.kill("SIGKILL");
      release();
      await holding;
    }
  }, 60_000);
});
