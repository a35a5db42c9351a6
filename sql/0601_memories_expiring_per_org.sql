-- The TTL sweep reads its tenant's expired memories from an index led by the tenant.
--
-- Why: svc.sweep_expired_memories visits tenants one at a time and takes each one's expired
-- memories 1,000 per transaction in expires_at order (issue 23). memories_expiring (sql/0100) is
-- led by expires_at across all tenants, so a tenant's chunk walked past every other tenant's expired,
-- not yet swept rows (row-level security filters them out after the read): with a million expired
-- memories in one tenant, every tenant swept before it read the million to find its own few.
CREATE INDEX memories_expiring_per_org ON memories (org_id, expires_at)
  WHERE valid_to IS NULL AND expires_at IS NOT NULL;
DROP INDEX memories_expiring;
