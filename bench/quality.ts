// `bun run bench/quality.ts`: retrieval quality on the seeded conversational set
// (bench/lib/dialogues.ts). The turns go in through the real conversations API (with the dates they
// were said); every question is asked through POST /v1/memories/recall for each strategy and AUTO,
// and scored against in-process BM25 over the same turns in the same run. Prints one table per
// category and overall. Flags: --personas=N (default 4) ; --seed=N ; --distill (distill every turn
// into the graph first, then also ask GRAPH, TRIPLET and ASK; AUTO's graph rules then apply).
import { startWorker } from "../src/queue/worker";
import { startBenchApp, type BenchApp } from "./lib/bench-app";
import { bm25 } from "./lib/quality-set";
import { CATEGORIES, dialogueSet, type Category, type Question, type Turn } from "./lib/dialogues";
import { mean, reciprocalRankFusion, score, type Scores } from "./lib/retrieval-metrics";

const args = new Map(
  process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string]),
);
const set = dialogueSet({
  personas: Number(args.get("personas") ?? 4),
  seed: Number(args.get("seed") ?? 2026),
});
const DISTILL = args.has("distill");
const STRATEGIES = [
  "AUTO",
  "LEXICAL",
  "VECTOR",
  "TEMPORAL",
  ...(DISTILL ? ["GRAPH", "TRIPLET", "ASK"] : []),
] as const;
const TOP_K = 10;
const agentOf = (persona: string) => `qa-${persona}`;

async function loadTurns(app: BenchApp): Promise<Map<string, string>> {
  const memoryToTurn = new Map<string, string>();
  await Promise.all(
    set.personas.map(async (persona) => {
      const sessions = new Map<number, Turn[]>();
      for (const t of set.turns.filter((t) => t.persona === persona))
        sessions.set(t.session, [...(sessions.get(t.session) ?? []), t]);
      for (const [session, turns] of sessions) {
        const opened = await app.call("POST", "/v1/conversations", {
          agent_id: agentOf(persona),
          title: `session ${session + 1}`,
        });
        if (opened.status !== 201)
          throw new Error(`open conversation: ${opened.status} ${JSON.stringify(opened.body)}`);
        for (const t of turns) {
          const appended = await app.call(
            "POST",
            `/v1/conversations/${opened.body.conversation_id}/turns`,
            { role: t.role, content: t.content, occurred_at: t.occurredAt },
          );
          if (appended.status !== 201)
            throw new Error(`append turn: ${appended.status} ${JSON.stringify(appended.body)}`);
          memoryToTurn.set(appended.body.memory_id, t.id);
        }
      }
    }),
  );
  return memoryToTurn;
}

/** Distills every persona's turns (the worker runs in this process) and waits for each job. */
async function distillAll(app: BenchApp, memoryToTurn: Map<string, string>): Promise<void> {
  const turnOf = new Map(set.turns.map((t) => [t.id, t]));
  const byAgent = new Map<string, string[]>();
  for (const [memoryId, turnId] of memoryToTurn) {
    const agent = agentOf(turnOf.get(turnId)!.persona);
    byAgent.set(agent, [...(byAgent.get(agent) ?? []), memoryId]);
  }
  for (const [agent, ids] of byAgent) {
    for (let i = 0; i < ids.length; i += 1000) {
      const started = await app.call("POST", "/v1/distill", {
        agent_id: agent,
        memory_ids: ids.slice(i, i + 1000),
      });
      if (started.status !== 202)
        throw new Error(`distill: ${started.status} ${JSON.stringify(started.body)}`);
      for (;;) {
        const job = await app.call("GET", `/v1/distill/${started.body.job_id}`);
        if (job.body.state === "succeeded") break;
        if (job.body.state === "failed" || job.body.state === "rejected")
          throw new Error(`distill ${job.body.state}: ${JSON.stringify(job.body)}`);
        await Bun.sleep(200);
      }
    }
  }
}

type Ranked = { ranked: string[]; routedTo?: string };

/** Server-side fusion rows: POST /v1/memories/recall with `fusion.strategies`. */
const FUSIONS = [
  ["LEXICAL", "VECTOR"],
  ["LEXICAL", "TEMPORAL"],
  ["LEXICAL", "VECTOR", "TEMPORAL"],
] as const;

async function ask(
  app: BenchApp,
  q: Question,
  strategy: string,
  memoryToTurn: Map<string, string>,
  extra: Record<string, unknown> = {},
): Promise<Ranked> {
  const body = {
    agent_id: agentOf(q.persona),
    query: q.question,
    top_k: TOP_K,
    ...(strategy === "" ? {} : { strategy }),
    ...extra,
  };
  const r = await app.call("POST", "/v1/memories/recall", body);
  if (r.status !== 200)
    throw new Error(`recall ${strategy}: ${r.status} ${JSON.stringify(r.body)}`);
  return {
    ranked: r.body.results.map(
      (m: { memory_id: string }) => memoryToTurn.get(m.memory_id) ?? m.memory_id,
    ),
    routedTo: r.body.strategy,
  };
}

