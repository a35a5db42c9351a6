// The prose chunk limits a loader context implies.
import type { LoaderContext } from "../loader";
import type { ChunkLimits } from "./prose";

export function proseLimits(ctx: LoaderContext): ChunkLimits {
  const target = Math.min(ctx.chunkChars, ctx.maxChunkChars);
  return { target, overlap: ctx.overlapChars, hardMax: ctx.maxChunkChars };
}

/** PostgreSQL cannot store U+0000; a space keeps every character offset valid. */
export const withoutNul = (text: string) =>
  text.includes("\u0000") ? text.replaceAll("\u0000", " ") : text;
