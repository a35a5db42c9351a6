// infer (opt-in): adds edges the extracted graph implies, in three steps, each a keyset walk over
// its premises committed in batches: (1) one extra hop of every transitive relation, (2) the
// missing half of a declared inverse pair (MANAGES ↔ REPORTS_TO), (3) RELATED_TO between
// co-mentioned memos with no edge (Adamic–Adar score ≥ REFINE_COMENTION_MIN_SCORE, the best 5 per
// memo). Inferred edges have origin `inferred`, a weight of REFINE_INFERRED_WEIGHT_FACTOR × their
// weakest premise, and the premises' sources; they are inserted only where no current edge with the
// same ends and relation exists, so they never supersede, expire or duplicate an extracted or user
// edge.
import { insertEdges, type NewEdge } from "../../../data/queries/forge/refine/graph-writes";
import {
  coMentions,
  groundInferred,
  inverseCandidates,
  memoBatch,
  memoryTexts,
  premiseBatch,
  reportedInferences,
  transitiveCandidates,
  type InferredCandidate,
} from "../../../data/queries/forge/refine/infer";
import type { Tx } from "../../../data/pools";
import { effectiveRelations } from "../../graph/relation-types";
import { newId } from "../../../lib/ids";
import type { PassChange, PassContext } from "./context";
import { judgePair } from "./infer-judge";

type Step = "transitive" | "inverse" | "co_mention";
type Cursor = { step: Step | null; after: string | null };

const STEPS: Step[] = ["transitive", "inverse", "co_mention"];
export const CO_MENTION_PARTNERS = 5;
/** What the co-mention judge sees: the first few shared memories, each cut short. */
const JUDGE_CONTEXT_MEMORIES = 3;
const JUDGE_CONTEXT_CHARS = 500;

/** Co-mention confidence: the Adamic–Adar score squashed into (0, 1) by s / (s + 1). */
export const coMentionConfidence = (score: number) => Math.round((score / (score + 1)) * 1e4) / 1e4;

const phrase = (relation: string) => relation.toLowerCase().replaceAll("_", " ");
const keyOf = (src: string, relation: string, dst: string) => `${src} ${relation} ${dst}`;

type Planned = {
  edge: NewEdge;
  premises: string[];
  memories: string[];
  reason: string;
  rule: Step;
  score?: number;
};

function fromCandidate(
  c: InferredCandidate,
  rule: "transitive" | "inverse",
  factor: number,
): Planned {
  return {
    rule,
    premises: c.premises,
    memories: [],
    reason:
      rule === "transitive"
        ? `${c.relation} is transitive: ${c.facts.join("; ")}`
        : `${c.relation} is the declared inverse: ${c.facts[0]}`,
    edge: {
      edge_id: newId("edge"),
      agent_id: c.agent_id,
      src_memo_id: c.src_memo_id,
      dst_memo_id: c.dst_memo_id,
      relation: c.relation,
      fact: `${c.src_name} ${phrase(c.relation)} ${c.dst_name}`,
      origin: "inferred",
      confidence: Math.round(c.confidence * factor * 1e4) / 1e4,
      weight: Math.round(c.weight * factor * 1e4) / 1e4,
      valid_at: c.valid_at,
      invalid_at: c.invalid_at,
      properties: { inferred: rule, premises: c.premises },
    },
  };
}

/**
 * The step's next batch of premises (or memos) after `after`, what they imply, and whether the step
 * is finished.
 */
