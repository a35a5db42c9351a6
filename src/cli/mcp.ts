// `svc mcp [--key <API key>]`: the MCP server over stdio for one tenant's key (SVC_MCP_API_KEY or
// --key). stdout carries the protocol only, so logs go to stderr. Every tool call re-checks the key (a
// revoked key stops working mid-session), takes a rate-limit token like a REST request, and gets its own
// request id. This half loads little: it listens for end of input, SIGTERM and SIGINT before the app's
// modules load, so the process ends within SHUTDOWN_MS at any moment, starting included, and every
// request it received is answered or refused (docs/mcp.md, "Stdio lifecycle").
import { parseArgs } from "node:util";
import pino from "pino";
import { StdioSession } from "../mcp/stdio-session";
import { createLogger } from "../observability/log";
import { configOrExit } from "./config";
import type { McpParts } from "./mcp-start";
import { UsageError } from "./usage";

/** From end of input or a signal to exit. */
const SHUTDOWN_MS = 1800;
/** How long calls already handed to the server may take to answer before they are refused. */
const ANSWER_WAIT_MS = 1200;
/** Input the client wrote before the signal is still read (and refused), not lost in the pipe. */
const READ_PENDING_MS = 25;

export async function runMcp(args: string[]): Promise<void> {
  const options = { key: { type: "string" as const } };
  const { values } = parseArgs({ args, strict: true, allowPositionals: false, options });
  const config = configOrExit();
  const key = values.key ?? config.SVC_MCP_API_KEY;
  if (!key) throw new UsageError("svc mcp needs an API key: set SVC_MCP_API_KEY or pass --key");
  const log = createLogger(config.LOG_LEVEL, pino.destination({ fd: 2, sync: false }));
  let stopping = false;
  let started = false;
  const parts: McpParts = { closers: [], stopping: () => stopping };
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    const deadline = Date.now() + SHUTDOWN_MS;
    // Whatever the steps below wait on (a stdout the client stopped reading, a pool end behind a query
    // that waits on a lock), the process ends at the deadline.
    setTimeout(() => process.exit(0), SHUTDOWN_MS);
    log.info({ msg: "MCP server stopping", why, started });
    if (why !== "end of input") await Bun.sleep(READ_PENDING_MS);
    await session.settle(started ? ANSWER_WAIT_MS : 0);
    // Half-open while starting: nothing to hand back, and the process's end closes its connections.
    if (started) {
      const closing = (async () => {
        await session.close();
        for (const close of parts.closers) await close();
      })().catch((error: unknown) => log.warn({ msg: "MCP shutdown: closing failed", err: error }));
      await Promise.race([closing, Bun.sleep(Math.max(0, deadline - Date.now()))]);
    }
    process.exit(0);
  };
  const session = new StdioSession(() => void stop("end of input"));
  session.onclose = () => void stop("transport closed");
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  log.info({ msg: "MCP server starting" });
  const { startMcp } = await import("./mcp-start");
  await startMcp(config, key, log, session, parts);
  started = !stopping;
}
