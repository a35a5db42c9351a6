// Unknown-key requests from one client address, for bench/refusal-cost.ts: `loops` concurrent
// loops, each sending its next request when the last is answered, until standard input closes;
// then prints the answers by status as JSON ({"429": 61234, "401": 21}).
// `bun run bench/lib/refusal-flood.ts <base URL> <address> <loops>`
import { mintKey } from "../../src/domain/keys/format";

const [base, address, loops] = process.argv.slice(2) as [string, string, string];
const statuses: Record<string, number> = {};
let flooding = true;

async function loop(): Promise<void> {
  while (flooding) {
    const response = await fetch(`${base}/v1/memories/recall`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${mintKey().plaintext}`,
        "content-type": "application/json",
        "x-forwarded-for": address,
      },
      body: JSON.stringify({ agent_id: "a", query: "anything at all" }),
    }).catch(() => null);
    const status = String(response?.status ?? 0);
    statuses[status] = (statuses[status] ?? 0) + 1;
    await response?.arrayBuffer().catch(() => undefined);
  }
}

const running = Array.from({ length: Number(loops) }, loop);
for await (const _ of Bun.stdin.stream()) {
  /* flood until the benchmark closes our input */
}
flooding = false;
await Promise.all(running);
console.log(JSON.stringify(statuses));
