-- Tells every API process that a key changed, so its in-process cache of verified keys forgets the key
-- at once instead of at the cache's TTL (src/domain/keys/key-cache.ts). The payload is the key_id, never
-- the hash. A touch of last_used_at alone changes nothing a cached identity carries, so it stays quiet.
-- (Whole-row comparison rather than a column list: 0005 may be applied after this file on old databases.)
CREATE FUNCTION svc_notify_api_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) - 'last_used_at') = (to_jsonb(OLD) - 'last_used_at') THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('svc_api_key_changed', OLD.key_id);
  RETURN NULL;
END
$$;
CREATE TRIGGER api_keys_changed_notify AFTER UPDATE OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION svc_notify_api_key_changed();
