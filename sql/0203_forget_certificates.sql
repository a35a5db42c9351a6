-- Forget certificates (signed, immutable) and the service's signing keys.
CREATE TABLE forget_certificates (
  org_id      text NOT NULL REFERENCES orgs (id),
  cert_id     text NOT NULL,
  issued_at   timestamptz NOT NULL,
  -- The exact signed payload (canonical JSON text) and its signature, so what is served is what was signed.
  payload     text NOT NULL,
  signature   text NOT NULL,
  PRIMARY KEY (org_id, cert_id)
);
ALTER TABLE forget_certificates ENABLE ROW LEVEL SECURITY;
ALTER TABLE forget_certificates FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON forget_certificates
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT ON forget_certificates TO svc_app;

-- Not tenant data. The private seed is readable by the owner only: the app role has no grant here,
-- so no tenant transaction can read it, whatever SQL it runs.
CREATE TABLE service_signing_keys (
  key_id        text PRIMARY KEY,
  algorithm     text NOT NULL CHECK (algorithm = 'ed25519'),
  public_key    bytea NOT NULL,
  private_seed  bytea NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
