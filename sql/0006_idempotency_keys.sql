-- Idempotency-Key records (docs/idempotency.md): one row per tenant and client key. A row is first
-- 'in_flight' (claimed by the request that executes), then 'done' with the response to replay. Rows
-- expire after IDEMPOTENCY_KEY_TTL_SECONDS; expired rows are reclaimed on reuse and deleted lazily.
CREATE TABLE idempotency_keys (
  org_id            text NOT NULL REFERENCES orgs (id),
  idem_key          text NOT NULL,
  -- SHA-256 (hex) of method, path and query, API key id and the canonical request body.
  fingerprint       text NOT NULL,
  state             text NOT NULL CHECK (state IN ('in_flight', 'done')),
  -- Fences the claim: only the request holding this token may complete or release the row, so a slow
  -- request whose stale claim was taken over cannot overwrite the newer one.
  claim_token       text NOT NULL,
  claimed_at        timestamptz NOT NULL DEFAULT now(),
  expires_at        timestamptz NOT NULL,
  response_status   integer,
  response_headers  jsonb,
  response_body     text,
  PRIMARY KEY (org_id, idem_key),
  CHECK (state = 'in_flight' OR (response_status IS NOT NULL AND response_headers IS NOT NULL AND response_body IS NOT NULL))
);
ALTER TABLE idempotency_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE idempotency_keys FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON idempotency_keys
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE, DELETE ON idempotency_keys TO svc_app;
-- The lazy sweep deletes a tenant's expired rows oldest first.
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (org_id, expires_at);
