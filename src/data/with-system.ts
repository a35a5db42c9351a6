// Maintenance access for the CLI and background tasks: only the tenant registry (orgs) and catalog
// checks run here; tenant rows are still reached through withTenant, one org at a time.
import type { Database, Tx } from "./pools";
import { tracked } from "./with-tenant";

export function withSystem<T>(db: Database, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return tracked(db, () => db.primary.begin((tx) => fn(tx)) as Promise<T>);
}
