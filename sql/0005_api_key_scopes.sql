-- Key scopes (docs/keys.md). Keys that exist before this migration, and the boot keys, keep full access:
-- the column default is every scope. A key only ever holds known scopes, and at least one.
ALTER TABLE api_keys
  ADD COLUMN scopes text[] NOT NULL DEFAULT ARRAY['memories:read', 'memories:write', 'forge:write', 'audit:read', 'admin']::text[];
ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_known CHECK (
  cardinality(scopes) > 0
  AND scopes <@ ARRAY['memories:read', 'memories:write', 'forge:write', 'audit:read', 'admin']::text[]);
-- The per-tenant cap counts a tenant's live keys on every create.
CREATE INDEX api_keys_org_live ON api_keys (org_id) WHERE revoked_at IS NULL;