async function plan(
  tx: Tx,
  ctx: PassContext,
  step: Step,
  after: string | null,
  limit: number,
): Promise<{ planned: Planned[]; last: string | null; done: boolean }> {
  const c = ctx.deps.config;
  const factor = c.REFINE_INFERRED_WEIGHT_FACTOR;
  if (step === "co_mention") {
    // Each memo brings up to CO_MENTION_PARTNERS pairs: fewer memos a batch keeps batches near
    // REFINE_BATCH_SIZE rows.
    const size = Math.max(10, Math.floor(limit / CO_MENTION_PARTNERS));
    const batch = await memoBatch(tx, ctx.scope, after, size);
    const pairs = await coMentions(tx, batch, c.REFINE_COMENTION_MIN_SCORE, CO_MENTION_PARTNERS);
    const planned = pairs.map((p): Planned => {
      const [src, dst, srcName, dstName] =
        p.x < p.y ? [p.x, p.y, p.x_name, p.y_name] : [p.y, p.x, p.y_name, p.x_name];
      const confidence = coMentionConfidence(p.score);
      return {
        rule: "co_mention",
        premises: [],
        memories: p.memories,
        score: Math.round(p.score * 1e4) / 1e4,
        reason: `"${p.x_name}" and "${p.y_name}" are mentioned together in ${p.memories.length} memor${p.memories.length === 1 ? "y" : "ies"} (Adamic–Adar score ${p.score.toFixed(3)} ≥ ${c.REFINE_COMENTION_MIN_SCORE})`,
        edge: {
          edge_id: newId("edge"),
          agent_id: p.agent_id,
          src_memo_id: src,
          dst_memo_id: dst,
          relation: "RELATED_TO",
          fact: `${srcName} related to ${dstName}`,
          origin: "inferred",
          confidence,
          weight: Math.round(factor * confidence * 0.5 * 1e4) / 1e4,
          properties: {
            inferred: "co_mention",
            score: p.score,
            memories: p.memories,
            x: p.x,
            names: [p.x_name, p.y_name],
          },
        },
      };
    });
    return { planned, last: batch[batch.length - 1] ?? null, done: batch.length < size };
  }
  const relations = await effectiveRelations(tx, ctx.orgId);
  if (step === "transitive") {
    const transitive = [...relations.values()].filter((r) => r.transitive).map((r) => r.relation);
    const batch = await premiseBatch(tx, ctx.scope, transitive, after, limit);
    const planned = (await transitiveCandidates(tx, batch)).map((k) =>
      fromCandidate(k, "transitive", factor),
    );
    return { planned, last: batch[batch.length - 1] ?? null, done: batch.length < limit };
  }
  const inverses = new Map(
    [...relations.values()].filter((r) => r.inverse).map((r) => [r.relation, r.inverse!]),
  );
  const functional = [...relations.values()].filter((r) => r.functional).map((r) => r.relation);
  const batch = await premiseBatch(tx, ctx.scope, [...inverses.keys()], after, limit);
  const planned = (await inverseCandidates(tx, batch, inverses, functional)).map((k) =>
    fromCandidate(k, "inverse", factor),
  );
  return { planned, last: batch[batch.length - 1] ?? null, done: batch.length < limit };
}

/**
 * Co-mention candidates through the LLM judge (infer-judge.ts): kept as judged, dropped, or kept
 * unjudged.
 */
async function judged(ctx: PassContext, planned: Planned[], notes: string[]): Promise<Planned[]> {
  if (planned.length === 0) return planned;
  const texts = await ctx.read((tx) =>
    memoryTexts(
      tx,
      [...new Set(planned.flatMap((p) => p.memories.slice(0, JUDGE_CONTEXT_MEMORIES)))],
      JUDGE_CONTEXT_CHARS,
    ),
  );
  const factor = ctx.deps.config.REFINE_INFERRED_WEIGHT_FACTOR;
  const out: Planned[] = [];
  const asked = new Set<string>();
  for (const p of planned) {
    // Both ends of a pair can list it; ask once (the insert would skip the second anyway).
    const pair = `${p.edge.src_memo_id} ${p.edge.dst_memo_id}`;
    if (asked.has(pair)) continue;
    asked.add(pair);
    const [xName, yName] = (p.edge.properties as { names: [string, string] }).names;
    const verdict = await judgePair(ctx.llm, {
      x_name: xName,
      y_name: yName,
      facts: p.memories
        .slice(0, JUDGE_CONTEXT_MEMORIES)
        .map((m) => texts.get(m) ?? "")
        .filter(Boolean),
    });
    if (verdict.kind === "unjudged") {
      if (!notes.includes(verdict.note)) notes.push(verdict.note);
      out.push(p);
    } else if (verdict.kind === "edge") {
      const forward = p.edge.src_memo_id === (p.edge.properties as { x: string }).x;
      out.push({
        ...p,
        reason: `${p.reason}; the LLM judged: ${xName} ${verdict.relation} ${yName} (confidence ${verdict.confidence})`,
        edge: {
          ...p.edge,
          relation: verdict.relation,
          confidence: verdict.confidence,
          weight: Math.round(factor * verdict.confidence * 0.5 * 1e4) / 1e4,
          // The judge names the relation from the first entity to the second: keep that direction.
          src_memo_id: forward ? p.edge.src_memo_id : p.edge.dst_memo_id,
          dst_memo_id: forward ? p.edge.dst_memo_id : p.edge.src_memo_id,
          fact: `${xName} ${phrase(verdict.relation)} ${yName}`,
          properties: { ...p.edge.properties, judged: true },
        },
      });
    }
    await ctx.keepAlive();
  }
  return out;
}

