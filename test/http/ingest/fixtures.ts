// Deterministic test documents: filler prose with one distinctive sentence buried deep inside.
const WORDS =
  "river stone market window garden letter morning station harbor engine basket candle forest mirror ladder pocket valley blanket copper meadow".split(
    " ",
  );
const VERBS =
  "carries follows watches builds paints opens gathers measures repairs describes".split(" ");

/** `count` sentences of filler, seeded so every run produces the same text. */
export function filler(count: number, seed = 7): string[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) % 1000;
  const sentences: string[] = [];
  for (let i = 0; i < count; i++) {
    const a = WORDS[next() % WORDS.length]!;
    const b = WORDS[next() % WORDS.length]!;
    const v = VERBS[next() % VERBS.length]!;
    sentences.push(
      `The ${a} near the old ${b} ${v} another ${WORDS[next() % WORDS.length]} at dawn.`,
    );
  }
  return sentences;
}

export const DEEP_FACT =
  "The lighthouse keeper on Skerryvore counts exactly forty-two trawlers every winter.";

/** Paragraphs of filler with DEEP_FACT placed about `depth` (0..1) of the way in. */
export function documentWithDeepFact(paragraphs = 30, depth = 0.7): string {
  const sentences = filler(paragraphs * 6);
  const out: string[] = [];
  for (let p = 0; p < paragraphs; p++) {
    const para = sentences.slice(p * 6, p * 6 + 6);
    if (p === Math.floor(paragraphs * depth)) para.splice(3, 0, DEEP_FACT);
    out.push(para.join(" "));
  }
  return out.join("\n\n");
}
