// The MCP transport inside `svc mcp`'s worker thread: JSON-RPC messages travel to and from the main
// thread, which owns stdio (and answers signals and end of input while this thread is still busy).
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** What the main thread and the worker of `svc mcp` tell each other. */
export type ToWorker =
  | { kind: "start"; key: string }
  | { kind: "rpc"; message: JSONRPCMessage }
  | { kind: "close" };
export type FromWorker =
  | { kind: "ready" }
  | { kind: "failed"; message: string }
  | { kind: "rpc"; message: JSONRPCMessage }
  | { kind: "closed" };

export class PortTransport implements Transport {
  onmessage?: Transport["onmessage"];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(private readonly post: (message: FromWorker) => void) {}

  /** A message the main thread read from stdin. */
  receive(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    this.post({ kind: "rpc", message });
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}
