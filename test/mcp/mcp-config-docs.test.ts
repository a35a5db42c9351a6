// docs/mcp.md's ready-to-paste configurations for Claude Code, Codex and Cursor, each parsed from
// the doc and connected exactly as that client would: the URL and header (with the client's
// variable expansion) against the real /mcp, or the command, args and env as a real `svc mcp` child
// found on PATH. Each lists the tools with the key it was given.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TEST_QUEUE_PREFIX, testApp, type Tenant, type TestApp } from "../harness/app";
import { BUN, MAIN, serviceEnv } from "../harness/process";
import { listen } from "./helpers";

type Snippet = { client: string; language: "json" | "toml"; server: Record<string, any> };

const DOC = await Bun.file(new URL("../../docs/mcp.md", import.meta.url)).text();
const SECTION = DOC.split("### Coding agents: ready to paste")[1]!.split("\n## ")[0]!;

/** Every fenced JSON or TOML block of the section, under the `####` client heading it follows. */
function snippets(): Snippet[] {
  return SECTION.split("\n#### ")
    .slice(1)
    .flatMap((part) => {
      const client = part.split("\n")[0]!.trim();
      return [...part.matchAll(/```(json|toml)\n([\s\S]*?)```/g)].map(([, language, body]) => {
        const parsed: any = language === "json" ? JSON.parse(body!) : Bun.TOML.parse(body!);
        return {
          client,
          language: language as Snippet["language"],
          server: (parsed.mcpServers ?? parsed.mcp_servers).svc,
        };
      });
    });
}

/** Each client's own variable syntax: Claude Code `${VAR}`, Cursor `${env:VAR}`, Codex none. */
function expand(client: string, value: string, env: Record<string, string>): string {
  const pattern =
    client === "Cursor" ? /\$\{env:(\w+)\}/g : client === "Claude Code" ? /\$\{(\w+)\}/g : null;
  return pattern ? value.replace(pattern, (_, name: string) => env[name] ?? "") : value;
}

let t: TestApp;
let a: Tenant;
let server: { url: string; stop: () => void };
const bin = mkdtempSync(join(tmpdir(), "svc-bin-"));

beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("mcp-docs");
  server = listen(t.handle);
  // `svc` on PATH, as the single binary would be: the entry point under this Bun.
  writeFileSync(join(bin, "svc"), `#!/bin/sh\nexec "${BUN}" "${MAIN}" "$@"\n`);
  chmodSync(join(bin, "svc"), 0o755);
});
afterAll(async () => {
  server?.stop();
  await t?.close();
  rmSync(bin, { recursive: true, force: true });
});

async function connect(snippet: Snippet): Promise<Client> {
  const shell = { SVC_API_KEY: a.key };
  const { server: cfg, client: name } = snippet;
  const mcp = new Client({ name: `docs-${name}`, version: "1.0.0" });
  if (cfg.url) {
    const headers: Record<string, string> = {};
    for (const [header, value] of Object.entries(cfg.headers ?? {}))
      headers[header] = expand(name, String(value), shell);
    if (cfg.bearer_token_env_var)
      headers.Authorization = `Bearer ${shell[cfg.bearer_token_env_var as "SVC_API_KEY"]}`;
    const url = new URL(String(cfg.url).replace("http://localhost:8080", server.url));
    await mcp.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    return mcp;
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(cfg.env ?? {}))
    env[key] = expand(name, String(value), shell).replace("svc_sk_…", a.key);
  const base = serviceEnv({ RATE_LIMIT_ENABLED: "false", SVC_QUEUE_PREFIX: TEST_QUEUE_PREFIX });
  const path = `${bin}:${base.PATH}`;
  await mcp.connect(
    new StdioClientTransport({
      command: cfg.command,
      args: cfg.args,
      env: { ...base, PATH: path, ...env },
      stderr: "pipe",
    }),
  );
  return mcp;
}

test("the section has a remote and a local form for each of Claude Code, Codex and Cursor", () => {
  const forms = snippets().map((s) => `${s.client} ${s.server.url ? "remote" : "local"}`);
  expect(forms.sort()).toEqual([
    "Claude Code local",
    "Claude Code remote",
    "Codex local",
    "Codex remote",
    "Cursor local",
    "Cursor remote",
  ]);
  for (const s of snippets().filter((s) => !s.server.url))
    expect([s.server.command, ...s.server.args]).toEqual(["svc", "mcp"]);
});

for (const snippet of snippets()) {
  const form = snippet.server.url ? "remote /mcp" : "local svc mcp";
  test(`${snippet.client}, ${form}: connects as the documented key and lists the memory tools`, async () => {
    const mcp = await connect(snippet);
    try {
      const names = (await mcp.listTools()).tools.map((tool) => tool.name);
      for (const name of ["store_memory", "recall", "forget"]) expect(names).toContain(name);
    } finally {
      await mcp.close();
    }
  }, 120_000);
}

test("a configuration whose key does not expand is refused (the key is what reaches svc)", async () => {
  const remote = snippets().find((s) => s.client === "Cursor" && s.server.url)!;
  const broken = { ...remote, client: "Codex" };
  expect(
    await connect(broken).then(
      () => "connected",
      (e: Error) => e.message,
    ),
  ).not.toBe("connected");
});
