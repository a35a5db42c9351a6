// Shallow clause structure over units (the lite model has no dependency parse): who (subjects) does
// what (verb group) to what (objects, prepositional phrases), plus appositions ("Bob, the CTO,")
// and relative clauses ("Bob, who leads …", "the service that …"), conjunctions split into lists.
import type { NounPhrase, Unit, VerbGroup } from "./units";

export type PrepPhrase = { prep: string; nps: NounPhrase[] };

export type Clause = {
  subjects: NounPhrase[];
  /** The subject's own modifier: "the retry logic in src/retry.ts" → in src/retry.ts. */
  subjectModifiers: PrepPhrase[];
  vg: VerbGroup;
  objects: NounPhrase[];
  pps: PrepPhrase[];
  /** "is responsible for" → responsible. */
  adjective?: string;
  times: number[];
};

export type Apposition = { np: NounPhrase; appositive: NounPhrase; pps: PrepPhrase[] };

export type SentenceStructure = { clauses: Clause[]; appositions: Apposition[] };

type Cursor = { units: Unit[]; consumed: Set<NounPhrase> };

const isNp = (u: Unit | undefined): u is NounPhrase => u?.kind === "np";

/** NP ((,)? and|or NP)* starting at p: the list and the index after it. */
function readList(units: Unit[], p: number): [NounPhrase[], number] {
  const list: NounPhrase[] = [];
  let q = p;
  while (isNp(units[q])) {
    list.push(units[q] as NounPhrase);
    q++;
    const a = units[q];
    const b = units[q + 1];
    if (a?.kind === "comma" && b?.kind === "cc" && isNp(units[q + 2])) q += 2;
    else if (
      ((a?.kind === "cc" && (a.word === "and" || a.word === "or")) || a?.kind === "comma") &&
      isNp(b) &&
      !(units[q + 2]?.kind === "vg" && a.kind === "comma")
    )
      q += 1;
    else break;
  }
  return [list, q];
}

function readPrepPhrases(units: Unit[], p: number, times: number[]): [PrepPhrase[], number] {
  const pps: PrepPhrase[] = [];
  let q = p;
  for (;;) {
    const u = units[q];
    if (u?.kind === "time") {
      times.push(u.index);
      q++;
      continue;
    }
    if (u?.kind === "other" && u.token.pos === "ADV") {
      q++;
      continue;
    }
    if (u?.kind === "prep" && isNp(units[q + 1])) {
      const [nps, after] = readList(units, q + 1);
      pps.push({ prep: u.word, nps });
      q = after;
      continue;
    }
    return [pps, q];
  }
}

/** The complements of the verb group at v: objects, prepositional phrases, a copula's adjective. */
function readComplements(cursor: Cursor, v: number, clause: Clause): number {
  const { units } = cursor;
  let p = v + 1;
  while (units[p]?.kind === "other" && (units[p] as { token: { pos: string } }).token.pos === "ADV")
    p++;
  if (units[p]?.kind === "adj" && units[p + 1]?.kind === "prep" && clause.vg.copula) {
    clause.adjective = (units[p] as { token: { lower: string } }).token.lower;
    p++;
  } else if (isNp(units[p])) {
    const [objects, after] = readList(units, p);
    clause.objects = objects;
    p = after;
  }
  const [pps, after] = readPrepPhrases(units, p, clause.times);
  clause.pps = pps;
  for (const np of [...clause.objects, ...pps.flatMap((pp) => pp.nps)]) cursor.consumed.add(np);
  return after;
}

/** The subject of the verb group at v, looking back over the units since `from`. */
function findSubject(
  cursor: Cursor,
  from: number,
  v: number,
  previous: Clause | undefined,
): Pick<Clause, "subjects" | "subjectModifiers"> | null {
  const { units, consumed } = cursor;
  let q = v - 1;
  while (
    q >= from &&
    (units[q]!.kind === "time" ||
      (units[q]!.kind === "other" && (units[q] as { token: { pos: string } }).token.pos === "ADV"))
  )
    q--;
  const unit = units[q];
  if (q < from || !unit || unit.kind === "cc" || unit.kind === "comma")
    return previous ? { subjects: previous.subjects, subjectModifiers: [] } : null;
  if (!isNp(unit) || consumed.has(unit)) return null;
  // Walk back over "NP prep NP" (a post-modified subject) and over "NP, NP and NP" (a list).
  let first = q;
  while (
    first - 2 >= from &&
    units[first - 1]?.kind === "prep" &&
    isNp(units[first - 2]) &&
    !consumed.has(units[first - 2] as NounPhrase)
  )
    first -= 2;
  while (
    first - 2 >= from &&
    (units[first - 1]?.kind === "cc" || units[first - 1]?.kind === "comma") &&
    isNp(units[first - 2]) &&
    !consumed.has(units[first - 2] as NounPhrase)
  ) {
    first -= 2;
    if (units[first - 1]?.kind === "comma" && units[first]?.kind === "cc") first -= 1;
  }
  if (first !== q && units[first + 1]?.kind === "prep") {
    const head = units[first] as NounPhrase;
    const modifiers: PrepPhrase[] = [];
    for (let k = first + 1; k + 1 <= q; k += 2)
      modifiers.push({
        prep: (units[k] as { word: string }).word,
        nps: [units[k + 1] as NounPhrase],
      });
    return { subjects: [head], subjectModifiers: modifiers };
  }
  const subjects = units.slice(first, q + 1).filter(isNp);
  return { subjects, subjectModifiers: [] };
}

