-- Outbound webhooks (docs/webhooks.md): a tenant's endpoints, the events its writes emit (the
-- outbox, written in the same transaction as the effect) and one delivery row per (event,
-- endpoint).

-- The signing secret is kept in clear: HMAC needs it to sign. previous_secret stays valid until
-- previous_secret_until so receivers can roll over after a rotation.
CREATE TABLE webhook_endpoints (
  org_id                 text NOT NULL REFERENCES orgs (id),
  endpoint_id            text NOT NULL,
  url                    text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
  events                 text[] NOT NULL CHECK (cardinality(events) > 0),
  include_content        boolean NOT NULL DEFAULT false,
  description            text,
  secret                 text NOT NULL,
  previous_secret        text,
  previous_secret_until  timestamptz,
  created_at             timestamptz NOT NULL DEFAULT now(),
  secret_rotated_at      timestamptz,
  deleted_at             timestamptz,
  PRIMARY KEY (org_id, endpoint_id)
);
-- recordEvent's check "is anyone subscribed to this type?" reads only live endpoints of one org.
CREATE INDEX webhook_endpoints_live ON webhook_endpoints (org_id) WHERE deleted_at IS NULL;
CREATE INDEX webhook_endpoints_listing ON webhook_endpoints (org_id, created_at, endpoint_id);
ALTER TABLE webhook_endpoints ENABLE ROW LEVEL SECURITY;
ALTER TABLE webhook_endpoints FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON webhook_endpoints
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE ON webhook_endpoints TO svc_app;

-- One row per event, only when some live endpoint subscribed to its type at commit time. data holds
-- ids and metadata, never memory content (a delivery to an include_content endpoint reads it then).
CREATE TABLE webhook_events (
  org_id      text NOT NULL REFERENCES orgs (id),
  event_id    text NOT NULL,
  type        text NOT NULL,
  data        jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, event_id)
);
ALTER TABLE webhook_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE webhook_events FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON webhook_events
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT ON webhook_events TO svc_app;

-- One row per (event, endpoint). state: pending, delivered, dead (attempts used up or endpoint
-- deleted). A claim pushes next_attempt_at one lease ahead, so a worker killed mid-delivery leaves
-- the row due again once the lease has passed: the event is sent again, under the same event id.
CREATE TABLE webhook_deliveries (
  org_id           text NOT NULL REFERENCES orgs (id),
  endpoint_id      text NOT NULL,
  event_id         text NOT NULL,
  state            text NOT NULL DEFAULT 'pending'
                   CHECK (state IN ('pending', 'delivered', 'dead')),
  attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  last_status      integer,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  finished_at      timestamptz,
  PRIMARY KEY (org_id, event_id, endpoint_id),
  FOREIGN KEY (org_id, endpoint_id) REFERENCES webhook_endpoints (org_id, endpoint_id),
  FOREIGN KEY (org_id, event_id) REFERENCES webhook_events (org_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (org_id, next_attempt_at)
  WHERE state = 'pending';
CREATE INDEX webhook_deliveries_log
  ON webhook_deliveries (org_id, endpoint_id, created_at DESC, event_id DESC);
ALTER TABLE webhook_deliveries ENABLE ROW LEVEL SECURITY;
ALTER TABLE webhook_deliveries FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON webhook_deliveries
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE ON webhook_deliveries TO svc_app;

-- Wakes the worker's webhook listener after commit; NOTIFY collapses an org's rows within a
-- transaction.
CREATE FUNCTION svc_notify_webhook_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('svc_webhook_deliveries', NEW.org_id);
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_deliveries_notify AFTER INSERT ON webhook_deliveries
  FOR EACH ROW EXECUTE FUNCTION svc_notify_webhook_deliveries();
