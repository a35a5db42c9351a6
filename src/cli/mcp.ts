// `svc mcp [--key <API key>]`: the MCP server over stdio for one tenant's key (SVC_MCP_API_KEY or
// --key). stdout carries the protocol only, so logs go to stderr. Every tool call re-checks the key
// (a revoked key stops working mid-session), takes a rate-limit token like a REST request, and gets
// its own request id. This thread loads little and owns stdio, end of input and signals; the app
// loads and runs in a worker thread (cli/mcp-worker.ts), whose seconds of module evaluation on a
// busy machine would otherwise hide a signal or the end of input until they end. So the process
// ends within SHUTDOWN_MS at any moment, starting included, and every request it received is
// answered or refused (docs/mcp.md, "Stdio lifecycle").
import { parseArgs } from "node:util";
import pino from "pino";
import type { FromWorker, ToWorker } from "../mcp/port-transport";
import { StdioSession } from "../mcp/stdio-session";
import { createLogger } from "../observability/log";
import { configOrExit } from "./config";
import { UsageError } from "./usage";

/** From end of input or a signal to exit. */
const SHUTDOWN_MS = 1800;
/** How long calls already handed to the server may take to answer before they are refused. */
const ANSWER_WAIT_MS = 1200;
/** Input the client wrote before the signal is still read (and refused), not lost in the pipe. */
const READ_PENDING_MS = 25;
/** The worker's entry: beside this file, or in the binary the entry point scripts/build.ts adds. */
const WORKER_ENTRY = import.meta.url.includes("/$bunfs/")
  ? new URL("./cli/mcp-worker.js", import.meta.url)
  : new URL("./mcp-worker.ts", import.meta.url);

export async function runMcp(args: string[]): Promise<void> {
  const options = { key: { type: "string" as const } };
  const { values } = parseArgs({ args, strict: true, allowPositionals: false, options });
  const config = configOrExit();
  const key = values.key ?? config.SVC_MCP_API_KEY;
  if (!key) throw new UsageError("svc mcp needs an API key: set SVC_MCP_API_KEY or pass --key");
  const log = createLogger(config.LOG_LEVEL, pino.destination({ fd: 2, sync: false }));
  let stopping = false;
  let started = false;
  let closed = () => {};
  const worker = new Worker(WORKER_ENTRY);
  const tell = (message: ToWorker) => worker.postMessage(message);
  tell({ kind: "start", key });
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    // Whatever the steps below wait on (a stdout the client stopped reading, a pool end behind a
    // query that waits on a lock), the process ends at the deadline.
    setTimeout(() => process.exit(0), SHUTDOWN_MS);
    log.info({ msg: "MCP server stopping", why, started });
    if (why !== "end of input") await Bun.sleep(READ_PENDING_MS);
    await session.settle(started ? ANSWER_WAIT_MS : 0);
    // Half-open while starting: nothing to hand back, and the process's end closes its connections.
    if (started) {
      await session.close();
      await new Promise<void>((resolve) => {
        closed = resolve;
        tell({ kind: "close" });
      });
    }
    process.exit(0);
  };
  const session = new StdioSession(() => void stop("end of input"));
  session.onclose = () => void stop("transport closed");
  session.onmessage = (message) => tell({ kind: "rpc", message });
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  log.info({ msg: "MCP server starting" });
  // Settles when startup fails (a bad key, no database): the caller prints why and exits 1.
  await new Promise<void>((_, reject) => {
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      if (message.kind === "rpc") void session.send(message.message);
      else if (message.kind === "closed") closed();
      else if (message.kind === "failed") reject(new Error(message.message));
      else if (!stopping) {
        started = true;
        void session.start();
      }
    };
    worker.onerror = (event) => reject(new Error(event.message));
  });
}
