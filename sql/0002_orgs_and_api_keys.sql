-- Tenants and their API keys.
-- orgs is the tenant registry (no tenant data, no RLS): the app role may only read it.
CREATE TABLE orgs (
  id          text PRIMARY KEY,
  name        text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now()
);
GRANT SELECT ON orgs TO svc_app;

-- key_hash = SHA-256 of the whole plaintext key; the plaintext is never stored.
CREATE TABLE api_keys (
  key_id        text PRIMARY KEY,
  org_id        text NOT NULL REFERENCES orgs (id),
  name          text NOT NULL,
  key_hash      bytea NOT NULL,
  key_start     text NOT NULL,
  kind          text NOT NULL DEFAULT 'standard' CHECK (kind IN ('standard', 'bootstrap', 'development')),
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
-- Global on purpose: the server mints the keys, so a hash collision cannot be provoked across tenants.
CREATE UNIQUE INDEX api_keys_key_hash ON api_keys (key_hash);
CREATE INDEX api_keys_org ON api_keys (org_id, created_at);

ALTER TABLE api_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE api_keys FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON api_keys
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
-- Authentication happens before the tenant is known: a caller that presents a key may read exactly
-- the row whose hash it holds, and nothing else.
CREATE POLICY key_lookup ON api_keys FOR SELECT
  USING (key_hash = decode(NULLIF(current_setting('app.key_hash', true), ''), 'hex'));
GRANT SELECT, INSERT, UPDATE ON api_keys TO svc_app;
