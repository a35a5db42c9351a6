// The local extractor: offline, deterministic rules over wink-nlp and chrono-node (see
// docs/extraction.md for what it understands). Bump LOCAL_EXTRACTOR_VERSION whenever a rule change
// alters output: distill re-extracts memory versions recorded under an older name.
import type { Extractor, ExtractInput, MemoryExtraction } from "../types";
import { extractMemory } from "./extract-memory";

export const LOCAL_EXTRACTOR_VERSION = "v1";
export const LOCAL_EXTRACTOR_NAME = `local-${LOCAL_EXTRACTOR_VERSION}`;

/**
 * The local extraction of a batch under a given extractor name (the LLM extractor's fallback uses
 * its own).
 */
export function extractLocally(batch: ExtractInput[], extractor: string): MemoryExtraction[] {
  return batch.map((input) => extractMemory(input, extractor));
}

export function createLocalExtractor(): Extractor {
  return {
    name: LOCAL_EXTRACTOR_NAME,
    async extract(batch, ctx) {
      const results: MemoryExtraction[] = [];
      for (const input of batch) {
        ctx.signal?.throwIfAborted();
        results.push(extractMemory(input, LOCAL_EXTRACTOR_NAME));
      }
      return { results, warnings: [], tokens: 0 };
    },
  };
}
