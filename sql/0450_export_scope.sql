-- The `export` scope (docs/keys.md): GET /v1/export needs it, no longer `admin`, since an export holds
-- every memory version, forgotten ones included. Keys that could already read memories and manage
-- keys (every full-access key) keep exporting; a key holding `admin` without `memories:read` no longer
-- can. New keys default to every scope, `export` among them.
ALTER TABLE api_keys DROP CONSTRAINT api_keys_scopes_known;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_known CHECK (
  cardinality(scopes) > 0
  AND scopes <@ ARRAY['memories:read', 'memories:write', 'forge:write', 'audit:read', 'export', 'admin']::text[]);
ALTER TABLE api_keys ALTER COLUMN scopes
  SET DEFAULT ARRAY['memories:read', 'memories:write', 'forge:write', 'audit:read', 'export', 'admin']::text[];

-- Row-level security is forced on the owner too, so it is lifted for this update only, inside the
-- migration's transaction (as in sql/0133). Canonical order: `export` goes before `admin`.
ALTER TABLE api_keys NO FORCE ROW LEVEL SECURITY;
UPDATE api_keys SET scopes = array_remove(scopes, 'admin') || ARRAY['export', 'admin']::text[]
  WHERE scopes @> ARRAY['memories:read', 'admin']::text[] AND NOT scopes @> ARRAY['export']::text[];
ALTER TABLE api_keys FORCE ROW LEVEL SECURITY;
