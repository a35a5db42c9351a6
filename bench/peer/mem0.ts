// Runs the mem0ai peer (bench/peer/mem0-run.mjs, under Node) over the same corpus and queries as ours.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbedServer } from "../lib/embed-server";

export type PeerResult = { added: number; addPerSecond: number; searches: number; searchPerSecond: number; searchP50: number; searchP95: number; searchP99: number };

const RUNNER = new URL("./mem0-run.mjs", import.meta.url).pathname;

/** The peer is a benchmark-only dependency (bench/package.json, `npm run bench:install`), not in the service's install. */
export const mem0Installed = () => existsSync(new URL("../node_modules/mem0ai/package.json", import.meta.url));

export async function runMem0(contents: string[], queries: string[], dimensions: number, addConcurrency = 8): Promise<PeerResult> {
  const embed = startEmbedServer(dimensions);
  const dir = mkdtempSync(join(tmpdir(), "mem0-input-"));
  try {
    const inputPath = join(dir, "input.json");
    writeFileSync(inputPath, JSON.stringify({ embedBaseUrl: embed.baseUrl, embedModel: embed.model, dimensions, agentId: "bench-agent", addConcurrency, contents, queries }));
    const node = Bun.which("node");
    if (!node) throw new Error("node is not on PATH: mem0's in-process vector store needs better-sqlite3 under Node");
    const proc = Bun.spawn([node, RUNNER, inputPath], { stdout: "pipe", stderr: "pipe", env: { ...process.env, MEM0_TELEMETRY: "false" } });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(`mem0 runner exited ${code}: ${stderr.slice(-2000)}`);
    return JSON.parse(stdout.trim().split("\n").pop()!) as PeerResult;
  } finally {
    embed.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
