// Metering decorators for the embedding and LLM ports: check the budget (reserve) before spending,
// record usage after, release the reservation whatever happens. budget-exceeded is an AppError, so it
// reaches the client unchanged (the ports promise that).
import type { UsageMeter } from "../domain/budgets/meter";
import type { EmbeddingProvider } from "./embeddings/port";
import type { LlmProvider, LlmRequest } from "./llm/port";

/** Same estimate as the local providers use; for remote providers it is a bound, not a count. */
const estimate = (text: string) => Math.ceil(text.length / 4);
const DEFAULT_COMPLETION_ALLOWANCE = 512;

export function meteredEmbedder(inner: EmbeddingProvider, meter: UsageMeter): EmbeddingProvider {
  return {
    name: inner.name,
    model: inner.model,
    dimensions: inner.dimensions,
    async embed(texts, ctx) {
      const reservation = await meter.reserve(ctx.orgId, texts.reduce((n, t) => n + estimate(t), 0));
      let tokens = 0;
      let calls = 0;
      try {
        const result = await inner.embed(texts, ctx);
        tokens = result.tokens;
        calls = 1;
        return result;
      } finally {
        await meter.settle(reservation, { tokens, embeddingCalls: calls });
      }
    },
  };
}

export function meteredLlm(inner: LlmProvider, meter: UsageMeter): LlmProvider {
  return {
    name: inner.name,
    model: inner.model,
    async complete(request: LlmRequest, ctx) {
      const allowance = request.maxTokens ?? DEFAULT_COMPLETION_ALLOWANCE;
      const reservation = await meter.reserve(ctx.orgId, estimate((request.system ?? "") + request.prompt) + allowance);
      let tokens = 0;
      let calls = 0;
      try {
        const result = await inner.complete(request, ctx);
        tokens = result.tokens;
        calls = 1;
        return result;
      } finally {
        await meter.settle(reservation, { tokens, llmCalls: calls });
      }
    },
  };
}
