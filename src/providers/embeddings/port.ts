// The embedding port. `local` (deterministic, offline), `onnx` (a model directory run in-process)
// and `openai` (any OpenAI-compatible endpoint) implement it; a metering wrapper (usage and
// budgets) may decorate it.
export type EmbeddingContext = {
  orgId: string;
  /**
   * Background work (backfill, re-embed) that may wait for a server still loading its model: until
   * the first success it gets EMBEDDING_FIRST_CALL_TIMEOUT_MS. Request paths leave it unset and
   * never wait longer than EMBEDDING_TIMEOUT_MS (a store then defers to the backfill, recall
   * degrades to LEXICAL).
   */
  patient?: boolean;
};

export type EmbeddingResult = {
  /** One vector per input text, each of length `dimensions`. */
  vectors: number[][];
  /** Tokens the provider counted (estimated for local), for usage metering. */
  tokens: number;
};

export interface EmbeddingProvider {
  readonly name: "local" | "onnx" | "openai";
  readonly model: string;
  readonly dimensions: number;
  embed(texts: string[], ctx: EmbeddingContext): Promise<EmbeddingResult>;
  /**
   * Set by the metering wrapper when the provider runs in-process (it cannot be slow or spend money
   * while a reservation waits): embeds without metering, and the caller charges `tokens` and one
   * call inside its own tenant transaction (budgets/charge.ts), so a recall needs one transaction,
   * not three.
   */
  embedUncharged?(texts: string[], ctx: EmbeddingContext): Promise<EmbeddingResult>;
}

/**
 * Thrown when the provider is slow, down or answers nonsense. A store still succeeds without a
 * vector and svc.generate_embedding backfills it. Any AppError (e.g. budget-exceeded) is NOT this
 * and must reach the client unchanged.
 */
export class EmbeddingUnavailableError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}
