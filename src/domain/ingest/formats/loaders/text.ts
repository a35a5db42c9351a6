// Plain text: decoded as UTF-8 while it streams and cut into prose chunks, so memory stays flat
// however large the file. Also the fallback for any text-like bytes no more specific loader claims.
import { proseLimits, withoutNul } from "../chunk/limits";
import { ProseChunker, type ProseChunk } from "../chunk/prose";
import type { Chunk, Loader, LoaderContext, LoaderSource } from "../loader";
import { looksLikeText } from "../sniff";

function toChunk(c: ProseChunk, ctx: LoaderContext): Chunk {
  if (c.forcedSplit)
    ctx.warn(
      `a run of ${c.text.length}+ characters without whitespace was split at the memory size limit`,
    );
  return { text: c.text, position: { char_start: c.start, char_end: c.end } };
}

export const textLoader: Loader = {
  id: "text",
  mimeTypes: ["text/plain"],
  extensions: [".txt", ".text", ".log"],
  description:
    "Plain UTF-8 text (and any text no other loader claims), streamed; prose chunks at paragraph, sentence or word boundaries with character offsets",
  needsMultimodal: false,
  sniff: (head) => looksLikeText(head),
  async *load(source: LoaderSource, ctx: LoaderContext) {
    const chunker = new ProseChunker(proseLimits(ctx));
    const decoder = new TextDecoder("utf-8");
    for await (const bytes of source.stream()) {
      ctx.signal?.throwIfAborted();
      chunker.push(withoutNul(decoder.decode(bytes, { stream: true })));
      for (const c of chunker.drain(false)) yield toChunk(c, ctx);
    }
    chunker.push(withoutNul(decoder.decode()));
    for (const c of chunker.drain(true)) yield toChunk(c, ctx);
  },
};
