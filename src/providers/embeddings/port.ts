// The embedding port. `local` (deterministic, offline) and `openai` (any OpenAI-compatible endpoint)
// implement it; a metering wrapper (usage and budgets) may decorate it.
export type EmbeddingContext = { orgId: string };

export type EmbeddingResult = {
  /** One vector per input text, each of length `dimensions`. */
  vectors: number[][];
  /** Tokens the provider counted (estimated for local), for usage metering. */
  tokens: number;
};

export interface EmbeddingProvider {
  readonly name: "local" | "openai";
  readonly model: string;
  readonly dimensions: number;
  embed(texts: string[], ctx: EmbeddingContext): Promise<EmbeddingResult>;
}

/**
 * Thrown when the provider is slow, down or answers nonsense. A store still succeeds without a vector
 * and svc.generate_embedding backfills it. Any AppError (e.g. budget-exceeded) is NOT this and must
 * reach the client unchanged.
 */
export class EmbeddingUnavailableError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
  }
}
