// HTML (fetched pages, uploaded .html): reduced to its readable text with node-html-parser
// (scripts, styles, navigation, headers, footers and asides dropped; <main> or <article> preferred
// when present), one paragraph per block element, then cut into prose chunks. The page title goes
// into metadata.
import { parse } from "node-html-parser";
import { proseLimits } from "../chunk/limits";
import { chunkProse } from "../chunk/prose";
import type { Loader, LoaderContext } from "../loader";
import { looksLikeText } from "../sniff";
import { readText } from "./decode";

const NOISE = "script, style, noscript, template, svg, nav, header, footer, aside, form, iframe";

function looksLikeHtml(head: Uint8Array): boolean {
  const start = new TextDecoder().decode(head.subarray(0, 1024)).trimStart().toLowerCase();
  return (
    start.startsWith("<!doctype html") ||
    start.startsWith("<html") ||
    /<(head|body)[\s>]/.test(start)
  );
}

/** The readable text of a page: block elements become paragraphs, runs of spaces collapse. */
export function readableText(html: string): { title: string | null; text: string } {
  const root = parse(html, {
    comment: false,
    blockTextElements: { script: false, style: false, noscript: false, pre: true },
  });
  const title = root.querySelector("title")?.text.trim() || null;
  for (const node of root.querySelectorAll(NOISE)) node.remove();
  const main =
    root.querySelector("main") ??
    root.querySelector("article") ??
    root.querySelector("body") ??
    root;
  const text = main.structuredText
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .join("\n\n");
  return { title, text };
}

export const htmlLoader: Loader = {
  id: "html",
  mimeTypes: ["text/html", "application/xhtml+xml"],
  extensions: [".html", ".htm", ".xhtml"],
  description:
    "HTML pages reduced to their readable text (main content, no scripts, navigation or footers), prose chunks with offsets in that text; the title in metadata",
  needsMultimodal: false,
  sniff: (head) => looksLikeText(head) && looksLikeHtml(head),
  async *load(source, ctx: LoaderContext) {
    const { title, text } = readableText(await readText(source));
    for (const piece of chunkProse(text, proseLimits(ctx))) {
      ctx.signal?.throwIfAborted();
      yield {
        text: piece.text,
        position: { char_start: piece.start, char_end: piece.end },
        ...(title ? { metadata: { title } } : {}),
      };
    }
  },
};
