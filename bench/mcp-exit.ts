// How long `svc mcp` takes to exit when stopped while it is still starting, beside CPU-bound load
// (on demand): `node_modules/.bin/bun run bench/mcp-exit.ts [--load=4] [--runs=3] [--main=PATH]`.
// --load busy-loop processes share the cores; each run starts `svc mcp` (embedded mode, a throwaway
// data directory), queues a tool call, and stops it the table's seconds after it logs "MCP server
// starting" (module loading, then the database opening). --main points at another checkout's
// src/main.ts to compare against it in the same run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const LOAD = Number(arg("load", "4"));
const RUNS = Number(arg("runs", "3"));
const MAIN = path.resolve(arg("main", path.join(import.meta.dir, "../src/main.ts")));
const STOPS = [
  { label: "SIGTERM at 0.2 s", at: 0.2, how: "SIGTERM" },
  { label: "SIGINT at 1 s", at: 1, how: "SIGINT" },
  { label: "end of input at 0.2 s", at: 0.2, how: "end" },
  { label: "end of input at 2 s", at: 2, how: "end" },
] as const;
const call = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "recall", arguments: {} },
};

/** Seconds from the stop to the exit, and whether the queued call got its one answer. */
async function once(stop: (typeof STOPS)[number]): Promise<{ seconds: number; answered: boolean }> {
  const home = mkdtempSync(path.join(tmpdir(), "svc-mcp-exit-"));
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    LOG_LEVEL: "info",
    SVC_MCP_API_KEY: "svc_bench_not_a_key",
    SVC_DATA_DIR: path.join(home, "data"),
  };
  const proc = Bun.spawn([process.execPath, MAIN, "mcp"], {
    env,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const stdout = new Response(proc.stdout).text();
  const decoder = new TextDecoder();
  let stderr = "";
  for await (const chunk of proc.stderr) {
    stderr += decoder.decode(chunk);
    if (stderr.includes("MCP server starting")) break;
  }
  proc.stdin.write(`${JSON.stringify(call)}\n`);
  proc.stdin.flush();
  await Bun.sleep(stop.at * 1000);
  const from = performance.now();
  if (stop.how === "end") proc.stdin.end();
  else proc.kill(stop.how);
  await proc.exited;
  const seconds = (performance.now() - from) / 1000;
  rmSync(home, { recursive: true, force: true });
  return { seconds, answered: (await stdout).includes('"id":1') };
}

const load = Array.from({ length: LOAD }, () =>
  Bun.spawn([process.execPath, "-e", "for (;;) {}"], { stdout: "ignore", stderr: "ignore" }),
);
try {
  console.log(`svc mcp exit while starting: ${MAIN}, ${LOAD} busy loops, ${RUNS} runs each\n`);
  console.log("| stop | median s | max s | answered |");
  console.log("|---|---:|---:|---:|");
  for (const stop of STOPS) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await once(stop));
    const sorted = runs.map((r) => r.seconds).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const max = sorted.at(-1)!;
    const answered = runs.filter((r) => r.answered).length;
    console.log(
      `| ${stop.label} | ${median.toFixed(2)} | ${max.toFixed(2)} | ${answered}/${RUNS} |`,
    );
  }
} finally {
  for (const proc of load) proc.kill("SIGKILL");
}
