-- Refine (svc.refine_run): the per-tenant run lease, and when a memo's dedupe blocking keys were computed.

-- One refine run per tenant at a time, whoever started it (POST /v1/refine or the scheduler tick).
-- `holder` identifies one delivery of one job: a redelivered or duplicated job must wait until the
-- holder's lease lapses (it renews on every committed batch), so two deliveries never interleave batches.
CREATE TABLE refine_leases (
  org_id       text PRIMARY KEY REFERENCES orgs (id),
  job_id       text NOT NULL,
  holder       text NOT NULL,
  acquired_at  timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
ALTER TABLE refine_leases ENABLE ROW LEVEL SECURITY;
ALTER TABLE refine_leases FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON refine_leases
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE, DELETE ON refine_leases TO svc_app;

-- memo_keys rows are a pure function of a memo's name and aliases; dedupe recomputes them for memos
-- whose keys are missing or older than the memo (keyed_at IS NULL OR keyed_at < updated_at).
ALTER TABLE memos ADD COLUMN keyed_at timestamptz;

-- Dedupe and summarize walk the live memos of one agent in memo_id order (keyset pagination).
CREATE INDEX memos_agent_live ON memos (org_id, agent_id, memo_id) WHERE retired_at IS NULL;

-- A run's own earlier changes to one target: the dry run's "as if applied" view, and the listing by target.
CREATE INDEX refine_changes_target ON refine_changes (org_id, job_id, target_id);

-- Reweight drains pending feedback in feedback_id (= time) order.
CREATE INDEX feedback_pending_by_id ON feedback (org_id, feedback_id) WHERE applied_at IS NULL;
