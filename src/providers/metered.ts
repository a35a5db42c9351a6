// Metering decorators for the embedding and LLM ports: check the budget (reserve) before spending,
// record usage after, release the reservation whatever happens. budget-exceeded is an AppError, so
// it reaches the client unchanged (the ports promise that).
import type { UsageMeter } from "./usage-meter";
import type { EmbeddingContext, EmbeddingProvider } from "./embeddings/port";
import type { LlmContext, LlmProvider, LlmRequest, MediaInput } from "./llm/port";

/** Same estimate as the local providers use; for remote providers it is a bound, not a count. */
const estimate = (text: string) => Math.ceil(text.length / 4);
const DEFAULT_COMPLETION_ALLOWANCE = 512;
const MEDIA_ALLOWANCE = 1500;

/** Reserve the estimate, make the call, settle what it really cost (nothing if it failed). */
async function metered<T extends { tokens: number }>(
  meter: UsageMeter,
  orgId: string,
  estimated: number,
  kind: "embeddingCalls" | "llmCalls",
  call: () => Promise<T>,
): Promise<T> {
  const reservation = await meter.reserve(orgId, estimated);
  let tokens = 0;
  let calls = 0;
  try {
    const result = await call();
    tokens = result.tokens;
    calls = 1;
    return result;
  } finally {
    await meter.settle(reservation, { tokens, [kind]: calls });
  }
}

export function meteredEmbedder(inner: EmbeddingProvider, meter: UsageMeter): EmbeddingProvider {
  return {
    name: inner.name,
    model: inner.model,
    dimensions: inner.dimensions,
    embed: (texts, ctx) =>
      metered(
        meter,
        ctx.orgId,
        texts.reduce((n, t) => n + estimate(t), 0),
        "embeddingCalls",
        () => inner.embed(texts, ctx),
      ),
    ...(inner.name === "local"
      ? { embedUncharged: (texts: string[], ctx: EmbeddingContext) => inner.embed(texts, ctx) }
      : {}),
  };
}

export function meteredLlm(inner: LlmProvider, meter: UsageMeter): LlmProvider {
  return {
    name: inner.name,
    model: inner.model,
    complete: (request: LlmRequest, ctx) => {
      const allowance = request.maxTokens ?? DEFAULT_COMPLETION_ALLOWANCE;
      return metered(
        meter,
        ctx.orgId,
        estimate((request.system ?? "") + request.prompt) + allowance,
        "llmCalls",
        () => inner.complete(request, ctx),
      );
    },
    // Media is reserved at a flat allowance (tiles and seconds are not known before the call).
    ...(inner.describeImage
      ? {
          describeImage: (image: MediaInput, ctx: LlmContext) =>
            metered(meter, ctx.orgId, MEDIA_ALLOWANCE, "llmCalls", () =>
              inner.describeImage!(image, ctx),
            ),
        }
      : {}),
    ...(inner.transcribeAudio
      ? {
          transcribeAudio: (audio: MediaInput, ctx: LlmContext) =>
            metered(meter, ctx.orgId, MEDIA_ALLOWANCE, "llmCalls", () =>
              inner.transcribeAudio!(audio, ctx),
            ),
        }
      : {}),
  };
}
