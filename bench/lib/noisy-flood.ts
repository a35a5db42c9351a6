// Tenant A's flood for bench/noisy-neighbour.ts, in a process of its own so its client work (tens
// of thousands of requests) does not share the event loop of the server it floods. Floods until
// its standard input closes, then abandons the requests still waiting for an answer (an MCP batch
// of CYPHER products waiting its tenant's turns takes minutes) and prints its answered requests
// by answer as JSON ({"cypher 422": 12, …}).
// `bun run bench/lib/noisy-flood.ts <base URL> <A's key> <A's address>`
import { mintKey } from "../../src/domain/keys/format";

const [base, keyA, addressA] = process.argv.slice(2) as [string, string, string];
const CARTESIAN = "MATCH (a),(b),(c),(d),(e),(f),(g),(h) RETURN count(*) AS n";

/** Aborted when the flood ends. */
const stop = new AbortController();
const http = (path: string, init: RequestInit & { key?: string } = {}) =>
  fetch(base + path, {
    ...init,
    signal: stop.signal,
    headers: {
      authorization: `Bearer ${init.key ?? keyA}`,
      "content-type": "application/json",
      "x-forwarded-for": addressA,
      ...init.headers,
    },
  });

const statuses: Record<string, number> = {};
const count = (what: string, status: number) =>
  void (statuses[`${what} ${status}`] = (statuses[`${what} ${status}`] ?? 0) + 1);
let flooding = true;

async function repeat(what: string, send: () => Promise<Response>): Promise<void> {
  while (flooding) {
    const response = await send().catch(() => null);
    if (!response && stop.signal.aborted) break;
    count(what, response?.status ?? 0);
    await response?.arrayBuffer().catch(() => undefined);
  }
}

const cypher = () =>
  http("/v1/memories/recall", {
    method: "POST",
    body: JSON.stringify({ agent_id: "noisy", query: CARTESIAN, strategy: "CYPHER" }),
  });
const batch = () =>
  http("/mcp", {
    method: "POST",
    headers: { accept: "application/json, text/event-stream" },
    body: JSON.stringify(
      Array.from({ length: 20 }, (_, i) => ({
        jsonrpc: "2.0",
        id: i,
        method: "tools/call",
        params: {
          name: "recall",
          arguments: { agent_id: "noisy", query: CARTESIAN, strategy: "CYPHER" },
        },
      })),
    ),
  });
const unknownKey = () =>
  http("/v1/memories/recall", { key: mintKey().plaintext, method: "POST", body: "{}" });

/** An export read one chunk a second, until the flood ends or the service drops it. */
async function trickleExport(): Promise<void> {
  while (flooding) {
    const response = await http("/v1/export").catch(() => null);
    if (!response && stop.signal.aborted) break;
    count("export", response?.status ?? 0);
    const reader = response?.body?.getReader();
    if (!reader) continue;
    try {
      while (flooding && !(await reader.read()).done) await Bun.sleep(1000);
    } catch {
      /* dropped as a stalled client */
    }
    await reader.cancel().catch(() => undefined);
  }
}

const flood = [
  ...Array.from({ length: 8 }, () => repeat("cypher", cypher)),
  ...Array.from({ length: 2 }, () => repeat("mcp-batch", batch)),
  ...Array.from({ length: 4 }, () => repeat("unknown-key", unknownKey)),
  ...Array.from({ length: 3 }, () => trickleExport()),
];
for await (const _ of Bun.stdin.stream()) {
  /* flood until the benchmark closes our input */
}
flooding = false;
stop.abort();
await Promise.all(flood);
console.log(JSON.stringify(statuses));
