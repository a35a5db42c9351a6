-- The drain's org scan must not depend on which role ran the migrations: any role except the app role
-- may list pending rows (only the owner holds privileges on the table besides the app role anyway),
-- while the app role keeps seeing its own tenant's rows only.
DROP POLICY drain_scan ON audit_pending;
CREATE POLICY drain_scan ON audit_pending FOR SELECT USING (current_user <> 'svc_app');
