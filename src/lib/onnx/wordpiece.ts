// A BERT WordPiece tokenizer read from a Hugging Face tokenizer.json: the BertNormalizer (clean
// text, CJK spacing, lowercase, accents), the BertPreTokenizer (whitespace and punctuation), greedy
// longest-match-first word pieces with the `##` continuation, then [CLS] … [SEP] within the max
// length.

export type WordPieceSpec = {
  vocab: ReadonlyMap<string, number>;
  unkId: number;
  clsId: number;
  sepId: number;
  padId: number;
  prefix: string;
  maxCharsPerWord: number;
  lowercase: boolean;
  stripAccents: boolean;
  cleanText: boolean;
  chineseChars: boolean;
};

type TokenizerJson = {
  normalizer?: {
    type?: string;
    lowercase?: boolean;
    strip_accents?: boolean | null;
    clean_text?: boolean;
    handle_chinese_chars?: boolean;
  } | null;
  model?: {
    type?: string;
    vocab?: Record<string, number>;
    unk_token?: string;
    continuing_subword_prefix?: string;
    max_input_chars_per_word?: number;
  };
  padding?: { pad_id?: number } | null;
};

/** Reads the tokenizer.json document; throws a message naming what is missing or unsupported. */
export function wordPieceSpec(json: unknown): WordPieceSpec {
  const doc = json as TokenizerJson;
  if (doc?.model?.type !== "WordPiece" || !doc.model.vocab) {
    const type = String(doc?.model?.type);
    throw new Error(`model.type is ${type}, only WordPiece (BERT) tokenizers are supported`);
  }
  const vocab = new Map(Object.entries(doc.model.vocab));
  const id = (token: string) => {
    const found = vocab.get(token);
    if (found === undefined) throw new Error(`the vocabulary has no ${token} token`);
    return found;
  };
  const normalizer = doc.normalizer?.type === "BertNormalizer" ? doc.normalizer : null;
  const lowercase = normalizer?.lowercase ?? false;
  return {
    vocab,
    unkId: id(doc.model.unk_token ?? "[UNK]"),
    clsId: id("[CLS]"),
    sepId: id("[SEP]"),
    padId: doc.padding?.pad_id ?? vocab.get("[PAD]") ?? 0,
    prefix: doc.model.continuing_subword_prefix ?? "##",
    maxCharsPerWord: doc.model.max_input_chars_per_word ?? 100,
    lowercase,
    // Hugging Face's rule: unset strip_accents follows lowercase.
    stripAccents: normalizer?.strip_accents ?? lowercase,
    cleanText: normalizer?.clean_text ?? false,
    chineseChars: normalizer?.handle_chinese_chars ?? false,
  };
}

const isControl = (c: string) => c !== "\t" && c !== "\n" && c !== "\r" && /\p{C}/u.test(c);
const isWhitespace = (c: string) => /\s/u.test(c);
const isChinese = (cp: number) =>
  (cp >= 0x4e00 && cp <= 0x9fff) ||
  (cp >= 0x3400 && cp <= 0x4dbf) ||
  (cp >= 0x20000 && cp <= 0x2a6df) ||
  (cp >= 0x2a700 && cp <= 0x2ceaf) ||
  (cp >= 0xf900 && cp <= 0xfaff) ||
  (cp >= 0x2f800 && cp <= 0x2fa1f);
// BERT's punctuation: every non-alphanumeric ASCII printable, and Unicode P*.
const isPunctuation = (c: string) => {
  const cp = c.codePointAt(0)!;
  const ascii =
    (cp >= 33 && cp <= 47) ||
    (cp >= 58 && cp <= 64) ||
    (cp >= 91 && cp <= 96) ||
    (cp >= 123 && cp <= 126);
  return ascii || /\p{P}/u.test(c);
};

function normalize(text: string, spec: WordPieceSpec): string {
  let out = "";
  for (const c of text) {
    const cp = c.codePointAt(0)!;
    if (spec.cleanText && (cp === 0 || cp === 0xfffd || isControl(c))) continue;
    if (spec.cleanText && isWhitespace(c)) out += " ";
    else if (spec.chineseChars && isChinese(cp)) out += ` ${c} `;
    else out += c;
  }
  if (spec.stripAccents) out = out.normalize("NFD").replace(/\p{Mn}/gu, "");
  if (spec.lowercase) out = out.toLowerCase();
  return out;
}

/** Whitespace-separated words, with each punctuation character a word of its own. */
function preTokenize(text: string): string[] {
  const words: string[] = [];
  let current = "";
  for (const c of text) {
    if (isWhitespace(c) || isPunctuation(c)) {
      if (current) words.push(current);
      current = "";
      if (!isWhitespace(c)) words.push(c);
    } else current += c;
  }
  if (current) words.push(current);
  return words;
}

function wordPieces(word: string, spec: WordPieceSpec, out: number[]): void {
  const chars = Array.from(word);
  if (chars.length > spec.maxCharsPerWord) {
    out.push(spec.unkId);
    return;
  }
  const pieces: number[] = [];
  for (let start = 0; start < chars.length; ) {
    let end = chars.length;
    let found: number | undefined;
    for (; end > start; end--) {
      const piece = (start > 0 ? spec.prefix : "") + chars.slice(start, end).join("");
      found = spec.vocab.get(piece);
      if (found !== undefined) break;
    }
    // A word with any piece missing is one unknown token, as in BERT.
    if (found === undefined) {
      out.push(spec.unkId);
      return;
    }
    pieces.push(found);
    start = end;
  }
  out.push(...pieces);
}

/** Token ids of one text: [CLS] pieces… [SEP], the pieces cut so the whole fits in maxLength. */
export function encode(text: string, spec: WordPieceSpec, maxLength: number): number[] {
  const ids: number[] = [];
  for (const word of preTokenize(normalize(text, spec))) {
    wordPieces(word, spec, ids);
    if (ids.length >= maxLength - 2) break;
  }
  return [spec.clsId, ...ids.slice(0, Math.max(0, maxLength - 2)), spec.sepId];
}
