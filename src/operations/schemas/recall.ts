// Recall request and response shapes, shared by the JSON and the SSE routes.
import { t } from "elysia";
import type { Config } from "../../config/schema";
import { validationFailed, type FieldProblem } from "../../lib/errors";
import { boundedDate, DATE_BOUND_MESSAGE } from "../../lib/validation/date-bound";
import type { RecallInput } from "../../domain/recall/recall";
import {
  FUSABLE_STRATEGIES,
  FUSION_DEPTH,
  FUSION_K_DEFAULT,
  fusionProblems,
} from "../../domain/recall/fusion";
import { NEIGHBOURS_MAX } from "../../domain/recall/neighbours";
import { RERANK_MAX } from "../../domain/recall/rerank";
import { describeStrategies } from "../../domain/recall/registry";
import { STRATEGY_NAMES, type ConcreteStrategyName } from "../../domain/recall/strategy";
import { NullableTimestamp, Timestamp } from "./common";
import { GraphEvidenceSchema, ResultGraphLinkSchema } from "./graph-evidence";

export const recallBody = (config: Config) =>
  t.Object(
    {
      agent_id: t.String({ minLength: 1, maxLength: 256 }),
      query: t.String({
        minLength: 1,
        maxLength: config.RECALL_QUERY_MAX_CHARS,
        description: `At most ${config.RECALL_QUERY_MAX_CHARS} characters`,
      }),
      top_k: t.Optional(
        t.Integer({
          minimum: 1,
          maximum: config.RECALL_TOP_K_MAX,
          description: `Default ${config.RECALL_TOP_K_DEFAULT}, maximum ${config.RECALL_TOP_K_MAX} (larger values are a 422)`,
        }),
      ),
      strategy: t.Optional(
        t.UnionEnum(STRATEGY_NAMES, {
          default: "AUTO",
          description: `Default AUTO.\n${describeStrategies()}`,
        }),
      ),
      as_of: t.Optional(
        t.String({
          format: "date-time",
          description:
            "Graph strategies: read the graph as it was at this event time (edges valid then)",
        }),
      ),
      params: t.Optional(
        t.Record(t.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" }), t.Unknown(), {
          description: "CYPHER: values for the query's $parameters",
          maxProperties: 64,
        }),
      ),
      fusion: t.Optional(
        t.Object(
          {
            strategies: t.Array(t.String({ minLength: 1, maxLength: 32 }), {
              minItems: 2,
              maxItems: FUSABLE_STRATEGIES.length,
              description: `2 or more distinct strategies among ${FUSABLE_STRATEGIES.join(", ")}`,
            }),
            k: t.Optional(
              t.Integer({
                minimum: 1,
                maximum: 1000,
                description: `The reciprocal-rank constant, default ${FUSION_K_DEFAULT}`,
              }),
            ),
          },
          {
            additionalProperties: false,
            description:
              `Reciprocal-rank fusion: each listed strategy runs (at depth max(top_k, ${FUSION_DEPTH})) in the same transaction and a memory scores Σ 1/(k + rank) over the lists. ` +
              "`strategy` must then be omitted (or AUTO); the response's `strategy` is the first listed one that ran and `fusion` lists them all (docs/recall.md, Fusion)",
          },
        ),
      ),
      rerank: t.Optional(
        t.Boolean({
          description:
            `Reorder the first ${RERANK_MAX} results by one call to the configured LLM (metered like every LLM use); the set of results does not change. ` +
            "Without a configured LLM it is a 422; if the LLM fails or answers unusably the strategy's order is kept and `note` says why (docs/recall.md, Rerank)",
        }),
      ),
      context: t.Optional(
        t.Object(
          {
            neighbours: t.Integer({
              minimum: 1,
              maximum: NEIGHBOURS_MAX,
              description: `Turns on each side, 1–${NEIGHBOURS_MAX}`,
            }),
          },
          {
            additionalProperties: false,
            description:
              "Attach to each result that is a conversation turn the current turns around it in its conversation (`context` on each result); the ranking does not change (docs/recall.md, Context)",
          },
        ),
      ),
      filters: t.Optional(
        t.Object(
          {
            memory_type: t.Optional(
              t.Union(
                [
                  t.String({ minLength: 1, maxLength: 64 }),
                  t.Array(t.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 20 }),
                ],
                { description: "One type or a list (any of)" },
              ),
            ),
            metadata: t.Optional(
              t.Unknown({
                description: "JSON object the memory's metadata must contain (jsonb @>)",
              }),
            ),
            dataset_id: t.Optional(t.String({ minLength: 1, maxLength: 256 })),
            created_after: t.Optional(
              t.String({ format: "date-time", description: "Inclusive lower bound on created_at" }),
            ),
            created_before: t.Optional(
              t.String({ format: "date-time", description: "Exclusive upper bound on created_at" }),
            ),
            occurred_after: t.Optional(
              t.String({
                format: "date-time",
                description: "Inclusive lower bound on occurred_at (event time)",
              }),
            ),
            occurred_before: t.Optional(
              t.String({
                format: "date-time",
                description: "Exclusive upper bound on occurred_at (event time)",
              }),
            ),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  );

const StrategyName = t.UnionEnum(STRATEGY_NAMES);

export const RecallResult = t.Object(
  {
    memory_id: t.String(),
    version: t.Integer({ minimum: 1 }),
    agent_id: t.String(),
    content: t.String({ description: "Redacted when RETRIEVAL_REDACTION_ENABLED=true" }),
    score: t.Number({
      description:
        "Higher is better; comparable within one strategy only (VECTOR: cosine similarity; AUTO and fusion: the fused score)",
    }),
    retrievers: t.Array(StrategyName, {
      description:
        "The strategies whose candidate lists held this memory: AUTO fuses several (docs/recall.md, AUTO); a pinned strategy names itself",
    }),
    memory_type: t.String(),
    metadata: t.Record(t.String(), t.Unknown()),
    importance: t.Number(),
    dataset_id: t.Union([t.String(), t.Null()]),
    created_at: Timestamp,
    occurred_at: t.Date({ description: "Event time: when the remembered thing happened" }),
    valid_from: Timestamp,
    expires_at: NullableTimestamp,
    graph: t.Optional(ResultGraphLinkSchema),
    context: t.Optional(
      t.Array(
        t.Object(
          {
            memory_id: t.String(),
            version: t.Integer({ minimum: 1 }),
            role: t.String(),
            turn_index: t.Integer({ minimum: 0 }),
            offset: t.Integer({
              description:
                "Position relative to the result: -1 is the turn before, 1 the turn after",
            }),
            content: t.String(),
            occurred_at: t.Date(),
          },
          { additionalProperties: false },
        ),
        {
          description:
            "With `context` in the request: the neighbouring turns, in conversation order (empty when the result is not a conversation turn)",
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export const Routing = t.Object(
  {
    requested: StrategyName,
    method: t.Union([t.Literal("pinned"), t.Literal("llm"), t.Literal("rules")], {
      description:
        "pinned: the request named the strategy; llm: the LLM router chose; rules: the deterministic router chose",
    }),
    reason: t.String(),
    degraded_from: t.Optional(StrategyName),
  },
  { additionalProperties: false },
);

export const RecallSummaryFields = {
  strategy: StrategyName,
  routing: Routing,
  window: t.Union(
    [
      t.Object({ from: NullableTimestamp, to: NullableTimestamp, expression: t.String() }),
      t.Null(),
    ],
    {
      description:
        "TEMPORAL: the window read from the query; AUTO: the window whose memories ranked higher (a signal, not a filter); null bounds are open",
    },
  ),
  note: t.Union([t.String(), t.Null()]),
  top_k: t.Integer(),
  redactions: t.Integer({
    description: "How many values were masked by RETRIEVAL_REDACTION_ENABLED",
  }),
  graph: t.Optional(GraphEvidenceSchema),
  fusion: t.Optional(
    t.Object(
      { strategies: t.Array(StrategyName), k: t.Integer() },
      {
        additionalProperties: false,
        description:
          "Fused recalls only (the fusion option, and AUTO): the strategies whose lists were fused, in request order (AUTO: in the order they ran), and the constant k",
      },
    ),
  ),
};

export const RecallResponse = t.Object(
  { results: t.Array(RecallResult), ...RecallSummaryFields },
  { additionalProperties: false },
);

type RecallBody = {
  agent_id: string;
  query: string;
  top_k?: number;
  strategy?: (typeof STRATEGY_NAMES)[number];
  as_of?: string;
  params?: Record<string, unknown>;
  fusion?: { strategies: string[]; k?: number };
  rerank?: boolean;
  context?: { neighbours: number };
  filters?: {
    memory_type?: string | string[];
    metadata?: unknown;
    dataset_id?: string;
    created_after?: string;
    created_before?: string;
    occurred_after?: string;
    occurred_before?: string;
  };
};

function dateField(
  value: string | undefined,
  path: string,
  problems: FieldProblem[],
): Date | undefined {
  if (value === undefined) return undefined;
  const date = boundedDate(value);
  if (date === null) problems.push({ path, message: DATE_BOUND_MESSAGE });
  return date ?? undefined;
}

/** The request body as the domain's RecallInput; the checks TypeBox cannot express become 422s. */
export function toRecallInput(body: RecallBody): RecallInput {
  const f = body.filters;
  const problems: FieldProblem[] = [];
  const metadata = f?.metadata;
  if (
    metadata !== undefined &&
    (metadata === null || typeof metadata !== "object" || Array.isArray(metadata))
  ) {
    problems.push({ path: "/filters/metadata", message: "must be a JSON object" });
  }
  const createdAfter = dateField(f?.created_after, "/filters/created_after", problems);
  const createdBefore = dateField(f?.created_before, "/filters/created_before", problems);
  const occurredAfter = dateField(f?.occurred_after, "/filters/occurred_after", problems);
  const occurredBefore = dateField(f?.occurred_before, "/filters/occurred_before", problems);
  const asOf = dateField(body.as_of, "/as_of", problems);
  if (body.fusion) problems.push(...fusionProblems(body.fusion.strategies, body.strategy));
  if (problems.length > 0) throw validationFailed(problems);
  return {
    agentId: body.agent_id,
    query: body.query,
    topK: body.top_k,
    strategy: body.strategy,
    asOf,
    params: body.params,
    ...(body.fusion
      ? {
          fusion: {
            strategies: body.fusion.strategies as ConcreteStrategyName[],
            k: body.fusion.k ?? FUSION_K_DEFAULT,
          },
        }
      : {}),
    rerank: body.rerank,
    context: body.context,
    filters: f && {
      memoryTypes: f.memory_type === undefined ? undefined : [f.memory_type].flat(),
      metadata: metadata as Record<string, unknown> | undefined,
      datasetId: f.dataset_id,
      createdAfter,
      createdBefore,
      occurredAfter,
      occurredBefore,
    },
  };
}
