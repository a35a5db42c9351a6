// TEMPORAL: reads a time window from the query (see time-expressions.ts), then ranks the memories
// whose event time (occurred_at) falls inside it by the remaining words, then the window's latest
// events.
import { cancellable, type RecallFilterInput } from "../../../data/queries/recall/common";
import {
  findAnchor,
  latestInWindow,
  windowWordSearch,
} from "../../../data/queries/recall/temporal";
import type { Tx } from "../../../data/pools";
import type { RecallSearch, RecallStrategy } from "../strategy";
import { anyWordTermsOf } from "../any-word-terms";
import {
  dateWrittenIn,
  parseTimeExpression,
  type EventAnchor,
  type TimeWindow,
} from "../time-expressions";

const DAY = 86_400_000;

/**
 * "before/after the launch": among the memories best matching the event words, the first one with a
 * date written in it ("launched on March 20, 2025") dates the event to that day; failing that, the
 * best match's event time (occurred_at) does. The anchoring memory itself is excluded from the
 * results.
 */
async function windowOfAnchor(
  tx: Tx,
  search: RecallSearch,
  anchor: EventAnchor,
): Promise<{ window: TimeWindow | null; anchorId: string | null }> {
  const candidates = await cancellable(findAnchor(tx, search.filter, anchor.event), search.signal);
  const row = candidates.find((c) => dateWrittenIn(c.content)) ?? candidates[0];
  if (!row) return { window: null, anchorId: null };
  const written = dateWrittenIn(row.content);
  const expression = `${anchor.expression} (dated by ${row.memory_id})`;
  if (anchor.relation === "before")
    return {
      window: { from: null, to: written ?? row.occurred_at, expression },
      anchorId: row.memory_id,
    };
  const from = written
    ? new Date(written.getTime() + DAY)
    : new Date(row.occurred_at.getTime() + 1);
  return { window: { from, to: null, expression }, anchorId: row.memory_id };
}

const later = (a: Date | undefined, b: Date | null) => (!b ? a : !a || b > a ? b : a);
const earlier = (a: Date | undefined, b: Date | null) => (!b ? a : !a || b < a ? b : a);

function narrow(filter: RecallFilterInput, window: TimeWindow | null): RecallFilterInput {
  if (!window) return filter;
  return {
    ...filter,
    occurredAfter: later(filter.occurredAfter, window.from),
    occurredBefore: earlier(filter.occurredBefore, window.to),
  };
}

export const temporalStrategy: RecallStrategy = {
  name: "TEMPORAL",
  description:
    "Questions about when: yesterday, last week, in March 2025, before/after a dated event.",
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
    const terms = anyWordTermsOf(parsed.rest);
    // The window's memories holding the remaining words (idf and related words) first, then its
    // latest events.
    const ranked = async (filter: RecallFilterInput) => {
      const excluded = anchorId ? [anchorId] : [];
      const relevant =
        terms.words.length === 0
          ? []
          : await cancellable(
              windowWordSearch(tx, {
                filter,
                words: terms.words,
                weights: terms.weights,
                excludeIds: excluded,
                limit: search.topK,
              }),
              search.signal,
            );
      if (relevant.length >= search.topK) return relevant;
      const rest = await cancellable(
        latestInWindow(tx, {
          filter,
          excludeIds: [...excluded, ...relevant.map((r) => r.memory_id)],
          limit: search.topK - relevant.length,
        }),
        search.signal,
      );
      return [...relevant, ...rest];
    };
    let rows = await ranked(narrow(search.filter, window));
    // A window nothing happened in must not silently empty the answer: rank over all time and say
    // so.
    if (rows.length === 0 && window) {
      rows = await ranked(search.filter);
      if (rows.length > 0)
        note = `no memory's event time falls in "${window.expression}"; ranked over all time instead`;
    }
    return { rows, window, note };
  },
};
