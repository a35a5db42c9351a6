// The OpenAI-compatible LLM client: chat completions through the official SDK, any base URL.
import OpenAI, { toFile } from "openai";
import { AppError } from "../../lib/errors";
import { LlmUnavailableError, type LlmProvider, type LlmRequest, type MediaInput } from "./port";

export type OpenAiLlmOptions = {
  apiKey: string;
  baseUrl?: string;
  model: string;
  timeoutMs: number;
  maxRetries?: number;
  /** Image captions (multimodal ingest); default `model`. */
  visionModel?: string;
  /** /v1/audio/transcriptions (multimodal ingest). */
  transcriptionModel?: string;
};

const CAPTION_PROMPT =
  "Describe this image for a searchable archive: what it shows, any text in it (verbatim), people, places, objects, numbers and dates. Plain prose, no preamble.";
/**
 * Vision input is priced per image tile, not per character; a 1-tile image is about this many
 * tokens.
 */
const IMAGE_TOKENS = 1000;

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
    if (typeof text !== "string")
      throw new LlmUnavailableError("LLM answered without message content");
    return { text, tokens: answer.usage?.total_tokens ?? 0 };
  }

  async function describeImage(image: MediaInput): Promise<{ text: string; tokens: number }> {
    let answer: OpenAI.Chat.Completions.ChatCompletion;
    try {
      answer = await client.chat.completions.create({
        model: options.visionModel ?? options.model,
        temperature: 0,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: CAPTION_PROMPT },
              {
                type: "image_url",
                image_url: {
                  url: `data:${image.mimeType};base64,${Buffer.from(image.bytes).toString("base64")}`,
                },
              },
            ],
          },
        ],
      });
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new LlmUnavailableError(`image captioning failed: ${(error as Error).message}`, error);
    }
    const text = answer.choices?.[0]?.message?.content;
    if (typeof text !== "string")
      throw new LlmUnavailableError("the vision model answered without message content");
    return { text, tokens: answer.usage?.total_tokens ?? IMAGE_TOKENS };
  }

  async function transcribeAudio(audio: MediaInput): Promise<{ text: string; tokens: number }> {
    let answer: { text?: unknown };
    try {
      answer = await client.audio.transcriptions.create({
        model: options.transcriptionModel ?? "whisper-1",
        file: await toFile(audio.bytes, audio.filename, { type: audio.mimeType }),
      });
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new LlmUnavailableError(
        `audio transcription failed: ${(error as Error).message}`,
        error,
      );
    }
    if (typeof answer.text !== "string")
      throw new LlmUnavailableError("the transcription answer has no text");
    return { text: answer.text, tokens: Math.ceil(answer.text.length / 4) };
  }

  return {
    name: "openai",
    model: options.model,
    complete: (request) => complete(request),
    describeImage: (image) => describeImage(image),
    transcribeAudio: (audio) => transcribeAudio(audio),
  };
}
