-- Idempotency-Key records of forgotten answers stay as tombstones (docs/idempotency.md, "Forget").
--
-- Why: forget deleted the stored answers naming a forgotten memory, which freed their keys: a retried
-- batch store then ran again, storing its other items twice and the forgotten one anew (issue 23
-- item 10). A 'forgotten' row keeps the key and its fingerprint until the key's own expiry, without
-- the answer: its replay is a 410 problem, and nothing runs again.
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_state_check;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_state_check
  CHECK (state IN ('in_flight', 'done', 'forgotten'));
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_check;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_answer_check
  CHECK (CASE state
    WHEN 'done' THEN response_status IS NOT NULL AND response_headers IS NOT NULL
                     AND response_body IS NOT NULL
    WHEN 'forgotten' THEN response_status IS NULL AND response_headers IS NULL AND response_body IS NULL
    ELSE true END);
