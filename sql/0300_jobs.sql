-- Job rows for user-visible background work (ingest, distill, refine): the source of truth a client polls.
-- Valkey only carries the wake-up; svc.ingest_watchdog re-queues rows whose worker stopped heartbeating.
-- States: queued → running → succeeded | failed | rejected (rejected = refused by a gate, never retried).
CREATE TABLE jobs (
  org_id        text NOT NULL REFERENCES orgs (id),
  job_id        text NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('ingest', 'distill', 'refine')),
  state         text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'rejected')),
  attempts      integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  payload       jsonb NOT NULL DEFAULT '{}',
  result        jsonb,
  error         text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  started_at    timestamptz,
  heartbeat_at  timestamptz,
  finished_at   timestamptz,
  PRIMARY KEY (org_id, job_id)
);
CREATE INDEX jobs_org_kind_created ON jobs (org_id, kind, created_at DESC);
CREATE INDEX jobs_unfinished ON jobs (org_id, heartbeat_at) WHERE state IN ('queued', 'running');

ALTER TABLE jobs ENABLE ROW LEVEL SECURITY;
ALTER TABLE jobs FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON jobs
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE ON jobs TO svc_app;

-- Refine scheduling lives in the tenant registry: svc.refine_scheduler_tick picks opted-in orgs whose
-- last scheduled run is oldest (never-run first). Opt in with `svc refine schedule --org <name>`.
ALTER TABLE orgs ADD COLUMN refine_opted_in_at timestamptz;
ALTER TABLE orgs ADD COLUMN refine_last_scheduled_at timestamptz;
CREATE INDEX orgs_refine_due ON orgs (refine_last_scheduled_at NULLS FIRST, id) WHERE refine_opted_in_at IS NOT NULL;
