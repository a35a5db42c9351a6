-- Event time: when the remembered thing happened, beside created_at (when it was stored). A chat from
-- 2023 stored today has occurred_at in 2023; TEMPORAL windows and the occurred_after/occurred_before
-- filters read it. Writers default it to the store time.
--
-- Existing rows take their created_at. The value comes from ALTER COLUMN … USING (a table rewrite by the
-- owner) rather than an UPDATE: memories has FORCE ROW LEVEL SECURITY, so an UPDATE by a migrating
-- login without BYPASSRLS would see no rows.
ALTER TABLE memories ADD COLUMN occurred_at timestamptz;
ALTER TABLE memories
  ALTER COLUMN occurred_at TYPE timestamptz USING created_at,
  ALTER COLUMN occurred_at SET DEFAULT now(),
  ALTER COLUMN occurred_at SET NOT NULL;
