-- Per-org usage counters (one row per UTC day and one per UTC month) and per-org budget overrides.
-- reserved_tokens holds estimates of provider calls in flight, so concurrent callers see each other
-- before they spend (src/domain/budgets/meter.ts).
CREATE TABLE usage_counters (
  org_id           text NOT NULL REFERENCES orgs (id),
  period           text NOT NULL CHECK (period ~ '^(d:\d{4}-\d{2}-\d{2}|m:\d{4}-\d{2})$'),
  tokens           bigint NOT NULL DEFAULT 0,
  reserved_tokens  bigint NOT NULL DEFAULT 0,
  embedding_calls  bigint NOT NULL DEFAULT 0,
  llm_calls        bigint NOT NULL DEFAULT 0,
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, period)
);
ALTER TABLE usage_counters ENABLE ROW LEVEL SECURITY;
ALTER TABLE usage_counters FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON usage_counters
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE ON usage_counters TO svc_app;

-- NULL = no override (the USAGE_BUDGET_* default applies, else unlimited).
CREATE TABLE tenant_budgets (
  org_id          text PRIMARY KEY REFERENCES orgs (id),
  daily_tokens    bigint CHECK (daily_tokens >= 0),
  monthly_tokens  bigint CHECK (monthly_tokens >= 0),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE tenant_budgets ENABLE ROW LEVEL SECURITY;
ALTER TABLE tenant_budgets FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON tenant_budgets
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE ON tenant_budgets TO svc_app;
