// VECTOR: nearest neighbours of the query embedding by cosine similarity (HNSW, iterative scans).
import { vectorSearch } from "../../../data/queries/recall/vector";
import type { RecallStrategy } from "../strategy";

export const vectorStrategy: RecallStrategy = {
  name: "VECTOR",
  description: "Semantic similarity of meaning (paraphrases, questions in natural language).",
  needsEmbedding: true,
  async run(tx, search) {
    if (!search.queryVector) throw new Error("VECTOR ran without a query embedding");
    const rows = await vectorSearch(
      tx,
      {
        filter: search.filter,
        vector: search.queryVector,
        dimensions: search.dimensions,
        model: search.embeddingModel,
        limit: search.topK,
        efSearch: search.efSearch,
        maxScanTuples: search.maxScanTuples,
        exactMaxRows: search.exactMaxRows,
        hints: search.vectorShapes,
      },
      search.signal,
    );
    // Nearest is not related: a memory with no positive similarity shares nothing with the query
    // (the local embedder gives exactly 0 to unrelated text), so it would only pad the answer.
    return { rows: rows.filter((row) => row.score > 0) };
  },
};