const fmt = (n: number) => n.toFixed(3);

async function main() {
  console.error(
    `quality: ${set.personas.length} personas, ${set.turns.length} turns, ${set.questions.length} questions`,
  );
  const app = await startBenchApp("quality", DISTILL ? { DISTILL_ENABLED: true } : {});
  const worker = DISTILL ? await startWorker(app.deps) : null;
  try {
    const started = performance.now();
    const memoryToTurn = await loadTurns(app);
    console.error(
      `loaded ${memoryToTurn.size} turns in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    if (DISTILL) {
      const distillStarted = performance.now();
      await distillAll(app, memoryToTurn);
      console.error(
        `distilled them in ${((performance.now() - distillStarted) / 1000).toFixed(1)} s`,
      );
    }

    const bm25ByPersona = new Map(
      set.personas.map((p) => {
        const turns = set.turns.filter((t) => t.persona === p);
        const search = bm25(turns.map((t) => t.content));
        return [p, (query: string) => search(query, TOP_K).map((i) => turns[i]!.id)] as const;
      }),
    );

    const rows = new Map<string, Map<Category, Scores[]>>();
    const add = (system: string, category: Category, s: Scores) => {
      const byCategory = rows.get(system) ?? new Map<Category, Scores[]>();
      byCategory.set(category, [...(byCategory.get(category) ?? []), s]);
      rows.set(system, byCategory);
    };
    const routed = new Map<string, number>();
    for (const q of set.questions) {
      add(
        "BM25 (in-process)",
        q.category,
        score(bm25ByPersona.get(q.persona)!(q.question), q.evidence),
      );
      const answers = new Map<string, Ranked>();
      for (const strategy of STRATEGIES) {
        const a = await ask(app, q, strategy, memoryToTurn);
        answers.set(strategy, a);
        add(strategy, q.category, score(a.ranked, q.evidence));
      }
      const key = `${q.category} → ${answers.get("AUTO")!.routedTo}`;
      routed.set(key, (routed.get(key) ?? 0) + 1);
      add(
        "RRF(LEXICAL, VECTOR), client-side",
        q.category,
        score(
          reciprocalRankFusion([answers.get("LEXICAL")!.ranked, answers.get("VECTOR")!.ranked]),
          q.evidence,
        ),
      );
      for (const strategies of FUSIONS) {
        add(
          `fusion ${strategies.join("+")} (server-side)`,
          q.category,
          score(
            (await ask(app, q, "", memoryToTurn, { fusion: { strategies } })).ranked,
            q.evidence,
          ),
        );
      }
    }

    const counts = Object.fromEntries(
      CATEGORIES.map((c) => [c, set.questions.filter((q) => q.category === c).length]),
    );
    console.log(
      `\n## Retrieval quality — ${set.turns.length} turns, ${set.questions.length} questions (${CATEGORIES.map((c) => `${c} ${counts[c]}`).join(", ")}), top_k ${TOP_K}\n`,
    );
    console.log(
      `| system | ${CATEGORIES.map((c) => `${c} R@10`).join(" | ")} | overall R@5 | overall R@10 | MRR | nDCG@10 |`,
    );
    console.log(`|---|${CATEGORIES.map(() => "---:").join("|")}|---:|---:|---:|---:|`);
    for (const [system, byCategory] of rows) {
      const all = mean([...byCategory.values()].flat());
      console.log(
        `| ${system} | ${CATEGORIES.map((c) => fmt(mean(byCategory.get(c) ?? []).recall10)).join(" | ")} | ${fmt(all.recall5)} | ${fmt(all.recall10)} | ${fmt(all.mrr)} | ${fmt(all.ndcg10)} |`,
      );
    }
    console.log(
      `\nAUTO routed: ${[...routed.entries()]
        .sort()
        .map(([k, n]) => `${k} ×${n}`)
        .join("; ")}`,
    );
    const auto = mean([...rows.get("AUTO")!.values()].flat()).recall10;
    const base = mean([...rows.get("BM25 (in-process)")!.values()].flat()).recall10;
    console.log(
      `AUTO − BM25 recall@10: ${(auto - base >= 0 ? "+" : "") + fmt(auto - base)} (target +0.100)`,
    );
  } finally {
    await worker?.close();
    await app.stop();
  }
}

await main();
