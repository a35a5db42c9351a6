// Maintenance access for the CLI and background tasks: only the tenant registry (orgs) and catalog
// checks run here; tenant rows are still reached through withTenant, one org at a time.
import type { Database, Tx } from "./pools";

export function withSystem<T>(db: Database, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.primary.begin((tx) => fn(tx)) as Promise<T>;
}
