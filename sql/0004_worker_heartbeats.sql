-- Pulses written by svc.worker_ping; GET /v1/worker/health reads the freshest one. Not tenant data.
CREATE TABLE worker_heartbeats (
  worker_id  text PRIMARY KEY,
  seen_at    timestamptz NOT NULL DEFAULT now(),
  detail     jsonb NOT NULL DEFAULT '{}'
);
