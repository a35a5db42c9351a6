-- Recall's `context.neighbours` finds the turn behind each recalled memory by memory_id
-- (src/data/queries/turn-neighbours.ts): an index probe instead of a scan of the tenant's turns.
CREATE INDEX conversation_turns_memory ON conversation_turns (org_id, memory_id);
