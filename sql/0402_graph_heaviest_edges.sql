-- Heaviest-first fan-out: the graph walks (GRAPH, TRACE paths, graph/data around a node) take each
-- node's k heaviest current edges per direction (ORDER BY weight DESC, edge_id LIMIT k). With these
-- indexes that is k index entries; with edges_out / edges_in (keyed by relation) a hub with 5,000 edges
-- was read and sorted whole on every visit. Measured on the 10k-memory / 50k-edge benchmark graph:
-- path enumeration p50 330-420 ms → 67-81 ms under load (docs/benchmarks.md).
CREATE INDEX edges_out_heaviest ON edges (org_id, src_memo_id, weight DESC, edge_id) WHERE expired_at IS NULL;
CREATE INDEX edges_in_heaviest ON edges (org_id, dst_memo_id, weight DESC, edge_id) WHERE expired_at IS NULL;
