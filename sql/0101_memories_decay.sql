-- Importance decay bookkeeping: when svc.decay_importance last moved this row's importance, so a rerun
-- decays only the time elapsed since then (see src/domain/memories/decay-importance.ts).
ALTER TABLE memories ADD COLUMN importance_decayed_at timestamptz;
