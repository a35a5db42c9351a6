// Which mem0ai peers run at a tier, in the order svc ran: the in-process store (10k only: every
// search scores every vector in JavaScript) and the pgvector store (`--peer-pgvector=10k,100k`,
// default 10k).
import { runMem0, type PeerOptions, type PeerResult } from "./mem0";
import { explainPeerSearch, type PeerPlan } from "./explain";

export type PeerRun = PeerResult & { plan?: PeerPlan };

/** The shape of svc's own tier: batches of 500 with 2 in flight, then singles at 8 in flight. */
const SHAPE = {
  batchSize: 500,
  batchInFlight: 2,
  singleConcurrency: 8,
  searchSeconds: 30,
} satisfies Partial<PeerOptions>;

export function peerTiers(flag: string | undefined): {
  memory: Set<string>;
  pgvector: Set<string>;
} {
  return {
    memory: new Set(["10k"]),
    pgvector: new Set((flag ?? "10k").split(",").filter(Boolean)),
  };
}

export async function runPeers(
  tier: string,
  plan: ReturnType<typeof peerTiers>,
  corpus: { contents: string[]; singles: string[]; queries: string[] },
  dimensions: number,
): Promise<PeerRun[]> {
  const runs: PeerRun[] = [];
  if (plan.memory.has(tier)) {
    console.error(`[${tier}] mem0ai peer, in-process memory store …`);
    runs.push(await runMem0(corpus, dimensions, { store: "memory", ...SHAPE }));
  }
  if (plan.pgvector.has(tier)) {
    console.error(`[${tier}] mem0ai peer, pgvector store with its HNSW index …`);
    runs.push(
      await runMem0(
        corpus,
        dimensions,
        { store: "pgvector", hnsw: true, ...SHAPE },
        explainPeerSearch,
      ),
    );
  }
  return runs;
}
