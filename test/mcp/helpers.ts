// MCP clients for tests: the SDK's own Client over streamable HTTP (against a real listening
// server) and over stdio (the real `svc mcp` child process), plus readers for tool results.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BUN, MAIN } from "../harness/process";

export type ToolResult = {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: any;
};

/** Serves `handle` on a loopback port, as `svc serve` does. */
export function listen(handle: (request: Request) => Promise<Response>) {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handle });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

export async function httpClient(baseUrl: string, key: string | null): Promise<Client> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers },
  });
  const client = new Client({ name: "svc-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

export async function stdioClient(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: BUN,
    args: [MAIN, "mcp", ...args],
    env,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const client = new Client({ name: "svc-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** The JSON a successful tool call returned; a tool error fails the test with its text. */
export function ok(result: unknown): any {
  const r = result as ToolResult;
  if (r.isError) throw new Error(`tool error: ${r.content[0]?.text}`);
  return JSON.parse(r.content[0]!.text!);
}

/** The text of a tool error; a success fails the test. */
export function toolErrorText(result: unknown): string {
  const r = result as ToolResult;
  if (!r.isError)
    throw new Error(`expected a tool error, got ${r.content[0]?.text?.slice(0, 300)}`);
  return r.content[0]!.text!;
}
