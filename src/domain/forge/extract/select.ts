// Picks distill's extractor: the local rules unless an LLM provider is configured (or EXTRACTOR
// pins one); the LLM extractor always carries the local one as its per-chunk fallback.
import type { Config } from "../../../config/schema";
import type { LlmProvider } from "../../../providers/llm/port";
import { createLlmExtractor } from "./llm";
import { createLocalExtractor } from "./local";
import type { Extractor } from "./types";

export function selectExtractor(config: Config, llm: LlmProvider): Extractor {
  const choice = config.EXTRACTOR ?? (llm.name === "local" ? "local" : "llm");
  if (choice === "local") return createLocalExtractor();
  if (llm.name === "local")
    throw new Error(
      "EXTRACTOR=llm needs an LLM provider: set LLM_API_KEY (and LLM_BASE_URL for a compatible server)",
    );
  return createLlmExtractor(llm, {
    maxMemories: config.EXTRACT_LLM_CHUNK_MEMORIES,
    maxTokens: config.EXTRACT_LLM_CHUNK_TOKENS,
    answerTokens: config.EXTRACT_LLM_ANSWER_TOKENS,
  });
}
