// One memory's text as analysed sentences: masked, tagged by wink, POS errors the rules depend on
// repaired, placeholders turned back into their slots, time spans attached, offsets in the
// original.
import { findTimes, type TimeSpan } from "./dates";
import { mask, type Slot } from "./mask";
import { tokenize, type RawToken } from "./nlp";
import { VERB_LEMMAS } from "./verbs";

export type Token = RawToken & {
  i: number;
  slot?: Slot;
  /** Index into Sentence.times when the token belongs to a date expression. */
  time?: number;
};

export type Sentence = {
  start: number;
  end: number;
  text: string;
  tokens: Token[];
  times: TimeSpan[];
};

const NOMINAL = new Set(["NOUN", "PROPN", "PRON", "NUM"]);
const POSSESSIVE_DETERMINERS = new Set(["my", "our", "your", "his", "its", "their"]);
/** "Rosa and Sam both work at …": the tagger reads "both work" as a noun phrase. */
const FLOATING_QUANTIFIERS = new Set(["both", "all", "each"]);

/** The base form of a present-tense verb the tagger mistook for a noun: "lives" → "live". */
function verbBase(word: string): string {
  if (VERB_LEMMAS.has(word)) return word;
  const candidates = [word.replace(/ies$/, "y"), word.replace(/es$/, ""), word.replace(/s$/, "")];
  return candidates.find((c) => VERB_LEMMAS.has(c)) ?? word.replace(/s$/, "");
}

/** "lives", "uses" after a noun phrase are verbs (the lite model often tags them NOUN). */
function looksLikeVerb(token: RawToken): boolean {
  return VERB_LEMMAS.has(verbBase(token.lower));
}

function repairPos(tokens: Token[]): void {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    if (t.slot) t.pos = "PROPN";
    else if (
      FLOATING_QUANTIFIERS.has(t.lower) &&
      prev &&
      NOMINAL.has(prev.pos) &&
      prev.pos !== "NUM" &&
      next?.pos === "NOUN" &&
      looksLikeVerb(next)
    ) {
      t.pos = "ADV";
      next.pos = "VERB";
      next.lemma = verbBase(next.lower);
    } else if (
      t.pos === "NOUN" &&
      prev &&
      (NOMINAL.has(prev.pos) || prev.slot) &&
      prev.pos !== "NUM" &&
      looksLikeVerb(t) &&
      (!next ||
        ["ADP", "DET", "PROPN", "PRON", "NOUN", "ADJ", "NUM", "PART", "ADV"].includes(next.pos))
    ) {
      t.pos = "VERB";
      t.lemma = verbBase(t.lower);
    } else if (
      t.pos === "VERB" &&
      prev &&
      (prev.pos === "DET" || prev.pos === "ADJ" || POSSESSIVE_DETERMINERS.has(prev.lower)) &&
      next &&
      (next.pos === "NOUN" || next.pos === "PROPN")
    ) {
      t.pos = "NOUN";
    }
  }
}

export function analyse(content: string, reference: Date): Sentence[] {
  const masked = mask(content);
  return tokenize(masked.text).map((raw) => {
    const sentenceText = masked.text.slice(raw.start, raw.end);
    const times = findTimes(sentenceText, reference).map((span) => ({
      ...span,
      start: span.start + raw.start,
      end: span.end + raw.start,
    }));
    const tokens: Token[] = raw.tokens.map((t, i) => {
      const slot = masked.byPlaceholder.get(t.text);
      const time = times.findIndex((span) => t.start >= span.start && t.end <= span.end);
      const token: Token = {
        ...t,
        i,
        start: masked.toOriginal(t.start),
        end: masked.toOriginal(t.end),
      };
      if (slot)
        Object.assign(token, {
          slot,
          text: slot.text,
          lower: slot.text.toLowerCase(),
          lemma: slot.text.toLowerCase(),
        });
      if (time >= 0 && !slot) token.time = time;
      return token;
    });
    repairPos(tokens);
    const start = masked.toOriginal(raw.start);
    const end = masked.toOriginal(raw.end);
    return {
      start,
      end,
      text: content.slice(start, end),
      tokens,
      times: times.map((s) => ({
        ...s,
        start: masked.toOriginal(s.start),
        end: masked.toOriginal(s.end),
        text: content.slice(masked.toOriginal(s.start), masked.toOriginal(s.end)),
      })),
    };
  });
}
