// Each tenant's fair share of the database, per process: at most `perTenant` of its transactions at
// once (so one tenant cannot hold the whole pool) and at most `heavyPerTenant` of its heavy
// operations (CYPHER, GRAPH walks, exports). Waiters queue in order; one that waits longer than
// `waitMs` is refused with the error `busy` makes (a 503 with Retry-After). The share applies
// inside `shareScope.run(share, …)` (the HTTP requests), so background tasks are never refused; a
// transaction opened inside another of the same scope takes no second slot, so nested work cannot
// wait on itself. Work that runs beside its request's transaction (AUTO's retrievers) takes a slot
// of its own, but only one free at that moment (`besideSlot`): it never waits while holding one.
import { AsyncLocalStorage } from "node:async_hooks";

export type TenantShareLimits = { perTenant: number; heavyPerTenant: number; waitMs: number };

type Slots = { held: number; waiting: Array<() => void> };

/** Counting semaphores keyed by tenant, each dropped when idle. */
function keyedSlots(capacity: number, waitMs: number, busy: (what: string) => Error, what: string) {
  const slots = new Map<string, Slots>();

  const release = (orgId: string) => {
    const entry = slots.get(orgId)!;
    const next = entry.waiting.shift();
    if (next) return next(); // the slot passes straight to the next waiter
    entry.held--;
    if (entry.held === 0) slots.delete(orgId);
  };

  const acquire = (orgId: string): Promise<void> => {
    const entry = slots.get(orgId) ?? slots.set(orgId, { held: 0, waiting: [] }).get(orgId)!;
    if (entry.held < capacity) {
      entry.held++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const granted = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        entry.waiting.splice(entry.waiting.indexOf(granted), 1);
        reject(busy(what));
      }, waitMs);
      entry.waiting.push(granted);
    });
  };

  /**
   * A slot now, or null when none is free. Waiters exist only while every slot is held (a release
   * hands its slot straight to the next), so none is overtaken.
   */
  const tryAcquire = (orgId: string): (() => void) | null => {
    const entry = slots.get(orgId) ?? slots.set(orgId, { held: 0, waiting: [] }).get(orgId)!;
    if (entry.held >= capacity) return null;
    entry.held++;
    return () => release(orgId);
  };

  const inSlot = async <T>(orgId: string, fn: () => Promise<T>): Promise<T> => {
    await acquire(orgId);
    try {
      return await fn();
    } finally {
      release(orgId);
    }
  };
  return Object.assign(inSlot, { tryAcquire });
}

export type TenantShare = ReturnType<typeof createTenantShare>;

/** `busy(what)`: the refusal of a waiter that timed out ("database work" or "heavy operations"). */
export function createTenantShare(
  limits: TenantShareLimits,
  busy: (what: string, limit: number) => Error,
) {
  return {
    limits,
    transaction: keyedSlots(
      limits.perTenant,
      limits.waitMs,
      (what) => busy(what, limits.perTenant),
      "database work",
    ),
    heavy: keyedSlots(
      limits.heavyPerTenant,
      limits.waitMs,
      (what) => busy(what, limits.heavyPerTenant),
      "heavy operations",
    ),
  };
}

type Scope = { share: TenantShare; inTransaction: boolean; inHeavy: boolean };

const scopes = new AsyncLocalStorage<Scope>();

/**
 * Runs `fn` (one HTTP request) under the share: its tenant transactions and heavy work take slots.
 */
export function shareScope<T>(share: TenantShare | null, fn: () => T): T {
  return share ? scopes.run({ share, inTransaction: false, inHeavy: false }, fn) : fn();
}

/** One tenant transaction, in a slot of the tenant's share when run inside a share scope. */
export function inTenantShare<T>(orgId: string, fn: () => Promise<T>): Promise<T> {
  const scope = scopes.getStore();
  if (!scope || scope.inTransaction) return fn();
  return scope.share.transaction(orgId, () => scopes.run({ ...scope, inTransaction: true }, fn));
}

/**
 * One more transaction slot of the tenant, for work beside the transaction this request holds, if
 * one is free now: its release, or null (the caller does the work in its own transaction instead).
 * Outside a share scope there is no share to keep, and the slot is granted.
 */
export function besideSlot(orgId: string): (() => void) | null {
  const scope = scopes.getStore();
  if (!scope) return () => {};
  return scope.share.transaction.tryAcquire(orgId);
}

/** A heavy operation (CYPHER, GRAPH walks, an export): also bounded by the tenant's heavy slots. */
export function heavyWork<T>(orgId: string, fn: () => Promise<T>): Promise<T> {
  const scope = scopes.getStore();
  if (!scope || scope.inHeavy) return fn();
  return scope.share.heavy(orgId, () => scopes.run({ ...scope, inHeavy: true }, fn));
}
