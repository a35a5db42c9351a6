// AUTO's re-ranking signals: general evidence of the query in a candidate that reciprocal rank
// cannot see. Each multiplies the fused score; none removes a candidate, so nothing drops below
// what the lists found.
import type { RecallRow } from "../../../data/queries/recall/common";
import type { TimeWindow } from "../time-expressions";

export type Signals = { query: string; window: TimeWindow | null; windowWeight: number };
/** The signals of one recall, read from its query once for all its candidates. */
export type QuerySignals = Signals & { phrases: string[] };

/** A quoted phrase of the query found verbatim: the user asked for exactly those words. */
const PHRASE_BOOST = 0.5;

const quotedPhrases = (query: string) =>
  [...query.matchAll(/"([^"]{2,})"/g)].map((m) => m[1]!.toLowerCase());

export const querySignals = (s: Signals): QuerySignals => ({
  ...s,
  phrases: quotedPhrases(s.query),
});

export function signalBoost(s: QuerySignals, row: RecallRow): number {
  let boost = 1;
  if (s.window && inWindow(row.occurred_at, s.window)) boost *= 1 + s.windowWeight;
  const { phrases } = s;
  if (phrases.length > 0) {
    const content = row.content.toLowerCase();
    boost *=
      1 + PHRASE_BOOST * (phrases.filter((p) => content.includes(p)).length / phrases.length);
  }
  return boost;
}

function inWindow(at: Date, w: TimeWindow): boolean {
  return (!w.from || at >= w.from) && (!w.to || at < w.to);
}
