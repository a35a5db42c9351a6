-- VECTOR's HNSW graph at 1536 dimensions moves from half-precision vectors (3 KB an element) to their sign
-- bits (binary quantization: 192 bytes an element, compared by Hamming distance). Measured on this corpus
-- (docs/benchmarks.md): an insert into the graph costs about a quarter of a half-precision one, so batch
-- store runs about 2.4× faster, and the index is a sixteenth of the size. Recall takes a few times top_k
-- candidates from the graph and re-ranks them on the stored float embedding, so scores are exact and
-- ANN recall@10 stays ≥ 0.95. Other dimensions: ensureVectorIndex (binary from 1024 dimensions up).
DROP INDEX IF EXISTS memories_embedding_1536;
CREATE INDEX memories_embedding_1536 ON memories
  USING hnsw ((binary_quantize(embedding)::bit(1536)) bit_hamming_ops)
  WHERE valid_to IS NULL AND embedding_dims = 1536;
