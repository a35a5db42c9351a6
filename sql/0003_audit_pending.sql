-- Audit rows waiting for the drain; written in the same transaction as the effect they record.
CREATE TABLE audit_pending (
  id           bigserial PRIMARY KEY,
  org_id       text NOT NULL REFERENCES orgs (id),
  occurred_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  operation    text NOT NULL,
  agent_id     text,
  key_id       text,
  request_id   text,
  target_ids   text[] NOT NULL DEFAULT '{}',
  detail       jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_pending_org ON audit_pending (org_id, id);

ALTER TABLE audit_pending ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_pending FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON audit_pending
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, DELETE ON audit_pending TO svc_app;
GRANT USAGE ON SEQUENCE audit_pending_id_seq TO svc_app;

-- Wakes the audit listener; NOTIFY collapses identical payloads within one transaction.
CREATE FUNCTION svc_notify_audit_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('svc_audit_pending', NEW.org_id);
  RETURN NULL;
END
$$;
CREATE TRIGGER audit_pending_notify AFTER INSERT ON audit_pending
  FOR EACH ROW EXECUTE FUNCTION svc_notify_audit_pending();
