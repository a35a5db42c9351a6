// Distill's extractor: the local rules (default, offline) or the configured LLM, and how the LLM
// extractor chunks its calls.
import { Type as T } from "@sinclair/typebox";

export const extractSection = {
  EXTRACTOR: T.Optional(
    T.Union([T.Literal("local"), T.Literal("llm")], {
      description:
        "Entity and relation extractor for distill. Default: llm when an LLM provider is configured (LLM_API_KEY), else local; llm falls back to local per chunk",
    }),
  ),
  EXTRACT_LLM_CHUNK_MEMORIES: T.Integer({
    default: 8,
    minimum: 1,
    maximum: 32,
    description: "Most memories sent in one LLM extraction call",
  }),
  EXTRACT_LLM_CHUNK_TOKENS: T.Integer({
    default: 3000,
    minimum: 200,
    maximum: 100000,
    description:
      "Approximate prompt tokens of memory text per LLM extraction call (a longer memory travels alone, cut to this)",
  }),
  EXTRACT_LLM_ANSWER_TOKENS: T.Integer({
    default: 2048,
    minimum: 256,
    maximum: 16000,
    description: "max_tokens of an LLM extraction answer",
  }),
};