/** Pulls "NP , who … ," and "NP , the CTO ," out of the main sequence. */
function extractParentheticals(units: Unit[]): {
  main: Unit[];
  relatives: Array<{ antecedent: NounPhrase; units: Unit[] }>;
  appositions: Apposition[];
} {
  const main: Unit[] = [];
  const relatives: Array<{ antecedent: NounPhrase; units: Unit[] }> = [];
  const appositions: Apposition[] = [];
  for (let k = 0; k < units.length; k++) {
    const u = units[k]!;
    main.push(u);
    if (!isNp(u)) continue;
    const comma = units[k + 1]?.kind === "comma";
    const start = comma ? k + 2 : k + 1;
    if (units[start]?.kind === "rel") {
      let end = start + 1;
      // "Bob, who leads X, …" ends at the next comma; a restrictive "the service that handles
      // payments uses Kafka" ends where the antecedent's own verb begins (a verb group right after
      // a complete complement).
      while (end < units.length && units[end]!.kind !== "comma") {
        if (
          !comma &&
          units[end]!.kind === "vg" &&
          end > start + 1 &&
          (isNp(units[end - 1]) || units[end - 1]!.kind === "time")
        )
          break;
        end++;
      }
      relatives.push({ antecedent: u, units: units.slice(start + 1, end) });
      k = comma && units[end]?.kind === "comma" ? end : end - 1;
      continue;
    }
    if (comma && isNp(units[start])) {
      const appositive = units[start] as NounPhrase;
      const times: number[] = [];
      const [pps, after] = readPrepPhrases(units, start + 1, times);
      const closer = units[after];
      const closes =
        !closer ||
        closer.kind === "comma" ||
        (closer.kind === "other" && /^[.!?;:)]$/.test(closer.token.text)) ||
        closer.kind === "vg";
      const listLike =
        closer?.kind === "cc" ||
        (closer?.kind === "comma" &&
          (units[after + 1]?.kind === "cc" ||
            (isNp(units[after + 1]) && units[after + 2]?.kind !== "vg")));
      if (closes && !listLike && appositionLike(u, appositive)) {
        appositions.push({ np: u, appositive, pps });
        k = closer?.kind === "comma" ? after : after - 1;
      }
    }
  }
  return { main, relatives, appositions };
}

function appositionLike(np: NounPhrase, appositive: NounPhrase): boolean {
  const proper = (p: NounPhrase) => p.tokens.every((t) => t.pos === "PROPN" || Boolean(t.slot));
  if (appositive.det || appositive.possessor) return true;
  if ((np.det || np.possessor) && proper(appositive)) return true;
  return !proper(appositive) && proper(np);
}

function parseSequence(units: Unit[], antecedent: NounPhrase | undefined, clauses: Clause[]): void {
  const cursor: Cursor = { units, consumed: new Set() };
  let from = 0;
  let pendingTimes: number[] = [];
  for (let v = 0; v < units.length; v++) {
    const unit = units[v]!;
    if (unit.kind === "time") {
      pendingTimes.push(unit.index);
      continue;
    }
    if (unit.kind !== "vg") continue;
    const previous = clauses.at(-1);
    const found =
      v === 0 && antecedent
        ? { subjects: [antecedent], subjectModifiers: [] }
        : findSubject(
            cursor,
            from,
            v,
            antecedent && !previous ? ({ subjects: [antecedent] } as Clause) : previous,
          );
    if (!found) continue;
    const clause: Clause = {
      ...found,
      vg: unit,
      objects: [],
      pps: [],
      times: pendingTimes.filter((t) => !previous?.times.includes(t)),
    };
    pendingTimes = [];
    const after = readComplements(cursor, v, clause);
    clauses.push(clause);
    from = after;
    v = after - 1;
  }
  // A date before the first clause ("In 2021, Bob joined Acme and moved to Berlin") dates every
  // clause without its own.
  const lead = clauses[0]?.times ?? [];
  for (const clause of clauses.slice(1)) if (clause.times.length === 0) clause.times.push(...lead);
  const last = clauses.at(-1);
  if (last) last.times.push(...pendingTimes);
}

export function parseClauses(units: Unit[]): SentenceStructure {
  const { main, relatives, appositions } = extractParentheticals(units);
  const clauses: Clause[] = [];
  parseSequence(main, undefined, clauses);
  for (const relative of relatives) parseSequence(relative.units, relative.antecedent, clauses);
  return { clauses, appositions };
}
