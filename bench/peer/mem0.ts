// Runs the mem0ai peer (bench/peer/mem0-run.mjs, under Node) over the same corpus and queries as
// ours: its in-process "memory" store, or its pgvector store in a throwaway database on our
// PostgreSQL.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { ADMIN_DATABASE_URL } from "../lib/bench-app";
import { startEmbedServer } from "../lib/embed-server";

export type PeerLatency = {
  count: number;
  perSecond: number;
  seconds: number;
  p50: number;
  p95: number;
  p99: number;
};
export type PeerResult = {
  store: "memory" | "pgvector";
  /**
   * pgvector only: whether mem0 created its HNSW index (`hnsw: true`; its TypeScript default is
   * false).
   */
  hnsw?: boolean;
  added: number;
  /** add(messages[batchSize]) calls, batchInFlight at a time, over the corpus. */
  batchPerSecond: number;
  /** add(one message) at singleConcurrency. */
  single: PeerLatency;
  /** memory.search(query, {topK: 10, filters: {agent_id}}), one at a time. */
  search: PeerLatency;
  /**
   * The store's own vector query (topK 10, agent filter) on precomputed embeddings, one at a time.
   */
  vectorOnly: PeerLatency;
  /** pgvector only: size of mem0's database after the run. */
  databaseBytes?: number;
};

export type PeerOptions = {
  store: "memory" | "pgvector";
  hnsw?: boolean;
  batchSize: number;
  batchInFlight: number;
  singleConcurrency: number;
  searchSeconds: number;
};

const RUNNER = new URL("./mem0-run.mjs", import.meta.url).pathname;

/**
 * The peer is a benchmark-only dependency (bench/package.json, `npm run bench:install`), not in the
 * service's install.
 */
export const mem0Installed = () =>
  existsSync(new URL("../node_modules/mem0ai/package.json", import.meta.url)) &&
  existsSync(new URL("../node_modules/pg/package.json", import.meta.url));

export const peerLabel = (p: Pick<PeerResult, "store" | "hnsw">) =>
  p.store === "memory" ? "mem0 memory" : `mem0 pgvector${p.hnsw ? " HNSW" : " (no index)"}`;

/** A database of its own for mem0's pgvector tables, dropped afterwards. */
async function withPeerDatabase<T>(
  fn: (url: string, size: () => Promise<number>) => Promise<T>,
): Promise<T> {
  const name = `svc_bench_mem0_${process.pid}_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_DATABASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`); // generated name, not input
  try {
    const url = new URL(ADMIN_DATABASE_URL);
    url.pathname = `/${name}`;
    return await fn(url.toString(), async () =>
      Number((await admin`SELECT pg_database_size(${name}) AS bytes`)[0]!.bytes),
    );
  } finally {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

type Corpus = { contents: string[]; singles: string[]; queries: string[] };

async function spawnRunner(input: Record<string, unknown>, label: string): Promise<PeerResult> {
  const node = Bun.which("node");
  if (!node)
    throw new Error("node is not on PATH: mem0's sqlite stores need better-sqlite3 under Node");
  const dir = mkdtempSync(join(tmpdir(), "mem0-input-"));
  try {
    const inputPath = join(dir, "input.json");
    writeFileSync(inputPath, JSON.stringify(input));
    const proc = Bun.spawn([node, RUNNER, inputPath], {
      stdout: "pipe",
      stderr: "inherit",
      env: { ...process.env, MEM0_TELEMETRY: "false" },
    });
    const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    if (code !== 0) throw new Error(`mem0 runner (${label}) exited ${code}`);
    return JSON.parse(stdout.trim().split("\n").pop()!) as PeerResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `inspect` runs on mem0's pgvector database after the run, before it is dropped. */
export async function runMem0<P>(
  corpus: Corpus,
  dimensions: number,
  options: PeerOptions,
  inspect?: (url: string) => Promise<P>,
): Promise<PeerResult & { plan?: P }> {
  const embed = startEmbedServer(dimensions);
  const input = {
    ...corpus,
    ...options,
    embedBaseUrl: embed.baseUrl,
    embedModel: embed.model,
    dimensions,
    agentId: "bench-agent",
  };
  try {
    if (options.store === "memory") return await spawnRunner(input, "memory");
    return await withPeerDatabase(async (connectionString, size) => {
      const result = await spawnRunner({ ...input, connectionString }, "pgvector");
      return {
        ...result,
        databaseBytes: await size(),
        plan: inspect ? await inspect(connectionString) : undefined,
      };
    });
  } finally {
    embed.stop();
  }
}
