// Picks the LLM provider from configuration: openai when a key is set (or pinned), else local.
import type { Config } from "../../config/schema";
import { createLocalLlm } from "./local";
import { createOpenAiLlm } from "./openai";
import type { LlmProvider } from "./port";

export function selectLlm(config: Config): LlmProvider {
  const provider = config.LLM_PROVIDER ?? (config.LLM_API_KEY ? "openai" : "local");
  if (provider === "local") return createLocalLlm();
  if (!config.LLM_API_KEY) throw new Error("LLM_PROVIDER=openai needs LLM_API_KEY");
  return createOpenAiLlm({
    apiKey: config.LLM_API_KEY,
    baseUrl: config.LLM_BASE_URL,
    model: config.LLM_MODEL,
    timeoutMs: config.LLM_TIMEOUT_MS,
    visionModel: config.LLM_VISION_MODEL,
    transcriptionModel: config.LLM_TRANSCRIPTION_MODEL,
  });
}
