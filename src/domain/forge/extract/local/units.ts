// The chunker: a sentence's tokens as a flat list of units — noun phrases `(DET)?
// (ADJ|NUM|NOUN|PROPN|slot)* head` with possessors split off ("Alice's manager", "my editor"), verb
// groups (auxiliaries, negation, hedges, aspect and the main verb), prepositions, conjunctions,
// commas, relative pronouns, dates.
import { HEDGES } from "./lexicon";
import type { Sentence, Token } from "./sentences";
import { ASPECT_VERBS, COPULAS, IRREGULAR_PARTICIPLES } from "./verbs";

export type NounPhrase = {
  kind: "np";
  tokens: Token[];
  head: Token;
  det?: string;
  /** "Alice's manager" → Alice; "my editor" → the pronoun "my". */
  possessor?: NounPhrase;
  pronoun?: string;
  /** "former", "ex-": the phrase names a past state. */
  former?: boolean;
  start: number;
  end: number;
};

export type VerbGroup = {
  kind: "vg";
  tokens: Token[];
  main: Token;
  lemma: string;
  copula: boolean;
  passive: boolean;
  negated: boolean;
  hedged: boolean;
  /** "used to", "no longer", "stopped …": the state ended. */
  ended: boolean;
};

export type Unit =
  | NounPhrase
  | VerbGroup
  | { kind: "prep"; word: string; token: Token }
  | { kind: "cc"; word: string; token: Token }
  | { kind: "comma"; token: Token }
  | { kind: "rel"; token: Token }
  | { kind: "time"; index: number; token: Token }
  | { kind: "adj"; token: Token }
  | { kind: "other"; token: Token };

const DETERMINERS = new Set([
  "the",
  "a",
  "an",
  "this",
  "that",
  "these",
  "those",
  "some",
  "any",
  "every",
  "each",
  "all",
  "another",
  "both",
  "either",
  "neither",
]);
const POSSESSIVE_PRONOUNS = new Set(["my", "our", "your", "his", "her", "its", "their"]);
const PERSONAL_PRONOUNS = new Set([
  "i",
  "me",
  "we",
  "us",
  "you",
  "he",
  "him",
  "she",
  "her",
  "it",
  "they",
  "them",
  "myself",
  "himself",
  "herself",
  "itself",
  "themselves",
  "ourselves",
]);
const RELATIVES = new Set(["who", "which", "that", "whom", "whose"]);
const NEGATIONS = new Set(["not", "n't", "never", "no longer", "no more", "nt"]);
const ENDED_ADVERBS = new Set([
  "no longer",
  "no more",
  "formerly",
  "previously",
  "once",
  "anymore",
  "any more",
]);
const NOMINAL_TAGS = new Set(["NOUN", "PROPN", "NUM"]);
const STRIPPED_MODIFIERS = new Set([
  "current",
  "own",
  "same",
  "other",
  "new",
  "former",
  "previous",
  "ex",
  "old",
]);

const isNominal = (t: Token) =>
  t.time === undefined && (NOMINAL_TAGS.has(t.pos) || Boolean(t.slot));
const isVerbal = (t: Token) => t.pos === "VERB" || t.pos === "AUX";

function nounPhrase(tokens: Token[], extra: Partial<NounPhrase> = {}): NounPhrase {
  const content = tokens.filter((t) => t.pos !== "DET" && !STRIPPED_MODIFIERS.has(t.lower));
  const kept = content.length > 0 ? content : tokens;
  const former = tokens.some(
    (t) => t.lower === "former" || t.lower === "ex" || t.lower === "previous",
  );
  return {
    kind: "np",
    tokens: kept,
    head: kept.at(-1)!,
    start: kept[0]!.start,
    end: kept.at(-1)!.end,
    ...(former ? { former } : {}),
    ...extra,
  };
}

/** Reads one noun phrase starting at `i`; returns it and the next index, or null. */
function readNounPhrase(tokens: Token[], i: number): [NounPhrase, number] | null {
  const first = tokens[i]!;
  if (first.time !== undefined) return null;
  if (
    PERSONAL_PRONOUNS.has(first.lower) &&
    !(first.lower === "her" && tokens[i + 1] && isNominal(tokens[i + 1]!))
  ) {
    return [nounPhrase([first], { pronoun: first.lower }), i + 1];
  }
  let possessor: NounPhrase | undefined;
  let det: string | undefined;
  let j = i;
  if (POSSESSIVE_PRONOUNS.has(first.lower) && (first.pos === "PRON" || first.pos === "DET")) {
    possessor = nounPhrase([first], { pronoun: first.lower });
    j++;
  } else if (DETERMINERS.has(first.lower) && first.pos === "DET") {
    det = first.lower;
    j++;
  }
  const body: Token[] = [];
  while (j < tokens.length) {
    const t = tokens[j]!;
    if (
      isNominal(t) ||
      (t.pos === "ADJ" && t.time === undefined) ||
      (t.text === "-" && body.length > 0) ||
      (t.pos === "VERB" &&
        /ing$/.test(t.lower) &&
        tokens[j + 1] &&
        isNominal(tokens[j + 1]!) &&
        body.length > 0)
    ) {
      body.push(t);
      j++;
      continue;
    }
    if (t.lower === "'s" || t.lower === "'" || t.lower === "’s") {
      const owner = trimToHead(body);
      if (!owner) break;
      const next = readNounPhrase(tokens, j + 1);
      if (!next) break;
      const [possessed, after] = next;
      return [
        { ...possessed, possessor: nounPhrase(owner, det ? { det } : {}), start: owner[0]!.start },
        after,
      ];
    }
    break;
  }
  const kept = trimToHead(body);
  if (!kept) return null;
  const consumed = i + (j - i) - (body.length - kept.length);
  return [
    nounPhrase(kept, { ...(det ? { det } : {}), ...(possessor ? { possessor } : {}) }),
    consumed,
  ];
}

