// The svc client: one namespace per resource family, every method typed from the served OpenAPI.
import { verifyRows, type ChainVerdict } from "./audit-chain.js";
import { Job } from "./jobs.js";
import { readSse, streamError } from "./sse.js";
import { Transport, type CallOptions, type ClientOptions, type RequestSpec } from "./transport.js";
import type {
  AuditQuery,
  AuditRow,
  Body,
  MemoryListQuery,
  Ok,
  Query,
  RecallStreamEvent,
} from "./types.js";

const enc = encodeURIComponent;

function listParams(query: MemoryListQuery | undefined): Record<string, unknown> | undefined {
  if (!query) return undefined;
  const { metadata, ...rest } = query;
  const equalities = Object.entries(metadata ?? {}).map(([key, value]) => [
    `metadata.${key}`,
    String(value),
  ]);
  return { ...rest, ...Object.fromEntries(equalities) };
}

export class SvcClient {
  private readonly http: Transport;

  constructor(options: ClientOptions) {
    this.http = new Transport(options);
  }

  private call<T>(spec: RequestSpec): Promise<T> {
    return this.http.json<T>(spec);
  }

  readonly memories = {
    store: (body: Body<"/v1/memories", "post">, o?: CallOptions) =>
      this.call<Ok<"/v1/memories", "post">>({ method: "POST", path: "/v1/memories", body, ...o }),
    batch: (body: Body<"/v1/memories/batch", "post">, o?: CallOptions) =>
      this.call<Ok<"/v1/memories/batch", "post">>({
        method: "POST",
        path: "/v1/memories/batch",
        body,
        ...o,
      }),
    get: (memoryId: string, o?: CallOptions) =>
      this.call<Ok<"/v1/memories/{memory_id}", "get">>({
        method: "GET",
        path: `/v1/memories/${enc(memoryId)}`,
        ...o,
      }),
    history: (memoryId: string, o?: CallOptions) =>
      this.call<Ok<"/v1/memories/{memory_id}/history", "get">>({
        method: "GET",
        path: `/v1/memories/${enc(memoryId)}/history`,
        ...o,
      }),
    update: (memoryId: string, body: Body<"/v1/memories/{memory_id}", "patch">, o?: CallOptions) =>
      this.call<Ok<"/v1/memories/{memory_id}", "patch">>({
        method: "PATCH",
        path: `/v1/memories/${enc(memoryId)}`,
        body,
        ...o,
      }),
    forget: (body: Body<"/v1/memories/forget", "post">, o?: CallOptions) =>
      this.call<Ok<"/v1/memories/forget", "post">>({
        method: "POST",
        path: "/v1/memories/forget",
        body,
        ...o,
      }),
    recall: (body: Body<"/v1/memories/recall", "post">, o?: CallOptions) =>
      this.call<Ok<"/v1/memories/recall", "post">>({
        method: "POST",
        path: "/v1/memories/recall",
        body,
        ...o,
      }),
    /**
     * One page of memories, newest first; `metadata` becomes `metadata.<key>=<value>` equality
     * filters.
     */
    page: (query?: MemoryListQuery, o?: CallOptions) =>
      this.call<Ok<"/v1/memories", "get">>({
        method: "GET",
        path: "/v1/memories",
        query: listParams(query),
        ...o,
      }),
    /** Every matching memory, fetching the next page only when the loop reaches it. */
    list: (query?: MemoryListQuery, o?: CallOptions) =>
      this.pages((cursor) => this.memories.page({ ...query, cursor }, o)),
    /**
     * Results as they stream, then the summary; an error event is thrown as the same typed error.
     * Breaking out cancels the request.
     */
    recallStream: (body: Body<"/v1/memories/recall/stream", "post">, o?: CallOptions) =>
      this.recallStream(body, o),
  };

  private async *recallStream(body: unknown, o?: CallOptions): AsyncGenerator<RecallStreamEvent> {
    const response = await this.http.open({
      method: "POST",
      path: "/v1/memories/recall/stream",
      body,
      accept: "text/event-stream",
      ...o,
    });
    if (!response.body) return;
    for await (const event of readSse(response.body)) {
      if (event.event === "result") yield { type: "result", result: JSON.parse(event.data) };
      else if (event.event === "summary")
        yield { type: "summary", summary: JSON.parse(event.data) };
      else if (event.event === "error") throw streamError(event.data);
    }
  }

