// The stdio side of `svc mcp`: reads stdin from the first moment (a client may write while the
// server is still starting), hands messages to the MCP server once it connects, and tracks the
// requests not yet answered, so a shutdown answers or refuses every request it received, exactly
// once.
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

type RequestId = string | number;

/** JSON-RPC server error for a request the shutting-down server will not answer. */
export const SHUTTING_DOWN_CODE = -32000;
const NOT_RUN = "svc mcp is shutting down: the call was not run";
const NOT_ANSWERED =
  "svc mcp is shutting down: the call did not finish in time (it may have taken effect)";

const requestId = (m: JSONRPCMessage): RequestId | undefined =>
  "method" in m && "id" in m ? (m.id as RequestId) : undefined;
const responseId = (m: JSONRPCMessage): RequestId | undefined =>
  !("method" in m) && "id" in m ? (m.id as RequestId) : undefined;

export class StdioSession implements Transport {
  onmessage?: Transport["onmessage"];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();
  private readonly queued: JSONRPCMessage[] = [];
  /** Requests received and not answered yet; in arrival order. */
  private readonly open = new Set<RequestId>();
  private readonly delivered = new Set<RequestId>();
  private readonly refused = new Set<RequestId>();
  private started = false;
  private accepting = true;
  private idle: Array<() => void> = [];

  constructor(
    onInputEnd: () => void,
    private readonly stdin = process.stdin,
    private readonly stdout = process.stdout,
  ) {
    stdin.on("data", this.onData);
    stdin.once("end", onInputEnd);
    stdin.on("error", (error: Error) => this.onerror?.(error));
  }

  private readonly onData = (chunk: Buffer) => {
    try {
      this.buffer.append(chunk);
      for (let m = this.buffer.readMessage(); m !== null; m = this.buffer.readMessage())
        this.receive(m);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  };

  private receive(message: JSONRPCMessage): void {
    const id = requestId(message);
    if (!this.accepting) {
      if (id !== undefined) void this.write(refusal(id, NOT_RUN));
      return;
    }
    if (id !== undefined) this.open.add(id);
    if (this.started) this.deliver(message);
    else this.queued.push(message);
  }

  private deliver(message: JSONRPCMessage): void {
    const id = requestId(message);
    if (id !== undefined) this.delivered.add(id);
    this.onmessage?.(message);
  }

  async start(): Promise<void> {
    this.started = true;
    if (!this.accepting) return; // what was queued has been refused
    for (const message of this.queued.splice(0)) this.deliver(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const id = responseId(message);
    if (id !== undefined) {
      if (this.refused.has(id)) return; // already refused by the shutdown: one answer per request
      this.open.delete(id);
      if (this.open.size === 0) for (const wake of this.idle.splice(0)) wake();
    }
    await this.write(message);
  }

  /**
   * Stops taking requests (later ones are refused at once), refuses those not handed to the server,
   * waits up to `waitMs` for the others' answers, then refuses what is still open.
   */
  async settle(waitMs: number): Promise<void> {
    this.accepting = false;
    for (const id of [...this.open]) if (!this.delivered.has(id)) await this.refuse(id, NOT_RUN);
    this.queued.length = 0;
    if (this.open.size > 0 && waitMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        this.idle.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    for (const id of [...this.open]) await this.refuse(id, NOT_ANSWERED);
  }

  async close(): Promise<void> {
    this.stdin.off("data", this.onData);
    this.stdin.pause();
    this.onclose?.();
  }

  private async refuse(id: RequestId, why: string): Promise<void> {
    this.open.delete(id);
    this.refused.add(id);
    await this.write(refusal(id, why));
  }

  private write(message: JSONRPCMessage): Promise<void> {
    const line = serializeMessage(message);
    return new Promise((resolve) => void this.stdout.write(line, () => resolve()));
  }
}

function refusal(id: RequestId, message: string): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code: SHUTTING_DOWN_CODE, message } };
}
