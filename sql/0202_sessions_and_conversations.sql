-- Sessions (active → ended) and conversations (open → deleted) with their turns. A turn's text lives in
-- its memory (memory_type 'turn'); the turn row keeps the order and points at that memory.
CREATE TABLE sessions (
  org_id      text NOT NULL REFERENCES orgs (id),
  session_id  text NOT NULL,
  agent_id    text NOT NULL,
  metadata    jsonb NOT NULL DEFAULT '{}',
  started_at  timestamptz NOT NULL DEFAULT now(),
  ended_at    timestamptz,
  PRIMARY KEY (org_id, session_id)
);
ALTER TABLE sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE sessions FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON sessions
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE ON sessions TO svc_app;

CREATE TABLE conversations (
  org_id                 text NOT NULL REFERENCES orgs (id),
  conversation_id        text NOT NULL,
  agent_id               text NOT NULL,
  title                  text,
  metadata               jsonb NOT NULL DEFAULT '{}',
  turn_count             integer NOT NULL DEFAULT 0,
  turns_since_summary    integer NOT NULL DEFAULT 0,
  tokens_since_summary   integer NOT NULL DEFAULT 0,
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now(),
  deleted_at             timestamptz,
  PRIMARY KEY (org_id, conversation_id)
);
ALTER TABLE conversations ENABLE ROW LEVEL SECURITY;
ALTER TABLE conversations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON conversations
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT, UPDATE ON conversations TO svc_app;

CREATE TABLE conversation_turns (
  org_id           text NOT NULL REFERENCES orgs (id),
  conversation_id  text NOT NULL,
  turn_index       integer NOT NULL CHECK (turn_index >= 0),
  role             text NOT NULL,
  memory_id        text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, conversation_id, turn_index),
  FOREIGN KEY (org_id, conversation_id) REFERENCES conversations (org_id, conversation_id)
);
ALTER TABLE conversation_turns ENABLE ROW LEVEL SECURITY;
ALTER TABLE conversation_turns FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON conversation_turns
  USING (org_id = svc_current_org()) WITH CHECK (org_id = svc_current_org());
GRANT SELECT, INSERT ON conversation_turns TO svc_app;
