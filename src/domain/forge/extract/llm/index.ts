// The LLM extractor: one structured-output call per chunk (≤ 8 memories or ~3k tokens) for
// entities, relations and event times together. An unusable answer goes back once with the reason;
// after that, or when the provider is down, that chunk falls back to the local extractor (marked
// local-fallback-…). When the tenant's token budget refuses a call, this chunk and the rest of the
// batch are extracted locally: budgets stop spending, never lose memories. Every fallback is a
// warning.
import { AppError } from "../../../../lib/errors";
import { LlmUnavailableError, type LlmProvider } from "../../../../providers/llm/port";
import { extractLocally, LOCAL_EXTRACTOR_VERSION } from "../local";
import type { Extractor, ExtractInput, MemoryExtraction } from "../types";
import { AnswerError, parseAnswer, toExtraction } from "./answer";
import { chunkBatch, type ChunkLimits } from "./chunks";
import { extractionPrompt, memoryLine, SYSTEM_PROMPT } from "./prompt";

export const LOCAL_FALLBACK_NAME = `local-fallback-${LOCAL_EXTRACTOR_VERSION}`;

export type LlmExtractorOptions = ChunkLimits & { answerTokens: number };

type ChunkOutcome = {
  results: MemoryExtraction[];
  tokens: number;
  warnings: string[];
  budgetRefused?: boolean;
};

const describe = (chunk: ExtractInput[]) =>
  chunk.map((m) => `${m.memoryId}@${m.version}`).join(", ");

export function createLlmExtractor(llm: LlmProvider, options: LlmExtractorOptions): Extractor {
  const name = `llm:${llm.model}`;
  const maxChars = options.maxTokens * 4;

  function fallback(
    chunk: ExtractInput[],
    why: string,
    tokens: number,
    extra: Partial<ChunkOutcome> = {},
  ): ChunkOutcome {
    return {
      results: extractLocally(chunk, LOCAL_FALLBACK_NAME),
      tokens,
      warnings: [
        `memories ${describe(chunk)}: ${why}; extracted by the local rules instead (${LOCAL_FALLBACK_NAME})`,
      ],
      ...extra,
    };
  }

  async function extractChunk(chunk: ExtractInput[], orgId: string): Promise<ChunkOutcome> {
    const ids = chunk.map((_, k) => `m${k + 1}`);
    const warnings = chunk
      .filter((m) => m.content.length > maxChars)
      .map(
        (m) =>
          `memory ${m.memoryId}@${m.version}: only its first ${maxChars} characters were sent to the LLM`,
      );
    const lines = chunk.map((m, k) => memoryLine(ids[k]!, m, maxChars));
    let tokens = 0;
    let correction: string | undefined;
    for (let attempt = 1; attempt <= 2; attempt++) {
      let text: string;
      try {
        const answer = await llm.complete(
          {
            system: SYSTEM_PROMPT,
            prompt: extractionPrompt(lines, correction),
            json: true,
            maxTokens: options.answerTokens,
          },
          { orgId },
        );
        tokens += answer.tokens;
        text = answer.text;
      } catch (error) {
        if (error instanceof AppError && error.slug === "budget-exceeded")
          return fallback(
            chunk,
            `the token budget refused the LLM call (${error.detail})`,
            tokens,
            { budgetRefused: true },
          );
        if (error instanceof LlmUnavailableError)
          return fallback(chunk, `the LLM was unavailable (${error.message})`, tokens);
        throw error;
      }
      try {
        const byId = parseAnswer(text, ids);
        const results: MemoryExtraction[] = [];
        let dropped = 0;
        chunk.forEach((input, k) => {
          const mapped = toExtraction(input, byId.get(ids[k]!)!, name);
          results.push(mapped.extraction);
          dropped += mapped.dropped;
        });
        if (dropped > 0)
          warnings.push(
            `memories ${describe(chunk)}: ${dropped} relation(s) in the LLM answer had no usable name and were dropped`,
          );
        return { results, tokens, warnings };
      } catch (error) {
        if (!(error instanceof AnswerError)) throw error;
        correction = error.message;
      }
    }
    return fallback(chunk, `the LLM answer was unusable twice (${correction})`, tokens);
  }

  return {
    name,
    async extract(batch, ctx) {
      const results: MemoryExtraction[] = [];
      const warnings: string[] = [];
      let tokens = 0;
      let budgetRefused = false;
      for (const chunk of chunkBatch(batch, options)) {
        ctx.signal?.throwIfAborted();
        const outcome: ChunkOutcome = budgetRefused
          ? fallback(chunk, "the token budget is spent", 0)
          : await extractChunk(chunk, ctx.orgId);
        results.push(...outcome.results);
        warnings.push(...outcome.warnings);
        tokens += outcome.tokens;
        budgetRefused ||= outcome.budgetRefused ?? false;
      }
      return { results, warnings, tokens };
    },
  };
}
