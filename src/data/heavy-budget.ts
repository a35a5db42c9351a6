// Each tenant's budget of heavy database time, per process (issue 23). The heavy slots bound how
// many heavy queries a tenant runs at once, not for how long: one slot kept busy with queries that
// run to their timeout holds a database core for as long as the tenant likes. So each heavy query's
// running time is charged to its tenant, whose budget refills at `msPerSecond` (its share of the
// database's CPU) and saves up at most SAVED_SECONDS of that rate; a tenant that owes time waits
// until it is paid back before its next heavy query starts. Running time stands in for CPU time:
// it is at least that for a query on one core, and it grows when the database is short of CPU, so a
// busy database pays back more slowly. The budget is work-conserving: a tenant is metered only
// while another tenant is active (a transaction within the last CONTENDED_MS), so a tenant alone on
// the service may use all of it.

/** A tenant idle this long may run that much of its share at once: bursts of short graph queries
 * pass without waiting, a query that runs to its timeout leaves a debt. */
const SAVED_SECONDS = 5;

/** Another tenant's transaction this recent makes the database shared. */
const CONTENDED_MS = 5000;

type Account = { balanceMs: number; at: number };

export type HeavyBudget = ReturnType<typeof createHeavyBudget>;

/** `now` in milliseconds (a monotonic clock; tests pass their own). */
export function createHeavyBudget(msPerSecond: number, now = () => performance.now()) {
  const savedMs = msPerSecond * SAVED_SECONDS;
  const accounts = new Map<string, Account>();
  const lastSeen = new Map<string, number>();

  /** The tenant's balance now: negative while it owes time. Full accounts are dropped. */
  const balance = (orgId: string): number => {
    const account = accounts.get(orgId);
    if (!account) return savedMs;
    const t = now();
    const refilled = Math.min(savedMs, account.balanceMs + ((t - account.at) * msPerSecond) / 1000);
    if (refilled >= savedMs) {
      accounts.delete(orgId);
      return savedMs;
    }
    return refilled;
  };

  return {
    /** Notes a tenant's transaction (it makes the database shared for the others). */
    seen(orgId: string): void {
      lastSeen.set(orgId, now());
    },
    /** Whether a tenant other than `orgId` was active within CONTENDED_MS; forgets older ones. */
    contended(orgId: string): boolean {
      const since = now() - CONTENDED_MS;
      let others = false;
      for (const [id, at] of lastSeen) {
        if (at < since) lastSeen.delete(id);
        else if (id !== orgId) others = true;
      }
      return others;
    },
    /** Milliseconds until the tenant has paid back what it owes (0: it may start now). */
    owedFor(orgId: string): number {
      const left = balance(orgId);
      return left >= 0 ? 0 : (-left * 1000) / msPerSecond;
    },
    /** Charges a finished heavy query's running time to its tenant. */
    charge(orgId: string, ms: number): void {
      accounts.set(orgId, { balanceMs: balance(orgId) - ms, at: now() });
    },
  };
}
