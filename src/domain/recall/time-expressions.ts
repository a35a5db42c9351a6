// Time expressions in a recall query → a UTC window [from, to). Calendar units are UTC days, weeks
// starting Monday, months and years. "before/after/since/until X" opens the window on one side;
// when X is not a time but an event ("the launch"), the caller dates it from the agent's memories.
import { utcDay, withinDateBound } from "../../lib/validation/date-bound";

export type TimeWindow = { from: Date | null; to: Date | null; expression: string };
export type EventAnchor = { relation: "before" | "after"; event: string; expression: string };
export type ParsedTime = { window: TimeWindow | null; anchor: EventAnchor | null; rest: string };

const DAY = 86_400_000;
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
const MONTH_RE =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};
const UNIT_RE = "(day|week|month|year)s?";

type Unit = "day" | "week" | "month" | "year";
type Span = [Date, Date];

const startOfDay = (d: Date) => new Date(d.getTime() - (((d.getTime() % DAY) + DAY) % DAY));
const monthIndex = (name: string) => MONTHS.findIndex((m) => m.startsWith(name.slice(0, 3)));

function calendarUnit(now: Date, unit: Unit, back: number): Span | null {
  const y = now.getUTCFullYear(),
    m = now.getUTCMonth();
  if (unit === "day") {
    const start = new Date(startOfDay(now).getTime() - back * DAY);
    return [start, new Date(start.getTime() + DAY)];
  }
  if (unit === "week") {
    const monday = new Date(
      startOfDay(now).getTime() - ((now.getUTCDay() + 6) % 7) * DAY - back * 7 * DAY,
    );
    return [monday, new Date(monday.getTime() + 7 * DAY)];
  }
  if (unit === "month") return spanOf(utcDay(y, m - back, 1), utcDay(y, m - back + 1, 1));
  return spanOf(utcDay(y - back, 0, 1), utcDay(y - back + 1, 0, 1));
}

/**
 * Both ends, or null when either lies outside the date bound ("after 9999-12-31" is not a time).
 */
const spanOf = (from: Date | null, to: Date | null): Span | null =>
  from && to ? [from, to] : null;

function rolling(now: Date, unit: Unit, n: number): Span {
  const from = new Date(now);
  if (unit === "day") from.setTime(now.getTime() - n * DAY);
  else if (unit === "week") from.setTime(now.getTime() - n * 7 * DAY);
  else if (unit === "month") from.setUTCMonth(now.getUTCMonth() - n);
  else from.setUTCFullYear(now.getUTCFullYear() - n);
  return [from, now];
}

const count = (word: string) => NUMBER_WORDS[word] ?? Number(word);
const unitOf = (word: string) => word.replace(/s$/, "") as Unit;

/** Each matcher: a pattern and the span it denotes; tried in order, the first match wins. */
const MATCHERS: Array<{ re: RegExp; span: (m: RegExpMatchArray, now: Date) => Span | null }> = [
  {
    re: /\b(\d{4})-(\d{2})-(\d{2})\b/,
    span: (m) => spanOf(utcDay(+m[1]!, +m[2]! - 1, +m[3]!), utcDay(+m[1]!, +m[2]! - 1, +m[3]! + 1)),
  },
  { re: /\btoday\b/, span: (_m, now) => calendarUnit(now, "day", 0) },
  { re: /\byesterday\b/, span: (_m, now) => calendarUnit(now, "day", 1) },
  {
    re: /\b(?:this|current) (day|week|month|year)\b/,
    span: (m, now) => calendarUnit(now, unitOf(m[1]!), 0),
  },
  {
    re: /\b(?:last|past|previous|in the last|in the past|over the last|over the past) (\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten) (day|week|month|year)s?\b/,
    span: (m, now) => rolling(now, unitOf(m[2]!), count(m[1]!)),
  },
  {
    re: /\b(?:last|previous) (week|month|year)\b/,
    span: (m, now) => calendarUnit(now, unitOf(m[1]!), 1),
  },
  {
    re: new RegExp(
      `\\b(\\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten) ${UNIT_RE} ago\\b`,
    ),
    span: (m, now) => calendarUnit(now, unitOf(m[2]!), count(m[1]!)),
  },
  {
    re: new RegExp(`\\b${MONTH_RE}\\.? (\\d{4})\\b`),
    span: (m) => monthSpan(monthIndex(m[1]!), +m[2]!),
  },
  {
    re: new RegExp(`\\b(?:in|during|of|since|before|after|until) ${MONTH_RE}\\b`),
    span: (m, now) => {
      const month = monthIndex(m[1]!);
      return monthSpan(
        month,
        month > now.getUTCMonth() ? now.getUTCFullYear() - 1 : now.getUTCFullYear(),
      );
    },
  },
  {
    re: /\b(?:in|during|of|since|before|after|until) ((?:19[7-9]|20\d)\d)\b/,
    span: (m) => spanOf(utcDay(+m[1]!, 0, 1), utcDay(+m[1]! + 1, 0, 1)),
  },
];

