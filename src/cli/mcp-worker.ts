// The worker thread of `svc mcp`: loads the app (seconds of module evaluation on a busy machine,
// which would block the main thread's signal and end-of-input handlers), starts it, serves the MCP
// messages the main thread forwards, and closes what it opened when told to.
import pino from "pino";
import { loadConfig } from "../config/load";
import { type FromWorker, PortTransport, type ToWorker } from "../mcp/port-transport";
import { createLogger, type Logger } from "../observability/log";

declare const self: Worker;

const post = (message: FromWorker) => self.postMessage(message);
const transport = new PortTransport(post);
const closers: Array<() => Promise<void>> = [];
let log: Logger | undefined;

async function start(key: string): Promise<void> {
  const config = loadConfig(); // the main thread has checked it
  log = createLogger(config.LOG_LEVEL, pino.destination({ fd: 2, sync: false }));
  const { startMcp } = await import("./mcp-start");
  await startMcp(config, key, log, transport, closers);
  post({ kind: "ready" });
}

async function close(): Promise<void> {
  try {
    for (const closer of closers) await closer();
  } catch (error) {
    log?.warn({ msg: "MCP shutdown: closing failed", err: error });
  }
  post({ kind: "closed" });
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.kind === "rpc") transport.receive(message.message);
  else if (message.kind === "close") void close();
  else {
    const failed = (error: unknown) => post({ kind: "failed", message: (error as Error).message });
    start(message.key).catch(failed);
  }
};
