-- AUTO's loose neighbours: an agent's current memories of one episode (the same occurred_at) in
-- storage order (memory ids are monotonic, src/domain/ids.ts), so the memories stored next to a
-- candidate are two short index ranges, one each side.
CREATE INDEX memories_episode_order ON memories (org_id, agent_id, occurred_at, memory_id)
  WHERE valid_to IS NULL;
