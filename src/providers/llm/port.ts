// The LLM port: `local` (deterministic, rule-based) and `openai` (chat completions) implement it;
// a metering wrapper (usage and budgets) may decorate it.
export type LlmContext = { orgId: string };

export type LlmRequest = {
  system?: string;
  prompt: string;
  /** Ask for a JSON object answer (response_format json_object on OpenAI-compatible servers). */
  json?: boolean;
  maxTokens?: number;
};

export type LlmResult = {
  text: string;
  /** Tokens the provider counted (estimated for local), for usage metering. */
  tokens: number;
};

/** An image or audio file for the multimodal ingest loaders. */
export type MediaInput = { bytes: Uint8Array; mimeType: string; filename: string };

export interface LlmProvider {
  readonly name: "local" | "openai";
  readonly model: string;
  complete(request: LlmRequest, ctx: LlmContext): Promise<LlmResult>;
  /**
   * Providers that can see images: a description of the image as text (MULTIMODAL_ENABLED ingest).
   */
  describeImage?(image: MediaInput, ctx: LlmContext): Promise<LlmResult>;
  /** Providers that can hear: a transcript of the audio (MULTIMODAL_ENABLED ingest). */
  transcribeAudio?(audio: MediaInput, ctx: LlmContext): Promise<LlmResult>;
}

/**
 * Thrown when the provider is slow, down or answers nonsense; callers degrade (e.g. the recall
 * router falls back to rules). Any AppError (e.g. budget-exceeded) is NOT this and must reach the
 * client unchanged.
 */
export class LlmUnavailableError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}