  readonly agents = {
    page: (query?: Query<"/v1/agents", "get">, o?: CallOptions) =>
      this.call<Ok<"/v1/agents", "get">>({ method: "GET", path: "/v1/agents", query, ...o }),
    /** Every agent in agent_id order, with counts, activity and whether a graph exists. */
    list: (o?: CallOptions) => this.pages((cursor) => this.agents.page({ limit: 200, cursor }, o)),
  };

  private async *pages<T>(
    fetchPage: (cursor?: string) => Promise<{ items: T[]; next_cursor: string | null }>,
  ) {
    let cursor: string | undefined;
    do {
      const page = await fetchPage(cursor);
      yield* page.items;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  readonly conversations = {
    open: (body: Body<"/v1/conversations", "post">, o?: CallOptions) =>
      this.call<Ok<"/v1/conversations", "post">>({
        method: "POST",
        path: "/v1/conversations",
        body,
        ...o,
      }),
    get: (conversationId: string, o?: CallOptions) =>
      this.call<Ok<"/v1/conversations/{conversation_id}", "get">>({
        method: "GET",
        path: `/v1/conversations/${enc(conversationId)}`,
        ...o,
      }),
    delete: (conversationId: string, o?: CallOptions) =>
      this.call<Ok<"/v1/conversations/{conversation_id}", "delete">>({
        method: "DELETE",
        path: `/v1/conversations/${enc(conversationId)}`,
        ...o,
      }),
    appendTurn: (
      conversationId: string,
      body: Body<"/v1/conversations/{conversation_id}/turns", "post">,
      o?: CallOptions,
    ) =>
      this.call<Ok<"/v1/conversations/{conversation_id}/turns", "post">>({
        method: "POST",
        path: `/v1/conversations/${enc(conversationId)}/turns`,
        body,
        ...o,
      }),
    turns: (
      conversationId: string,
      query?: Query<"/v1/conversations/{conversation_id}/turns", "get">,
      o?: CallOptions,
    ) =>
      this.call<Ok<"/v1/conversations/{conversation_id}/turns", "get">>({
        method: "GET",
        path: `/v1/conversations/${enc(conversationId)}/turns`,
        query,
        ...o,
      }),
    /**
     * Every turn in order (forgotten ones included, `content: null`), fetching pages of 200 as the
     * loop reaches them.
     */
    allTurns: (conversationId: string, o?: CallOptions) => this.allTurns(conversationId, o),
  };

  private async *allTurns(conversationId: string, o?: CallOptions) {
    let after: string | number | null = -1;
    while (after !== null) {
      const page = await this.conversations.turns(
        conversationId,
        { after_turn: after, limit: 200 },
        o,
      );
      yield* page.items;
      after = page.next_after_turn;
    }
  }

  readonly sessions = {
    start: (body: Body<"/v1/sessions", "post">, o?: CallOptions) =>
      this.call<Ok<"/v1/sessions", "post">>({ method: "POST", path: "/v1/sessions", body, ...o }),
    get: (sessionId: string, o?: CallOptions) =>
      this.call<Ok<"/v1/sessions/{session_id}", "get">>({
        method: "GET",
        path: `/v1/sessions/${enc(sessionId)}`,
        ...o,
      }),
    end: (sessionId: string, o?: CallOptions) =>
      this.call<Ok<"/v1/sessions/{session_id}/end", "post">>({
        method: "POST",
        path: `/v1/sessions/${enc(sessionId)}/end`,
        ...o,
      }),
  };

  readonly keys = {
    create: (body: Body<"/v1/api-keys", "post">, o?: CallOptions) =>
      this.call<Ok<"/v1/api-keys", "post">>({ method: "POST", path: "/v1/api-keys", body, ...o }),
    list: (query?: Query<"/v1/api-keys", "get">, o?: CallOptions) =>
      this.call<Ok<"/v1/api-keys", "get">>({ method: "GET", path: "/v1/api-keys", query, ...o }),
    revoke: (keyId: string, o?: CallOptions) =>
      this.call<Ok<"/v1/api-keys/{key_id}", "delete">>({
        method: "DELETE",
        path: `/v1/api-keys/${enc(keyId)}`,
        ...o,
      }),
    limits: (o?: CallOptions) =>
      this.call<Ok<"/v1/limits", "get">>({ method: "GET", path: "/v1/limits", ...o }),
  };

  /** Outbound webhooks (admin scope): the secret is returned by create and rotateSecret only. */
  readonly webhooks = {
    create: (body: Body<"/v1/webhooks", "post">, o?: CallOptions) =>
      this.call<Ok<"/v1/webhooks", "post">>({ method: "POST", path: "/v1/webhooks", body, ...o }),
    list: (query?: Query<"/v1/webhooks", "get">, o?: CallOptions) =>
      this.call<Ok<"/v1/webhooks", "get">>({ method: "GET", path: "/v1/webhooks", query, ...o }),
    get: (endpointId: string, o?: CallOptions) =>
      this.call<Ok<"/v1/webhooks/{endpoint_id}", "get">>({
        method: "GET",
        path: `/v1/webhooks/${enc(endpointId)}`,
        ...o,
      }),
    delete: (endpointId: string, o?: CallOptions) =>
      this.call<Ok<"/v1/webhooks/{endpoint_id}", "delete">>({
        method: "DELETE",
        path: `/v1/webhooks/${enc(endpointId)}`,
        ...o,
      }),
    rotateSecret: (endpointId: string, o?: CallOptions) =>
      this.call<Ok<"/v1/webhooks/{endpoint_id}/rotate-secret", "post">>({
        method: "POST",
        path: `/v1/webhooks/${enc(endpointId)}/rotate-secret`,
        ...o,
      }),
    deliveries: (
      endpointId: string,
      query?: Query<"/v1/webhooks/{endpoint_id}/deliveries", "get">,
      o?: CallOptions,
    ) =>
      this.call<Ok<"/v1/webhooks/{endpoint_id}/deliveries", "get">>({
        method: "GET",
        path: `/v1/webhooks/${enc(endpointId)}/deliveries`,
        query,
        ...o,
      }),
  };

  readonly usage = {
    get: (o?: CallOptions) =>
      this.call<Ok<"/v1/usage", "get">>({ method: "GET", path: "/v1/usage", ...o }),
  };

  readonly budgets = {
    get: (o?: CallOptions) =>
      this.call<Ok<"/v1/tenants/me/budgets", "get">>({
        method: "GET",
        path: "/v1/tenants/me/budgets",
        ...o,
      }),
    put: (body: Body<"/v1/tenants/me/budgets", "put">, o?: CallOptions) =>
      this.call<Ok<"/v1/tenants/me/budgets", "put">>({
        method: "PUT",
        path: "/v1/tenants/me/budgets",
        body,
        ...o,
      }),
  };

  readonly audit = {
    page: (query?: Query<"/v1/audit", "get">, o?: CallOptions) =>
      this.call<Ok<"/v1/audit", "get">>({ method: "GET", path: "/v1/audit", query, ...o }),
    /** Every matching row in seq order, fetching the next page only when the loop reaches it. */
    list: (query?: AuditQuery, o?: CallOptions) => this.auditRows(query, o),
    /**
     * Recomputes the tenant's whole hash chain from seq 1 (docs/audit.md). The org id comes from
     * GET /v1/tenants/me/budgets unless given.
     */
    verifyChain: async (options: CallOptions & { orgId?: string } = {}): Promise<ChainVerdict> => {
      const orgId = options.orgId ?? (await this.budgets.get(options)).org_id;
      return verifyRows(orgId, this.auditRows({ limit: 200 }, options));
    },
  };

  private async *auditRows(
    query: AuditQuery | undefined,
    o?: CallOptions,
  ): AsyncGenerator<AuditRow> {
    let cursor: string | undefined;
    do {
      const page = await this.audit.page({ ...query, ...(cursor ? { cursor } : {}) }, o);
      yield* page.items;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  readonly graph = {
    /** Nodes and edges of an agent's graph (what the /graph viewer draws). */
    data: (query: Query<"/v1/graph/data", "get">, o?: CallOptions) =>
      this.call<Ok<"/v1/graph/data", "get">>({
        method: "GET",
        path: "/v1/graph/data",
        query,
        ...o,
      }),
  };

  readonly forge = {
    ingest: async (body: Body<"/v1/ingest", "post">, o?: CallOptions) => {
      const accepted = await this.call<Ok<"/v1/ingest", "post">>({
        method: "POST",
        path: "/v1/ingest",
        body,
        ...o,
      });
      return Object.assign(this.forge.ingestJob(accepted.job_id), { accepted });
    },
    ingestJob: (jobId: string) =>
      new Job(jobId, (o) =>
        this.call<Ok<"/v1/ingest/{job_id}", "get">>({
          method: "GET",
          path: `/v1/ingest/${enc(jobId)}`,
          ...o,
        }),
      ),
    loaders: (o?: CallOptions) =>
      this.call<Ok<"/v1/ingest/loaders", "get">>({
        method: "GET",
        path: "/v1/ingest/loaders",
        ...o,
      }),
    distill: async (body: Body<"/v1/distill", "post">, o?: CallOptions) => {
      const accepted = await this.call<Ok<"/v1/distill", "post">>({
        method: "POST",
        path: "/v1/distill",
        body,
        ...o,
      });
      return Object.assign(this.forge.distillJob(accepted.job_id), { accepted });
    },
    distillJob: (jobId: string) =>
      new Job(jobId, (o) =>
        this.call<Ok<"/v1/distill/{job_id}", "get">>({
          method: "GET",
          path: `/v1/distill/${enc(jobId)}`,
          ...o,
        }),
      ),
    refine: async (body: Body<"/v1/refine", "post">, o?: CallOptions) => {
      const accepted = await this.call<Ok<"/v1/refine", "post">>({
        method: "POST",
        path: "/v1/refine",
        body,
        ...o,
      });
      return Object.assign(this.forge.refineJob(accepted.job_id), { accepted });
    },
    refineJob: (jobId: string) =>
      new Job(jobId, (o) =>
        this.call<Ok<"/v1/refine/{job_id}", "get">>({
          method: "GET",
          path: `/v1/refine/${enc(jobId)}`,
          ...o,
        }),
      ),
    feedback: (body: Body<"/v1/feedback", "post">, o?: CallOptions) =>
      this.call<Ok<"/v1/feedback", "post">>({ method: "POST", path: "/v1/feedback", body, ...o }),
    datasets: {
      create: (body: Body<"/v1/datasets", "post">, o?: CallOptions) =>
        this.call<Ok<"/v1/datasets", "post">>({ method: "POST", path: "/v1/datasets", body, ...o }),
      list: (query?: Query<"/v1/datasets", "get">, o?: CallOptions) =>
        this.call<Ok<"/v1/datasets", "get">>({ method: "GET", path: "/v1/datasets", query, ...o }),
      get: (datasetId: string, o?: CallOptions) =>
        this.call<Ok<"/v1/datasets/{dataset_id}", "get">>({
          method: "GET",
          path: `/v1/datasets/${enc(datasetId)}`,
          ...o,
        }),
      delete: (datasetId: string, o?: CallOptions) =>
        this.call<Ok<"/v1/datasets/{dataset_id}", "delete">>({
          method: "DELETE",
          path: `/v1/datasets/${enc(datasetId)}`,
          ...o,
        }),
    },
  };

  /** Subject erasure (docs/erasure.md): content removed, not soft-deleted; admin key only. */
  readonly erasures = {
    /** Queues the erasure of an agent, or of one subject named in metadata; wait() polls it. */
    request: async (body: Body<"/v1/erasures", "post">, o?: CallOptions) => {
      const accepted = await this.call<Ok<"/v1/erasures", "post">>({
        method: "POST",
        path: "/v1/erasures",
        body,
        ...o,
      });
      return Object.assign(this.erasures.job(accepted.erasure_id), { accepted });
    },
    job: (erasureId: string) =>
      new Job(erasureId, async (o) => {
        const status = await this.call<Ok<"/v1/erasures/{erasure_id}", "get">>({
          method: "GET",
          path: `/v1/erasures/${enc(erasureId)}`,
          ...o,
        });
        return { ...status, job_id: status.erasure_id };
      }),
  };

  /** Superadmin routes: construct the client with the superadmin key (SUPERADMIN_API_KEY). */
  readonly admin = {
    budgets: {
      get: (orgId: string, o?: CallOptions) =>
        this.call<Ok<"/v1/tenants/{org_id}/budgets", "get">>({
          method: "GET",
          path: `/v1/tenants/${enc(orgId)}/budgets`,
          ...o,
        }),
      put: (orgId: string, body: Body<"/v1/tenants/{org_id}/budgets", "put">, o?: CallOptions) =>
        this.call<Ok<"/v1/tenants/{org_id}/budgets", "put">>({
          method: "PUT",
          path: `/v1/tenants/${enc(orgId)}/budgets`,
          body,
          ...o,
        }),
    },
  };
}
