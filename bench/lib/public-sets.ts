// The public retrieval sets of ../shared/bench-data (README there: format, licence, scoring), read
// where they lie: benchmarks only, never copied into the repository. BENCH_DATA_DIR overrides it.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CATEGORIES, dialogueSet } from "./dialogues";

/**
 * One stored unit: `agent` is the agent it goes to, `id` the set's own id of it; `turn` when it is
 * a turn of a conversation (stored through the conversations API, in order).
 */
export type Unit = {
  id: string;
  agent: string;
  content: string;
  occurredAt?: string;
  turn?: { conversation: string; role: "user" | "assistant" };
};
export type PublicQuestion = {
  id: string;
  agent: string;
  text: string;
  category: string;
  relevant: string[];
};
export type PublicSet = {
  name: string;
  units: Unit[];
  questions: PublicQuestion[];
  categories: string[];
  /** AUTO and the strategies that apply to the set. */
  strategies: string[];
};

export const PUBLIC_SET_NAMES = ["locomo", "scifact", "cosqa"] as const;
/** The seeded conversational set of bench/quality.ts, kept as one more row (not a target). */
export const GENERATED_SET = "generated";

export function benchDataDir(): string {
  const repo = new URL("../..", import.meta.url).pathname;
  return process.env.BENCH_DATA_DIR ?? resolve(repo, "../shared/bench-data");
}

const jsonl = (path: string): any[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** LoCoMo's "1:56 pm on 8 May, 2023" as an ISO instant (UTC). */
export function locomoDate(text: string): string {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm) on (\d{1,2}) ([A-Za-z]+),? (\d{4})$/i.exec(text.trim());
  const month = m ? MONTHS.indexOf(m[5]!.toLowerCase()) : -1;
  if (!m || month < 0) throw new Error(`unreadable LoCoMo session date: ${text}`);
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === "pm" ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString();
}

const LOCOMO_CATEGORIES: Record<number, string> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
};

/** One memory per turn, one agent per conversation, a session a conversation; categories 1–4. */
function locomo(dir: string): PublicSet {
  const file = join(dir, "locomo-dev/locomo-dev.json");
  const conversations = JSON.parse(readFileSync(file, "utf8")) as any[];
  const units: Unit[] = [];
  const questions: PublicQuestion[] = [];
  for (const c of conversations) {
    const agent = `locomo-${c.sample_id}`;
    const ids = new Set<string>();
    for (const [key, turns] of Object.entries<any>(c.conversation)) {
      const session = /^session_(\d+)$/.exec(key);
      if (!session || !Array.isArray(turns)) continue;
      const when = c.conversation[`session_${session[1]}_date_time`] as string;
      const occurredAt = locomoDate(when);
      const conversation = `${agent}/${key}`;
      for (const t of turns) {
        const shares = t.blip_caption ? ` [shares ${t.blip_caption}]` : "";
        const content = `[${when}] ${t.speaker}: ${t.text}${shares}`;
        const role = t.speaker === turns[0].speaker ? "user" : "assistant";
        units.push({
          id: `${agent}/${t.dia_id}`,
          agent,
          content,
          occurredAt,
          turn: { conversation, role },
        });
        ids.add(t.dia_id);
      }
    }
    c.qa.forEach((q: any, i: number) => {
      if (!(q.category in LOCOMO_CATEGORIES)) return;
      // Some evidence ids are malformed ("D8:6; D9:17") or name no turn: split, drop the unknown.
      const evidence = (q.evidence as string[])
        .flatMap((e) => e.split(/[;,\s]+/))
        .filter((e) => ids.has(e));
      if (evidence.length === 0) return;
      const relevant = [...new Set(evidence)].map((e) => `${agent}/${e}`);
      const category = LOCOMO_CATEGORIES[q.category]!;
      questions.push({ id: `${agent}#${i}`, agent, text: q.question, category, relevant });
    });
  }
  const strategies = ["AUTO", "LEXICAL", "VECTOR", "TEMPORAL"];
  const categories = Object.values(LOCOMO_CATEGORIES);
  return { name: "locomo", units, questions, categories, strategies };
}

/** BEIR layout: one agent, one memory per document; the judged queries only. */
function beir(
  dir: string,
  name: string,
  qrels: string,
  content: (d: any) => string,
  strategies: string[],
): PublicSet {
  const agent = name;
  const units = jsonl(join(dir, "corpus.jsonl")).map((d) => ({
    id: String(d._id),
    agent,
    content: content(d),
  }));
  const judged = new Map<string, string[]>();
  for (const line of readFileSync(join(dir, "qrels", qrels), "utf8")
    .split("\n")
    .slice(1)) {
    const [q, doc, s] = line.split("\t");
    if (!q || !doc || Number(s) <= 0) continue;
    judged.set(q, [...(judged.get(q) ?? []), doc]);
  }
  const questions = jsonl(join(dir, "queries.jsonl"))
    .filter((q) => judged.has(String(q._id)))
    .map((q) => ({
      id: String(q._id),
      agent,
      text: q.text as string,
      category: "all",
      relevant: judged.get(String(q._id))!,
    }));
  return { name, units, questions, categories: ["all"], strategies };
}

/** bench/lib/dialogues.ts's set (quality.ts's defaults): an agent per persona, a turn each. */
function generated(): PublicSet {
  const set = dialogueSet();
  const agent = (persona: string) => `generated-${persona}`;
  return {
    name: GENERATED_SET,
    units: set.turns.map((t) => ({
      id: t.id,
      agent: agent(t.persona),
      content: t.content,
      occurredAt: t.occurredAt,
    })),
    questions: set.questions.map((q, i) => ({
      id: String(i),
      agent: agent(q.persona),
      text: q.question,
      category: q.category,
      relevant: q.evidence,
    })),
    categories: [...CATEGORIES],
    strategies: ["AUTO", "LEXICAL", "VECTOR", "TEMPORAL"],
  };
}

export function loadPublicSet(name: string, dir = benchDataDir()): PublicSet {
  if (name === GENERATED_SET) return generated();
  if (!existsSync(dir)) throw new Error(`no bench data at ${dir} (set BENCH_DATA_DIR)`);
  const prose = ["AUTO", "LEXICAL", "VECTOR"];
  switch (name) {
    case "locomo":
      return locomo(dir);
    case "scifact":
      return beir(join(dir, "scifact"), name, "train.tsv", (d) => `${d.title}\n${d.text}`, prose);
    case "cosqa":
      return beir(join(dir, "cosqa"), name, "dev.tsv", (d) => d.text, [...prose, "CODE"]);
    default:
      throw new Error(`unknown set ${name}; use ${[...PUBLIC_SET_NAMES, GENERATED_SET]}`);
  }
}
