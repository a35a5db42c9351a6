// Embedding and LLM providers: local deterministic by default, OpenAI-compatible when a key (or,
// for embeddings, a base URL) is set, or for embeddings an ONNX model directory run in-process.
import { Type as T } from "@sinclair/typebox";

export const providersSection = {
  EMBEDDING_PROVIDER: T.Optional(
    T.Union([T.Literal("local"), T.Literal("onnx"), T.Literal("openai")], {
      description:
        "Default: openai when EMBEDDING_PROVIDER_API_KEY or EMBEDDING_BASE_URL is set, else local; onnx runs the model in EMBEDDING_MODEL_PATH in-process",
    }),
  ),
  EMBEDDING_MODEL_PATH: T.Optional(
    T.String({
      minLength: 1,
      description:
        "For EMBEDDING_PROVIDER=onnx: a directory with model.onnx and tokenizer.json (WordPiece), optionally the sentence-transformers pooling config; EMBEDDING_DIMENSIONS is read from the model",
    }),
  ),
  EMBEDDING_MODEL: T.String({
    default: "text-embedding-3-small",
    description:
      "Passed verbatim, slashes and colons included (BAAI/bge-small-en-v1.5, nomic-embed-text:latest)",
  }),
  EMBEDDING_PROVIDER_API_KEY: T.Optional(
    T.String({
      minLength: 1,
      description: "Not needed by a local server (Ollama, llama.cpp, TEI, vLLM without --api-key)",
    }),
  ),
  EMBEDDING_BASE_URL: T.Optional(
    T.String({
      pattern: "^https?://",
      description:
        "OpenAI-compatible base URL ending in /v1, e.g. http://localhost:11434/v1 (Ollama)",
    }),
  ),
  EMBEDDING_DIMENSIONS: T.Integer({
    default: 1536,
    minimum: 8,
    maximum: 2000,
    description:
      "Must equal the size of the model's vectors (checked on every answer); pgvector HNSW indexes at most 2000",
  }),
  EMBEDDING_TIMEOUT_MS: T.Integer({ default: 10000, minimum: 100 }),
  EMBEDDING_FIRST_CALL_TIMEOUT_MS: T.Integer({
    default: 120000,
    minimum: 100,
    description:
      "Background embedding (backfill, re-embed): timeout and budget for 503 retries until the first success, while a local server loads its model",
  }),
  EMBEDDING_MAX_RETRIES: T.Integer({ default: 2, minimum: 0, maximum: 10 }),
  EMBEDDING_BATCH_SIZE: T.Integer({
    default: 256,
    minimum: 1,
    maximum: 2048,
    description: "Texts per request; a 413 answer halves it for the rest of the process",
  }),
  EMBEDDING_PREVIOUS_MODEL: T.Optional(
    T.String({
      minLength: 1,
      description:
        "During a re-embed: the model that made the vectors still serving recall (not needed when it was the local embedder)",
    }),
  ),
  EMBEDDING_PREVIOUS_DIMENSIONS: T.Optional(
    T.Integer({
      minimum: 8,
      maximum: 2000,
      description: "During a re-embed: the previous model's dimension",
    }),
  ),
  EMBEDDING_PREVIOUS_BASE_URL: T.Optional(
    T.String({
      pattern: "^https?://",
      description: "During a re-embed: the previous model's server (default: EMBEDDING_BASE_URL)",
    }),
  ),
  EMBEDDING_PREVIOUS_API_KEY: T.Optional(
    T.String({
      minLength: 1,
      description:
        "During a re-embed: the previous server's key (default: EMBEDDING_PROVIDER_API_KEY)",
    }),
  ),
  LLM_PROVIDER: T.Optional(
    T.Union([T.Literal("local"), T.Literal("openai")], {
      description: "Default: openai when LLM_API_KEY is set, else local",
    }),
  ),
  LLM_MODEL: T.String({ default: "gpt-4o-mini" }),
  LLM_API_KEY: T.Optional(T.String({ minLength: 1 })),
  LLM_BASE_URL: T.Optional(T.String({ pattern: "^https?://" })),
  LLM_TIMEOUT_MS: T.Integer({ default: 15000, minimum: 100 }),
};
