-- Distill's additions to the graph schema (sql/0400_graph.sql): when a fact was last stated, alias
-- lookups by btree equality, an index for reading every edge of an agent (as_of and include_expired
-- views), and 'source_revised' as a reason to retire a memo.

-- The event time of the most recent memory that stated the fact (its occurrence, else when it was
-- stored). Undated facts (valid_at NULL) are ordered by it when a functional relation has to decide
-- which object is the newer one; it is never part of an edge's identity, so restating a fact reinforces.
ALTER TABLE edges ADD COLUMN observed_at timestamptz;

-- Every edge of one agent, expired ones included (TRIPLET and graph/data read superseded edges at an as_of).
CREATE INDEX edges_agent_all ON edges (org_id, agent_id);

-- Aliases as rows: memos.aliases is for display; matching a name against aliases must stay a btree
-- equality under RLS (array operators are not leakproof, see sql/0110_recall_indexes.sql).
CREATE TABLE memo_aliases (
  org_id            text NOT NULL REFERENCES orgs (id),
  agent_id          text NOT NULL,
  normalized_alias  text NOT NULL,
  memo_type         text NOT NULL,
  memo_id           text NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, agent_id, normalized_alias, memo_type, memo_id)
);
CREATE INDEX memo_aliases_memo ON memo_aliases (org_id, memo_id);
ALTER TABLE memo_aliases ENABLE ROW LEVEL SECURITY;
ALTER TABLE memo_aliases FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON memo_aliases
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, DELETE ON memo_aliases TO svc_app;

-- Distill resolves a name that refine merged away to the surviving memo (memos.merged_into).
CREATE INDEX memos_merged_key ON memos (org_id, agent_id, memo_type, normalized_name) WHERE merged_into IS NOT NULL;

-- A memo whose only supporting memory version was replaced by a PATCH (and re-distilled) is retired
-- as 'source_revised', like its edges.
ALTER TABLE memos DROP CONSTRAINT memos_retired_reason_check;
ALTER TABLE memos ADD CONSTRAINT memos_retired_reason_check
  CHECK (retired_reason IN ('merged', 'source_forgotten', 'source_revised', 'pruned', 'stale_summary'));
