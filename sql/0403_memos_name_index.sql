-- CYPHER anchors a pattern on a node's display name ({name: $name}, WHERE n.name = …), which is not
-- normalized_name (summary memos carry a hash suffix there), so every anchor scanned the agent's memos:
-- 15–35 ms at 40k memos (docs/benchmarks.md, CYPHER). Same predicate as the compiler's memo filter.
CREATE INDEX memos_display_name ON memos (org_id, agent_id, name) WHERE retired_at IS NULL;
