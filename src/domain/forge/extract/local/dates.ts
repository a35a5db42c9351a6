// Event time in a sentence: chrono-node resolves dates against the memory's reference time ("last
// week", "in March 2023", "on 12 Jan"), a small rule adds bare years ("in 2019", "from 2019 to
// 2021"), and the word before the date says what it means: since → the fact started, until → it
// ended.
import { utcDay } from "../../../../lib/validation/date-bound";
import * as chrono from "chrono-node";

export type TimeRole = "at" | "since" | "until";

export type TimeSpan = {
  /** Offsets in the analysed (masked) text, the governing preposition included. */
  start: number;
  end: number;
  text: string;
  date: Date;
  /** The end of a range ("from 2019 to 2021"). */
  until?: Date;
  role: TimeRole;
};

const SINCE = new Set(["since", "from", "starting", "effective", "beginning"]);
const UNTIL = new Set(["until", "till", "til", "through", "thru", "up to"]);
const GOVERNING =
  /(?:\b(since|from|starting|effective|beginning|until|till|til|through|thru|in|on|at|during|by|as of|around)\s+)$/i;
const LONE_VERB_MONTH = /^(?:may|march|august)$/;
// A year may end the sentence ("born in 1990."), but not start a decimal or a longer token
// ("2019.5", "2019x").
const BARE_YEARS =
  /\b((?:19|20)\d{2})(?:\s*(?:-|–|to|until|till)\s*((?:19|20)\d{2}))?(?![\d\w]|\.\d)/g;

const dayOf = (year: number, month: number, day: number) => utcDay(year, month - 1, day);

function componentsDate(components: chrono.ParsedComponents): Date | null {
  return dayOf(
    components.get("year") ?? 1970,
    components.get("month") ?? 1,
    components.get("day") ?? 1,
  );
}

function roleOf(word: string | undefined): TimeRole {
  const lower = (word ?? "").toLowerCase();
  if (SINCE.has(lower) || lower === "as of") return "since";
  if (UNTIL.has(lower)) return "until";
  return "at";
}

function resolvable(result: chrono.ParsedResult): boolean {
  if (LONE_VERB_MONTH.test(result.text)) return false;
  const known = result.start;
  return (
    known.isCertain("year") ||
    known.isCertain("month") ||
    known.isCertain("day") ||
    known.isCertain("weekday")
  );
}

/** The dates in `text`, non-overlapping, in order. `reference` anchors relative expressions. */
export function findTimes(text: string, reference: Date): TimeSpan[] {
  const spans: TimeSpan[] = [];
  for (const result of chrono.parse(text, { instant: reference, timezone: 0 })) {
    const date = componentsDate(result.start);
    const until = result.end ? componentsDate(result.end) : undefined;
    if (!resolvable(result) || date === null || until === null) continue; // out of the date bound
    let start = result.index;
    const leadingWord = /^(on|in|at|since|from|until|till|by|during)\s+/i.exec(result.text)?.[1];
    const before = GOVERNING.exec(text.slice(Math.max(0, start - 12), start));
    if (!leadingWord && before) start -= before[0].length;
    const word = leadingWord ?? before?.[1];
    spans.push({
      start,
      end: result.index + result.text.length,
      text: text.slice(start, result.index + result.text.length),
      date,
      until,
      role: result.end ? "since" : roleOf(word),
    });
  }
  for (const match of text.matchAll(BARE_YEARS)) {
    const index = match.index;
    if (spans.some((s) => index < s.end && s.start < index + match[0].length)) continue;
    const before = GOVERNING.exec(text.slice(Math.max(0, index - 12), index));
    if (!before && !match[2]) continue;
    const start = before ? index - before[0].length : index;
    const role = match[2] ? "since" : roleOf(before?.[1]);
    spans.push({
      start,
      end: index + match[0].length,
      text: text.slice(start, index + match[0].length),
      date: dayOf(Number(match[1]), 1, 1)!,
      until: match[2] ? dayOf(Number(match[2]), 1, 1)! : undefined,
      role,
    });
  }
  return spans.sort((a, b) => a.start - b.start);
}
