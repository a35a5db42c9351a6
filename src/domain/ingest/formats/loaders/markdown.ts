// Markdown: `marked`'s top-level tokens (whose `raw` strings concatenate exactly to the source)
// give every block its character offsets. Each heading opens a section; a section is one chunk when
// it fits and is cut into prose chunks (paragraph, sentence, word boundaries) when it does not.
// Every chunk carries the heading path above it. YAML front matter is skipped, never chunked.
import { marked } from "marked";
import { proseLimits } from "../chunk/limits";
import { chunkProse } from "../chunk/prose";
import type { Chunk, Loader, LoaderContext } from "../loader";
import { looksLikeText } from "../sniff";
import { readText } from "./decode";

type Section = { start: number; end: number; headingPath: string[] };

/** Length of a leading `---` … `---` (or `...`) front-matter block, else 0. */
export function frontMatterLength(text: string): number {
  const match = /^---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text);
  return match ? match[0].length : 0;
}

/** Sections between headings, with absolute offsets and the heading path that applies. */
export function markdownSections(text: string): Section[] {
  const base = frontMatterLength(text);
  const sections: Section[] = [];
  const path: Array<{ depth: number; title: string }> = [];
  let current: Section = { start: base, end: base, headingPath: [] };
  let offset = base;
  for (const token of marked.lexer(text.slice(base))) {
    if (token.type === "heading") {
      if (current.end > current.start) sections.push(current);
      while (path.length > 0 && path[path.length - 1]!.depth >= token.depth) path.pop();
      path.push({ depth: token.depth, title: token.text.trim() });
      current = { start: offset, end: offset, headingPath: path.map((h) => h.title) };
    }
    offset += token.raw.length;
    current.end = offset;
  }
  if (current.end > current.start) sections.push(current);
  return sections;
}

export const markdownLoader: Loader = {
  id: "markdown",
  mimeTypes: ["text/markdown", "text/x-markdown"],
  extensions: [".md", ".markdown", ".mdown", ".mkd"],
  description:
    "Markdown: one chunk per heading section (long sections cut at paragraph, sentence or word boundaries), with the heading path and character offsets; front matter skipped",
  needsMultimodal: false,
  sniff: (head) => looksLikeText(head),
  async *load(source, ctx: LoaderContext) {
    const text = await readText(source);
    const limits = proseLimits(ctx);
    for (const section of markdownSections(text)) {
      ctx.signal?.throwIfAborted();
      for (const piece of chunkProse(
        text.slice(section.start, section.end),
        limits,
        section.start,
      )) {
        if (piece.forcedSplit)
          ctx.warn(
            `a run of ${piece.text.length}+ characters without whitespace was split at the memory size limit`,
          );
        const chunk: Chunk = {
          text: piece.text,
          position: {
            heading_path: section.headingPath,
            char_start: piece.start,
            char_end: piece.end,
          },
        };
        yield chunk;
      }
    }
  },
};
