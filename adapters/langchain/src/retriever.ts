// A LangChain retriever over svc recall: each recalled memory is a Document.
import { Document } from "@langchain/core/documents";
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import type { SvcClient } from "@svc/sdk";

export type SvcRetrieverInput = BaseRetrieverInput & {
  svc: SvcClient;
  /** Whose memories to search: svc's `agent_id`. */
  agentId: string;
  /** How many memories at most (default 5). */
  topK?: number;
};

export class SvcRetriever extends BaseRetriever {
  lc_namespace = ["svc", "retrievers"];
  private readonly svc: SvcClient;
  private readonly agentId: string;
  private readonly topK: number;

  constructor({ svc, agentId, topK = 5, ...fields }: SvcRetrieverInput) {
    super(fields);
    this.svc = svc;
    this.agentId = agentId;
    this.topK = topK;
  }

  /** Documents in svc's rank order; metadata is the memory's own, plus its id and score. */
  override async _getRelevantDocuments(query: string): Promise<Document[]> {
    const request = { agent_id: this.agentId, query, top_k: this.topK };
    const { results } = await this.svc.memories.recall(request);
    return results.map(
      (r) =>
        new Document({
          id: r.memory_id,
          pageContent: r.content,
          metadata: {
            ...r.metadata,
            memory_id: r.memory_id,
            score: r.score,
            memory_type: r.memory_type,
          },
        }),
    );
  }
}
