// withTenant: the only door to tenant rows. A transaction that switches to the RLS-bound app role
// and pins app.current_org_id transaction-locally, so nothing survives on the pooled connection.
import type { Database, Sql, Tx } from "./pools";
import { besideSlot, inTenantShare } from "./tenant-share";

export const APP_ROLE = "svc_app";

/**
 * Sent, not awaited first: postgres.js sends the transaction's next query right behind it on the
 * same connection, so entering costs no round trip of its own. Queries on one connection run in
 * order, so nothing runs before the role and tenant are set. The returned promise never rejects
 * unobserved: run() awaits it, and when entering failed, that error (not the next statement's
 * "transaction is aborted") is the one the transaction throws.
 */
function enter(tx: Tx, orgId: string): Promise<void> {
  const entered =
    tx`SELECT set_config('role', ${APP_ROLE}, true), set_config('app.current_org_id', ${orgId}, true)`
      .execute()
      .then(() => undefined);
  entered.catch(() => undefined);
  return entered;
}

/** Counts the transaction as in flight for its whole life, success or failure. */
export async function tracked<T>(db: Database, work: () => Promise<T>): Promise<T> {
  db.stats.inFlight++;
  try {
    return await work();
  } finally {
    db.stats.inFlight--;
  }
}

function run<T>(
  db: Database,
  sql: Sql,
  mode: "read write" | "read only" | "isolation level repeatable read read only",
  orgId: string,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  return inTenantShare(orgId, () =>
    tracked(
      db,
      () =>
        sql.begin(mode, async (tx) => {
          const entered = enter(tx, orgId);
          try {
            return await fn(tx);
          } finally {
            await entered;
          }
        }) as Promise<T>,
    ),
  );
}

export function withTenant<T>(db: Database, orgId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return run(db, db.primary, "read write", orgId, fn);
}

/**
 * A tenant transaction beside one this request already holds (on a connection of its own), or null
 * when the tenant's share or the pool has no room for it now: it never waits for a slot or a
 * connection while its request holds one, so requests that each want more cannot deadlock the pool.
 */
export function withTenantBeside<T>(
  db: Database,
  orgId: string,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> | null {
  if (db.stats.inFlight >= db.connections) return null;
  const release = besideSlot(orgId);
  if (!release) return null;
  return run(db, db.primary, "read write", orgId, fn).finally(release);
}

/** Read-only tenant transaction on the read pool (the primary when no replica is configured). */
export function withTenantRead<T>(
  db: Database,
  orgId: string,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  return run(db, db.read, "read only", orgId, fn);
}

/**
 * Authentication runs before the tenant is known: the key_lookup policy lets the transaction see
 * only the api_keys row whose hash it presents. Once the row names its org, the transaction becomes
 * that tenant's.
 */
export function withKeyLookup<T>(
  db: Database,
  keyHashHex: string,
  fn: (tx: Tx, becomeTenant: (orgId: string) => Promise<void>) => Promise<T>,
): Promise<T> {
  return tracked(
    db,
    () =>
      db.primary.begin(async (tx) => {
        await tx`SELECT set_config('role', ${APP_ROLE}, true), set_config('app.key_hash', ${keyHashHex}, true)`;
        return fn(tx, (orgId) => enter(tx, orgId));
      }) as Promise<T>,
  );
}

/**
 * Read-only tenant transaction on one snapshot (repeatable read): a long export sees a single
 * moment.
 */
export function withTenantSnapshot<T>(
  db: Database,
  orgId: string,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  return run(db, db.primary, "isolation level repeatable read read only", orgId, fn);
}
