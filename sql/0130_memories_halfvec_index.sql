-- VECTOR recall at 100k memories is bound by reading the HNSW graph: a 1536-dimension float element
-- fills most of an 8 KB page, so every visited neighbour is a page read, and the index (6 KB × rows)
-- outgrows shared_buffers early. Indexing half-precision vectors halves the element (3 KB, two per page)
-- and so the pages one search touches; recall re-ranks the candidates on the stored float embedding,
-- and ANN recall@10 against an exact scan stays ≥ 0.95 (docs/benchmarks.md). The stored column is unchanged.
DROP INDEX IF EXISTS memories_embedding_1536;
CREATE INDEX memories_embedding_1536 ON memories
  USING hnsw ((embedding::halfvec(1536)) halfvec_cosine_ops)
  WHERE valid_to IS NULL AND embedding_dims = 1536;
