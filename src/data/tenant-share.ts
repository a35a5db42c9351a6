// Each tenant's fair share of the database, per process: at most `perTenant` of its transactions at
// once (so one tenant cannot hold the whole pool), at most `heavyPerTenant` of its heavy
// operations (CYPHER, GRAPH walks, exports), and for heavy queries a budget of database time
// (heavy-budget.ts: `heavyMsPerSecond`). Waiters queue in order; one that would wait longer than
// `waitMs` is refused with the error `busy` or `overBudget` makes (a 503 with Retry-After). The
// share applies inside `shareScope.run(share, …)` (the HTTP requests), so background tasks are
// never refused; a transaction opened inside another of the same scope takes no second slot, so
// nested work cannot wait on itself. Work that runs beside its request's transaction (AUTO's
// retrievers) takes a slot of its own, but only one free at that moment (`besideSlot`): it never
// waits while holding one.
import { AsyncLocalStorage } from "node:async_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { createHeavyBudget } from "./heavy-budget";

export type TenantShareLimits = {
  perTenant: number;
  heavyPerTenant: number;
  waitMs: number;
  /** Milliseconds of heavy query time a tenant earns a second (its share of the database's CPU). */
  heavyMsPerSecond: number;
};

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

/**
 * `busy(what)`: the refusal of a waiter that timed out ("database work" or "heavy operations");
 * `overBudget(ms)`: of a heavy query whose tenant owes more time than it may still wait.
 */
export function createTenantShare(
  limits: TenantShareLimits,
  busy: (what: string, limit: number) => Error,
  overBudget: (owedMs: number) => Error,
) {
  const budget = createHeavyBudget(limits.heavyMsPerSecond);
  return {
    limits,
    /** Notes a tenant's transaction: while it is recent, the others' heavy time is metered. */
    seen: budget.seen,
    /**
     * Runs `fn` once the tenant has paid back its heavy time (by `deadline`), then charges it;
     * while no other tenant is active, at once and free.
     */
    async metered<T>(orgId: string, deadline: number, fn: () => Promise<T>): Promise<T> {
      const shared = budget.contended(orgId);
      const owed = shared ? budget.owedFor(orgId) : 0;
      if (owed > 0) {
        if (performance.now() + owed > deadline) throw overBudget(owed);
        await sleep(owed);
      }
      const started = performance.now();
      try {
        return await fn();
      } finally {
        if (shared || budget.contended(orgId)) budget.charge(orgId, performance.now() - started);
      }
    },
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
  scope.share.seen(orgId);
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

/**
 * A heavy query (CYPHER, GRAPH and TRACE walks, graph data): bounded by the tenant's heavy slots,
 * and started only once the tenant owes no heavy time; its running time is charged to the tenant.
 */
export function heavyWork<T>(orgId: string, fn: () => Promise<T>): Promise<T> {
  const scope = scopes.getStore();
  if (!scope || scope.inHeavy) return fn();
  const deadline = performance.now() + scope.share.limits.waitMs;
  return scope.share.heavy(orgId, () =>
    scope.share.metered(orgId, deadline, () => scopes.run({ ...scope, inHeavy: true }, fn)),
  );
}

/**
 * A heavy operation paced by its client (an export): bounded by the tenant's heavy slots but not
 * charged, since its running time is mostly the client's reading, not the database's work.
 */
export function heavyStream<T>(orgId: string, fn: () => Promise<T>): Promise<T> {
  const scope = scopes.getStore();
  if (!scope || scope.inHeavy) return fn();
  return scope.share.heavy(orgId, () => scopes.run({ ...scope, inHeavy: true }, fn));
}
