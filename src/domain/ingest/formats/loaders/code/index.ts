// Source code: parsed with tree-sitter (WebAssembly grammars) and cut along declarations, so a
// chunk is a function, a class (or, for a large class, one member) or the code between them. Each
// chunk's metadata names the language, file path and symbols (what CODE recall matches) and its
// line range.
import { proseLimits } from "../../chunk/limits";
import { chunkProse } from "../../chunk/prose";
import type { Chunk, Loader, LoaderContext } from "../../loader";
import { baseType, extensionOf, looksLikeText } from "../../sniff";
import { readText } from "../decode";
import { CODE_LANGUAGES, languageOfExtension, languageOfMimeType } from "./languages";
import { parserFor } from "./parser";
import { codeUnits } from "./units";

/** Line number (1-based) of each offset, by binary search over line starts. */
function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0,
      hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/**
 * Cuts [start, end) at line ends (blank lines preferred) into pieces of at most `max` characters.
 */
export function splitLines(
  text: string,
  start: number,
  end: number,
  max: number,
): Array<[number, number]> {
  const pieces: Array<[number, number]> = [];
  let from = start;
  while (end - from > max) {
    const limit = from + max;
    const blank = text.lastIndexOf("\n\n", limit - 1);
    const line = text.lastIndexOf("\n", limit - 1);
    const cut = blank > from + max / 2 ? blank + 1 : line > from ? line + 1 : limit;
    pieces.push([from, cut]);
    from = cut;
  }
  if (end > from) pieces.push([from, end]);
  return pieces;
}

export const codeLoader: Loader = {
  id: "code",
  mimeTypes: [...new Set(CODE_LANGUAGES.flatMap((l) => l.mimeTypes))],
  extensions: [...new Set(CODE_LANGUAGES.flatMap((l) => l.extensions))],
  description: `Source code (${CODE_LANGUAGES.map((l) => l.name).join(", ")}), parsed with tree-sitter: one chunk per function, class or method (large classes split into members), with language, symbols and line range for CODE recall`,
  needsMultimodal: false,
  sniff: (head) => looksLikeText(head),
  async *load(source, ctx: LoaderContext) {
    const language =
      languageOfExtension(extensionOf(source.filename)) ??
      languageOfMimeType(baseType(source.declaredType));
    if (!language) throw new Error("the code loader was chosen for a file of no known language");
    const text = await readText(source);
    const lineOf = lineIndex(text);
    const parser = await parserFor(language);
    const tree = parser.parse(text);
    try {
      if (!tree) throw new Error("tree-sitter returned no tree");
      if (tree.rootNode.hasError)
        ctx.warn(
          `the ${language.name} source has syntax errors; chunks follow what could be parsed`,
        );
      const path = source.filename ?? undefined;
      for (const unit of codeUnits(tree.rootNode, language, ctx.codeChunkChars)) {
        ctx.signal?.throwIfAborted();
        const pieces =
          unit.end - unit.start > ctx.maxChunkChars
            ? splitLines(text, unit.start, unit.end, ctx.maxChunkChars)
            : [[unit.start, unit.end] as [number, number]];
        if (pieces.length > 1)
          ctx.warn(
            `${unit.symbols[0] ?? "a block of code"} is longer than the memory size limit and was split between lines`,
          );
        for (const [start, end] of pieces) {
          const slice = text.slice(start, end);
          const body = slice.trimEnd();
          if (body.trim() === "") continue;
          // A single line longer than the limit (minified code): cut like prose, at whitespace.
          const parts =
            body.length > ctx.maxChunkChars
              ? chunkProse(body, proseLimits(ctx), start).map((p) => [p.start, p.end] as const)
              : [[start, start + body.length] as const];
          for (const [s, e] of parts) {
            const chunk: Chunk = {
              text: text.slice(s, e),
              position: {
                line_start: lineOf(s),
                line_end: lineOf(Math.max(s, e - 1)),
                char_start: s,
                char_end: e,
                language: language.name,
                ...(unit.symbols[0] ? { symbol: unit.symbols[0] } : {}),
              },
              metadata: {
                kind: "code",
                language: language.name,
                ...(path ? { path } : {}),
                ...(unit.symbols[0] ? { symbol: unit.symbols[0], symbols: unit.symbols } : {}),
                start_line: lineOf(s),
                end_line: lineOf(Math.max(s, e - 1)),
              },
            };
            yield chunk;
          }
        }
      }
    } finally {
      tree?.delete();
      parser.delete();
    }
  },
};
