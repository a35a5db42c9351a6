-- Leave room on each page so in-place updates of unindexed columns (recall's access counters, importance
-- decay) stay HOT: a non-HOT update would insert a new entry into every index, the HNSW one included.
ALTER TABLE memories SET (fillfactor = 85);
