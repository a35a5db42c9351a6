// The OpenAI-compatible LLM client: chat completions through the official SDK, any base URL.
import OpenAI from "openai";
import { AppError } from "../../domain/errors";
import { LlmUnavailableError, type LlmProvider, type LlmRequest } from "./port";

export type OpenAiLlmOptions = {
  apiKey: string;
  baseUrl?: string;
  model: string;
  timeoutMs: number;
  maxRetries?: number;
};

export function createOpenAiLlm(options: OpenAiLlmOptions): LlmProvider {
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries ?? 1,
  });

  async function complete(request: LlmRequest): Promise<{ text: string; tokens: number }> {
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [];
    if (request.system) messages.push({ role: "system", content: request.system });
    messages.push({ role: "user", content: request.prompt });
    let answer: OpenAI.Chat.Completions.ChatCompletion;
    try {
      answer = await client.chat.completions.create({
        model: options.model,
        messages,
        max_tokens: request.maxTokens,
        temperature: 0,
        ...(request.json ? { response_format: { type: "json_object" as const } } : {}),
      });
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new LlmUnavailableError(`LLM request failed: ${(error as Error).message}`, error);
    }
    const text = answer.choices?.[0]?.message?.content;
    if (typeof text !== "string") throw new LlmUnavailableError("LLM answered without message content");
    return { text, tokens: answer.usage?.total_tokens ?? 0 };
  }

  return { name: "openai", model: options.model, complete: (request) => complete(request) };
}
