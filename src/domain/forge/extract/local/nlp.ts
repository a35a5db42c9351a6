// The wink-nlp pipeline (English lite model), loaded once per process on first use (~100 ms), and
// the token view the rules work on: text, POS, lemma, wink's negation flag and entity type (DATE,
// DURATION, TIME, …), and character offsets into the analysed text.
import winkNLP, { type ItemEntity, type ItemSentence, type ItemToken } from "wink-nlp";
import model from "wink-eng-lite-web-model";

export type RawToken = {
  text: string;
  lower: string;
  pos: string;
  lemma: string;
  start: number;
  end: number;
  negated: boolean;
  /** wink's entity type covering this token, if any (DATE, DURATION, TIME, CARDINAL, …). */
  entity?: string;
};
export type RawSentence = { start: number; end: number; tokens: RawToken[] };

type Nlp = ReturnType<typeof winkNLP>;
let nlp: Nlp | null = null;

function loaded(): Nlp {
  nlp ??= winkNLP(model);
  return nlp;
}

/**
 * Sentences and tokens of `text`; offsets are recovered by scanning, since wink keeps only spacing.
 */
export function tokenize(text: string): RawSentence[] {
  const instance = loaded();
  const its = instance.its;
  // wink's typings declare its.lemma with the addon signature; at run time it is a token
  // its-function.
  const lemmaOf = its.lemma as unknown as typeof its.pos;
  const doc = instance.readDoc(text);
  const all: Array<RawToken | null> = [];
  let cursor = 0;
  doc.tokens().each((token: ItemToken) => {
    const value = token.out();
    if (token.out(its.type) === "tabCRLF") return void all.push(null);
    const found = text.indexOf(value, cursor);
    const start = found >= 0 ? found : cursor;
    const end = found >= 0 ? start + value.length : cursor;
    cursor = end;
    all.push({
      text: value,
      lower: value.toLowerCase(),
      pos: token.out(its.pos),
      lemma: token.out(lemmaOf).toLowerCase(),
      start,
      end,
      negated: Boolean(token.out(its.negationFlag)),
    });
  });
  doc.entities().each((entity: ItemEntity) => {
    const [from, to] = entity.out(its.span) as unknown as [number, number];
    for (let i = from; i <= to; i++) if (all[i]) all[i]!.entity = entity.out(its.type);
  });
  const sentences: RawSentence[] = [];
  doc.sentences().each((sentence: ItemSentence) => {
    const [from, to] = sentence.out(its.span) as unknown as [number, number];
    const tokens = all.slice(from, to + 1).filter((t): t is RawToken => t !== null);
    if (tokens.length > 0)
      sentences.push({ start: tokens[0]!.start, end: tokens.at(-1)!.end, tokens });
  });
  return sentences;
}
