// The Cypher tokenizer: words (identifiers and keywords), `quoted` identifiers, string and number
// literals, $parameters and symbols, each with its source position. Comments (// and /* */) are
// skipped.
import { CypherError, quote, type SourcePos } from "./errors";

export type TokenKind =
  | "word"
  | "quoted"
  | "string"
  | "integer"
  | "float"
  | "param"
  | "symbol"
  | "eof";

export type Token = {
  kind: TokenKind;
  /** The source text of the token. */
  text: string;
  /** Decoded value: string contents, identifier name, parameter name, or the symbol itself. */
  value: string;
  pos: SourcePos;
};

const SYMBOLS = [
  "..",
  "<=",
  ">=",
  "<>",
  "!=",
  "=~",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ".",
  ":",
  "|",
  ";",
  "*",
  "=",
  "<",
  ">",
  "-",
  "+",
  "/",
  "%",
  "^",
  "&",
  "!",
];
const WORD_START = /[\p{L}_]/u;
const WORD_PART = /[\p{L}\p{N}_]/u;
const ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
};

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const posAt = (offset: number): SourcePos => ({ offset, line, column: offset - lineStart + 1 });
  const fail = (message: string, text: string, offset: number): never => {
    throw new CypherError(message, text, posAt(offset));
  };
  const newlinesIn = (start: number, end: number) => {
    for (let k = start; k < end; k++)
      if (source[k] === "\n") {
        line++;
        lineStart = k + 1;
      }
  };

  while (i < source.length) {
    const c = source[i]!;
    if (c === "\n") {
      line++;
      lineStart = ++i;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (source.startsWith("//", i)) {
      while (i < source.length && source[i] !== "\n") i++;
      continue;
    }
    if (source.startsWith("/*", i)) {
      const end = source.indexOf("*/", i + 2);
      if (end < 0) fail("unterminated comment", "/*", i);
      newlinesIn(i, end);
      i = end + 2;
      continue;
    }
    const start = i;
    const pos = posAt(start);
    if (c === "'" || c === '"') {
      let value = "";
      i++;
      for (;;) {
        if (i >= source.length)
          throw new CypherError(
            "unterminated string literal",
            source.slice(start, start + 20),
            pos,
          );
        const ch = source[i]!;
        if (ch === c) {
          i++;
          break;
        }
        if (ch === "\\") {
          const next = source[i + 1] ?? "";
          if (next === "u" && /^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6))) {
            value += String.fromCharCode(parseInt(source.slice(i + 2, i + 6), 16));
            i += 6;
            continue;
          }
          const decoded = ESCAPES[next];
          if (decoded === undefined)
            fail(`invalid escape sequence ${quote(`\\${next}`)} in a string`, `\\${next}`, i);
          value += decoded;
          i += 2;
          continue;
        }
        if (ch === "\n") {
          line++;
          lineStart = i + 1;
        }
        value += ch;
        i++;
      }
      tokens.push({ kind: "string", text: source.slice(start, i), value, pos });
      continue;
    }
    if (c === "`") {
      const end = source.indexOf("`", i + 1);
      if (end < 0) fail("unterminated `quoted` identifier", "`", i);
      const value = source.slice(i + 1, end);
      if (value === "") fail("empty `quoted` identifier", "``", i);
      newlinesIn(i, end);
      i = end + 1;
      tokens.push({ kind: "quoted", text: source.slice(start, i), value, pos });
      continue;
    }
    if (/[0-9]/.test(c)) {
      while (/[0-9]/.test(source[i] ?? "")) i++;
      let kind: TokenKind = "integer";
      if (source[i] === "." && /[0-9]/.test(source[i + 1] ?? "")) {
        kind = "float";
        i++;
        while (/[0-9]/.test(source[i] ?? "")) i++;
      }
      if (/[eE]/.test(source[i] ?? "") && /^[eE][+-]?[0-9]/.test(source.slice(i, i + 3))) {
        kind = "float";
        i += 2;
        while (/[0-9]/.test(source[i] ?? "")) i++;
      }
      if (WORD_PART.test(source[i] ?? ""))
        fail(
          `invalid number ${quote(source.slice(start, i + 1))}`,
          source.slice(start, i + 1),
          start,
        );
      const text = source.slice(start, i);
      tokens.push({ kind, text, value: text, pos });
      continue;
    }
    if (c === "$") {
      i++;
      while (WORD_PART.test(source[i] ?? "")) i++;
      const name = source.slice(start + 1, i);
      if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name))
        fail("a parameter needs a name, like $name", source.slice(start, i + 1), start);
      tokens.push({ kind: "param", text: source.slice(start, i), value: name, pos });
      continue;
    }
    if (WORD_START.test(c)) {
      while (WORD_PART.test(source[i] ?? "")) i++;
      const text = source.slice(start, i);
      tokens.push({ kind: "word", text, value: text, pos });
      continue;
    }
    const symbol = SYMBOLS.find((s) => source.startsWith(s, i));
    if (!symbol) fail(`unexpected character ${quote(c)}`, c, start);
    i += symbol!.length;
    tokens.push({ kind: "symbol", text: symbol!, value: symbol!, pos });
  }
  tokens.push({ kind: "eof", text: "", value: "", pos: posAt(source.length) });
  return tokens;
}