/** A phrase must end on a noun, proper noun, slot or number. */
function trimToHead(body: Token[]): Token[] | null {
  let end = body.length;
  while (end > 0 && !isNominal(body[end - 1]!)) end--;
  return end > 0 ? body.slice(0, end) : null;
}

function readVerbGroup(tokens: Token[], i: number): [VerbGroup, number] | null {
  const group: Token[] = [];
  let j = i;
  let negated = false;
  let hedged = false;
  let ended = false;
  while (j < tokens.length) {
    const t = tokens[j]!;
    const pair = `${t.lower} ${tokens[j + 1]?.lower ?? ""}`;
    if (pair === "no longer" || pair === "no more" || pair === "any more") {
      negated = true;
      ended = true;
      group.push(t, tokens[j + 1]!);
      j += 2;
      continue;
    }
    if (
      isVerbal(t) ||
      (t.pos === "PART" && (t.lower === "to" || NEGATIONS.has(t.lower))) ||
      (t.pos === "ADV" && group.length > 0 && isVerbal(tokens[j + 1] ?? t)) ||
      (t.pos === "ADV" && group.length === 0 && tokens[j + 1] && isVerbal(tokens[j + 1]!))
    ) {
      if (NEGATIONS.has(t.lower)) negated = true;
      if (ENDED_ADVERBS.has(t.lower)) ended = true;
      if (HEDGES.has(t.lower)) hedged = true;
      group.push(t);
      j++;
      continue;
    }
    break;
  }
  const verbs = group.filter(isVerbal);
  if (verbs.length === 0) return null;
  let main = verbs.at(-1)!;
  const lemmas = verbs.map((v) => v.lemma);
  if (
    lemmas.includes("use") &&
    group.some((t) => t.lower === "used") &&
    group.some((t) => t.lower === "to") &&
    main.lower !== "used"
  )
    ended = true;
  const aspect = verbs.length >= 2 ? ASPECT_VERBS[verbs.at(-2)!.lemma] : undefined;
  if (aspect === "ended") {
    negated = true;
    ended = true;
  }
  if (
    verbs.some((v) =>
      ["want", "plan", "hope", "intend", "consider", "think", "wish"].includes(v.lemma),
    ) &&
    verbs.length >= 2
  )
    hedged = true;
  const hasBe = verbs.some((v) => COPULAS.has(v.lower) || v.lemma === "be");
  const copula = main.lemma === "be" || COPULAS.has(main.lower);
  const participle =
    !copula &&
    hasBe &&
    (/(?:ed|en)$/.test(main.lower) || IRREGULAR_PARTICIPLES.has(main.lower)) &&
    main !== verbs[0];
  if (copula) main = verbs.at(-1)!;
  return [
    {
      kind: "vg",
      tokens: group,
      main,
      lemma: main.lemma,
      copula,
      passive: participle,
      negated,
      hedged,
      ended,
    },
    j,
  ];
}

export function toUnits(sentence: Sentence): Unit[] {
  const tokens = sentence.tokens;
  const units: Unit[] = [];
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (t.time !== undefined) {
      units.push({ kind: "time", index: t.time, token: t });
      while (i < tokens.length && tokens[i]!.time === t.time) i++;
      continue;
    }
    if (
      RELATIVES.has(t.lower) &&
      tokens[i + 1] &&
      isVerbal(tokens[i + 1]!) &&
      (t.lower !== "that" || units.at(-1)?.kind === "np")
    ) {
      units.push({ kind: "rel", token: t });
      i++;
      continue;
    }
    const np = readNounPhrase(tokens, i);
    if (np) {
      units.push(np[0]);
      i = np[1];
      continue;
    }
    const vg = readVerbGroup(tokens, i);
    if (vg) {
      units.push(vg[0]);
      i = vg[1];
      continue;
    }
    if (
      t.pos === "ADP" ||
      (t.pos === "SCONJ" && ["for", "since", "like"].includes(t.lower)) ||
      (t.pos === "PART" && t.lower === "to")
    )
      units.push({ kind: "prep", word: t.lower, token: t });
    else if (t.pos === "CCONJ") units.push({ kind: "cc", word: t.lower, token: t });
    else if (t.text === "," || t.text === ";") units.push({ kind: "comma", token: t });
    else if (t.pos === "ADJ") units.push({ kind: "adj", token: t });
    else units.push({ kind: "other", token: t });
    i++;
  }
  return units;
}
