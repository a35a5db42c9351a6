// VECTOR: nearest neighbours of the query embedding by cosine similarity (HNSW, iterative scans).
import { cancellable } from "../../../data/queries/recall-common";
import { setHnswSearch, vectorSearch } from "../../../data/queries/recall-vector";
import type { RecallStrategy } from "../strategy";

export const vectorStrategy: RecallStrategy = {
  name: "VECTOR",
  description: "Semantic similarity of meaning (paraphrases, questions in natural language).",
  needsEmbedding: true,
  async run(tx, search) {
    if (!search.queryVector) throw new Error("VECTOR ran without a query embedding");
    await setHnswSearch(tx, Math.max(search.efSearch, search.topK), search.maxScanTuples);
    const rows = await cancellable(vectorSearch(tx, {
      filter: search.filter,
      vector: search.queryVector,
      dimensions: search.dimensions,
      limit: search.topK,
      efSearch: search.efSearch,
      maxScanTuples: search.maxScanTuples,
    }), search.signal);
    return { rows };
  },
};