function monthSpan(month: number, year: number): Span | null {
  return month < 0 ? null : spanOf(utcDay(year, month, 1), utcDay(year, month + 1, 1));
}

const RELATION_BEFORE = /\b(before|after|since|until|prior to)\s*$/;
const EVENT_RE =
  /\b(before|after|since|prior to)\s+(?:the |our |my |we |i )?((?:[\p{L}\p{N}-]+\s?){1,3})/u;

export function parseTimeExpression(query: string, now: Date): ParsedTime {
  const lower = query.toLowerCase();
  for (const matcher of MATCHERS) {
    const m = lower.match(matcher.re);
    if (!m || m.index === undefined) continue;
    const span = matcher.span(m, now);
    if (!span || !span.every(withinDateBound)) continue;
    let start = m.index;
    let [from, to]: [Date | null, Date | null] = span;
    const words = m[0].split(" ");
    // "since March" / "before 2024": the leading preposition of the match is the relation itself.
    const relationInside = /^(since|before|after|until)$/.test(words[0]!) ? words[0] : null;
    const relation = relationInside ?? lower.slice(0, start).match(RELATION_BEFORE)?.[1] ?? null;
    if (!relationInside && relation) start = lower.slice(0, start).search(RELATION_BEFORE);
    if (relation === "before" || relation === "prior to") [from, to] = [null, span[0]];
    else if (relation === "after") [from, to] = [span[1], null];
    else if (relation === "since") [from, to] = [span[0], null];
    else if (relation === "until") [from, to] = [null, span[1]];
    const expression = query.slice(start, m.index + m[0].length).trim();
    return {
      window: { from, to, expression },
      anchor: null,
      rest: query.slice(0, start) + " " + query.slice(m.index + m[0].length),
    };
  }
  const event = lower.match(EVENT_RE);
  if (event && event.index !== undefined) {
    const relation = event[1] === "after" || event[1] === "since" ? "after" : "before";
    const expression = query.slice(event.index, event.index + event[0].length).trim();
    return {
      window: null,
      anchor: { relation, event: event[2]!.trim(), expression },
      rest: query.slice(0, event.index) + " " + query.slice(event.index + event[0].length),
    };
  }
  return { window: null, anchor: null, rest: query };
}

/**
 * An explicit date written in a memory ("2025-03-14", "March 14, 2025", "14 March 2025"), if any.
 */
export function dateWrittenIn(text: string): Date | null {
  const lower = text.toLowerCase();
  const iso = lower.match(/\b(\d{4})-(\d{2})-(\d{2})\b/);
  if (iso) return utcDay(+iso[1]!, +iso[2]! - 1, +iso[3]!);
  const mdy = lower.match(
    new RegExp(`\\b${MONTH_RE}\\.? (\\d{1,2})(?:st|nd|rd|th)?,? (\\d{4})\\b`),
  );
  if (mdy) return utcDay(+mdy[3]!, monthIndex(mdy[1]!), +mdy[2]!);
  const dmy = lower.match(
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)? ${MONTH_RE}\\.?,? (\\d{4})\\b`),
  );
  if (dmy) return utcDay(+dmy[3]!, monthIndex(dmy[2]!), +dmy[1]!);
  return null;
}
