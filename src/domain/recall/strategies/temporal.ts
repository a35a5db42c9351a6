// TEMPORAL: reads a time window from the query (see time-expressions.ts), then ranks the memories
// created inside it by relevance to the remaining words, newest first on ties.
import { cancellable, type RecallFilterInput } from "../../../data/queries/recall-common";
import { findAnchor, windowSearch } from "../../../data/queries/recall-temporal";
import type { Tx } from "../../../data/pools";
import type { RecallSearch, RecallStrategy } from "../strategy";
import { orQueryOf } from "../query-words";
import { dateWrittenIn, parseTimeExpression, type EventAnchor, type TimeWindow } from "../time-expressions";

const DAY = 86_400_000;

/**
 * "before/after the launch": among the memories best matching the event words, the first one with a
 * date written in it dates the event ("launched on March 20, 2025"); failing that, the best match's
 * creation time does. The anchoring memory itself is excluded from the results.
 */
async function windowOfAnchor(tx: Tx, search: RecallSearch, anchor: EventAnchor): Promise<{ window: TimeWindow | null; anchorId: string | null }> {
  const candidates = await cancellable(findAnchor(tx, search.filter, anchor.event), search.signal);
  const row = candidates.find((c) => dateWrittenIn(c.content)) ?? candidates[0];
  if (!row) return { window: null, anchorId: null };
  const written = dateWrittenIn(row.content);
  const expression = `${anchor.expression} (dated by ${row.memory_id})`;
  if (anchor.relation === "before") return { window: { from: null, to: written ?? row.created_at, expression }, anchorId: row.memory_id };
  const from = written ? new Date(written.getTime() + DAY) : new Date(row.created_at.getTime() + 1);
  return { window: { from, to: null, expression }, anchorId: row.memory_id };
}

const later = (a: Date | undefined, b: Date | null) => (!b ? a : !a || b > a ? b : a);
const earlier = (a: Date | undefined, b: Date | null) => (!b ? a : !a || b < a ? b : a);

function narrow(filter: RecallFilterInput, window: TimeWindow | null): RecallFilterInput {
  if (!window) return filter;
  return { ...filter, createdAfter: later(filter.createdAfter, window.from), createdBefore: earlier(filter.createdBefore, window.to) };
}

export const temporalStrategy: RecallStrategy = {
  name: "TEMPORAL",
  description: "Questions about when: yesterday, last week, in March 2025, before/after a dated event.",
  needsEmbedding: false,
  async run(tx, search) {
    const parsed = parseTimeExpression(search.query, search.now);
    let window = parsed.window;
    let anchorId: string | null = null;
    let note: string | undefined;
    if (!window && parsed.anchor) {
      ({ window, anchorId } = await windowOfAnchor(tx, search, parsed.anchor));
      if (!window) note = `no memory names "${parsed.anchor.event}"; ranked over all time`;
    } else if (!window) {
      note = "no time expression found; ranked over all time";
    }
    const rows = await cancellable(windowSearch(tx, {
      filter: narrow(search.filter, window),
      terms: orQueryOf(parsed.rest),
      excludeIds: anchorId ? [anchorId] : [],
      limit: search.topK,
    }), search.signal);
    return { rows, window, note };
  },
};
