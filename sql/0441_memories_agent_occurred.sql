-- TEMPORAL's window: an agent's current memories by event time, so a window ("in 2023", "since 1979",
-- "before the trip") is an index range, read latest first, and never a sort of the whole agent.
CREATE INDEX memories_agent_occurred ON memories (org_id, agent_id, occurred_at DESC) WHERE valid_to IS NULL;