export async function runInfer(ctx: PassContext): Promise<void> {
  const limit = ctx.deps.config.REFINE_BATCH_SIZE;
  const cursor: Cursor = (ctx.cursor as Cursor | null) ?? { step: "transitive", after: null };
  const notes: string[] = [];
  while (cursor.step !== null) {
    // Planned in a read transaction, judged (LLM calls hold no lock), then written in the batch's
    // transaction, where the identity index turns an edge someone wrote meanwhile into a skip.
    const {
      planned: proposed,
      last,
      done,
    } = await ctx.read((tx) => plan(tx, ctx, cursor.step!, cursor.after, limit));
    const planned =
      cursor.step === "co_mention" && ctx.llm.configured && !ctx.dryRun
        ? await judged(ctx, proposed, notes)
        : proposed;
    await ctx.commit(async (tx) => {
      // One edge per key: several premises can imply the same edge; a dry run also skips what it
      // reported before.
      const seen = ctx.dryRun ? await reportedInferences(tx, ctx.jobId) : new Set<string>();
      const unique = planned.filter((p) => {
        const key = keyOf(p.edge.src_memo_id, p.edge.relation, p.edge.dst_memo_id);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      const written = ctx.dryRun
        ? new Set(unique.map((p) => p.edge.edge_id))
        : new Set(
            await insertEdges(
              tx,
              ctx.orgId,
              unique.map((p) => p.edge),
              true,
            ),
          );
      const kept = unique.filter((p) => written.has(p.edge.edge_id));
      if (!ctx.dryRun)
        await groundInferred(
          tx,
          ctx.orgId,
          kept.map((p) => ({
            edge_id: p.edge.edge_id,
            premises: p.premises,
            memories: p.memories,
          })),
        );
      const changes: PassChange[] = kept.map((p) => ({
        action: "infer",
        target_kind: "edge",
        target_id: p.edge.edge_id,
        detail: {
          reason: p.reason,
          rule: p.rule,
          key: keyOf(p.edge.src_memo_id, p.edge.relation, p.edge.dst_memo_id),
          relation: p.edge.relation,
          src_memo_id: p.edge.src_memo_id,
          dst_memo_id: p.edge.dst_memo_id,
          fact: p.edge.fact,
          weight: p.edge.weight,
          confidence: p.edge.confidence,
          premises: p.premises,
          ...(p.score === undefined ? {} : { score: p.score, memories: p.memories }),
        },
      }));
      const counts: Record<string, number> = {};
      for (const p of kept)
        counts[`edges_inferred_${p.rule}`] = (counts[`edges_inferred_${p.rule}`] ?? 0) + 1;
      if (done)
        Object.assign(cursor, {
          step: STEPS[STEPS.indexOf(cursor.step!) + 1] ?? null,
          after: null,
        });
      else cursor.after = last;
      return { changes, counts, notes, cursor: { ...cursor } };
    });
  }
}
