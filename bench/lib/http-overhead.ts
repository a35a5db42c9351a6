// Authenticated GET /v1/memories/{id} and POST /v1/memories/recall at concurrency 1, 8 and 32 over
// loopback HTTP.
import type { BenchApp } from "./bench-app";
import { AGENT } from "./load-corpus";
import { loop } from "./stats";

export type OverheadRow = {
  route: string;
  concurrency: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
};

export async function httpOverhead(
  app: BenchApp,
  ids: string[],
  queries: string[],
  quick: boolean,
): Promise<OverheadRow[]> {
  const requests = quick ? 1000 : 3000;
  const seconds = quick ? 5 : 15;
  const rows: OverheadRow[] = [];
  const get = async (i: number) =>
    (await fetch(`${app.base}/v1/memories/${ids[i % ids.length]}`, {
      headers: { authorization: `Bearer ${app.key}` },
    }).then(async (r) => {
      await r.arrayBuffer();
      return r.status;
    })) === 200;
  const recall = async (i: number) =>
    (
      await app.call("POST", "/v1/memories/recall", {
        agent_id: AGENT,
        query: queries[i % queries.length],
        top_k: 10,
        strategy: "VECTOR",
      })
    ).status === 200;
  for (const [route, fn] of [
    ["GET /v1/memories/{id}", get],
    ["POST /v1/memories/recall (VECTOR)", recall],
  ] as const) {
    await loop(100, 8, 10, fn);
    for (const concurrency of [1, 8, 32])
      rows.push({ route, concurrency, ...(await loop(requests, concurrency, seconds, fn)) });
  }
  return rows;
}
