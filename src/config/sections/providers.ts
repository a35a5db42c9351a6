// Embedding and LLM providers: local deterministic by default, OpenAI-compatible when a key is set.
import { Type as T } from "@sinclair/typebox";

export const providersSection = {
  EMBEDDING_PROVIDER: T.Optional(T.Union([T.Literal("local"), T.Literal("openai")], { description: "Default: openai when EMBEDDING_PROVIDER_API_KEY is set, else local" })),
  EMBEDDING_MODEL: T.String({ default: "text-embedding-3-small" }),
  EMBEDDING_PROVIDER_API_KEY: T.Optional(T.String({ minLength: 1 })),
  EMBEDDING_BASE_URL: T.Optional(T.String({ pattern: "^https?://" })),
  EMBEDDING_DIMENSIONS: T.Integer({ default: 1536, minimum: 8, maximum: 2000, description: "pgvector HNSW indexes at most 2000 dimensions" }),
  EMBEDDING_TIMEOUT_MS: T.Integer({ default: 10000, minimum: 100 }),
  EMBEDDING_MAX_RETRIES: T.Integer({ default: 2, minimum: 0, maximum: 10 }),
  EMBEDDING_BATCH_SIZE: T.Integer({ default: 256, minimum: 1, maximum: 2048 }),
  LLM_PROVIDER: T.Optional(T.Union([T.Literal("local"), T.Literal("openai")], { description: "Default: openai when LLM_API_KEY is set, else local" })),
  LLM_MODEL: T.String({ default: "gpt-4o-mini" }),
  LLM_API_KEY: T.Optional(T.String({ minLength: 1 })),
  LLM_BASE_URL: T.Optional(T.String({ pattern: "^https?://" })),
  LLM_TIMEOUT_MS: T.Integer({ default: 15000, minimum: 100 }),
};
