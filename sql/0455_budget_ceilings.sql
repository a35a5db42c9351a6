-- The operator's (superadmin's) budget caps, in columns of their own so that neither the tenant's
-- PUT /v1/tenants/me/budgets nor the superadmin's PUT overwrites the other's values. The effective
-- cap is the lower of the ceiling and the tenant's value (override, else default): a tenant can
-- lower the operator's cap, never raise it. NULL = no ceiling. Rows written before this migration
-- keep their values as tenant overrides (the table held one set of values for both writers).
ALTER TABLE tenant_budgets
  ADD COLUMN ceiling_daily_tokens bigint CHECK (ceiling_daily_tokens >= 0),
  ADD COLUMN ceiling_monthly_tokens bigint CHECK (ceiling_monthly_tokens >= 0);
