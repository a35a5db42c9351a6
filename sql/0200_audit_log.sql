-- The hash-chained audit log, partitioned by month of occurred_at, plus the per-org chain head.
-- The drain (src/domain/audit/drain.ts) is the only writer; see docs/audit.md for the hash rule.
CREATE TABLE audit_log (
  org_id       text NOT NULL REFERENCES orgs (id),
  seq          bigint NOT NULL CHECK (seq >= 1),
  occurred_at  timestamptz NOT NULL,
  operation    text NOT NULL,
  agent_id     text,
  key_id       text,
  request_id   text,
  target_ids   text[] NOT NULL,
  detail       jsonb NOT NULL,
  prev_hash    bytea NOT NULL,
  hash         bytea NOT NULL
) PARTITION BY RANGE (occurred_at);
-- Uniqueness of (org_id, seq) cannot be declared across partitions; audit_heads enforces it, since
-- every append moves the head forward under the per-org advisory lock.
CREATE INDEX audit_log_org_seq ON audit_log (org_id, seq);
CREATE INDEX audit_log_org_time ON audit_log (org_id, occurred_at);

ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_log FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON audit_log
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
-- Append-only for the app role: no UPDATE, no DELETE. Grants stay on the parent, never on a partition.
GRANT SELECT, INSERT ON audit_log TO svc_app;

-- The last appended row of each org's chain: a verifier compares the chain's end with it, which is
-- what makes truncation detectable.
CREATE TABLE audit_heads (
  org_id      text PRIMARY KEY REFERENCES orgs (id),
  seq         bigint NOT NULL,
  hash        bytea NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE audit_heads ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_heads FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON audit_heads
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE ON audit_heads TO svc_app;

-- The periodic drain runs as the owner (outside any tenant) only to learn WHICH orgs have pending rows;
-- it then drains each org inside its own tenant transaction. The app role never matches this policy.
CREATE POLICY drain_scan ON audit_pending FOR SELECT TO CURRENT_USER USING (true);

-- Creates the partition for the month starting at month_start (UTC), with its own RLS (partitions do
-- not inherit it) and no grants. Idempotent and safe under concurrent callers. Owner-only.
CREATE FUNCTION svc_ensure_audit_partition(month_start date) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  first_day date := date_trunc('month', month_start)::date;
  part text := 'audit_log_' || to_char(first_day, 'YYYY"m"MM');
BEGIN
  IF to_regclass(part) IS NULL THEN
    BEGIN
      EXECUTE format('CREATE TABLE %I PARTITION OF audit_log FOR VALUES FROM (%L) TO (%L)', part,
        to_char(first_day, 'YYYY-MM-DD') || ' 00:00:00+00',
        to_char((first_day + interval '1 month')::date, 'YYYY-MM-DD') || ' 00:00:00+00');
    EXCEPTION WHEN duplicate_table THEN
      NULL;
    END;
  END IF;
  EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', part);
  EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', part);
  IF NOT EXISTS (SELECT 1 FROM pg_policy WHERE polrelid = part::regclass AND polname = 'tenant_isolation') THEN
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org())', part);
  END IF;
  EXECUTE format('REVOKE ALL ON %I FROM svc_app', part);
  RETURN part;
END
$$;
REVOKE ALL ON FUNCTION svc_ensure_audit_partition(date) FROM PUBLIC;

SELECT svc_ensure_audit_partition((now() AT TIME ZONE 'UTC')::date);
SELECT svc_ensure_audit_partition(((now() AT TIME ZONE 'UTC') + interval '1 month')::date);
