// The scheduler tick's work: claim the opted-in tenants that are due (oldest last run first), skip
// those whose token budget is already spent (their turn comes again next interval), and create and
// enqueue a refine job with the default passes for each of the others.
import type { Ports } from "../../ports/ports";
import type { Database, Tx } from "../../../data/pools";
import { readBudgetOverrides } from "../../../data/queries/budgets/budgets";
import { claimDueRefineOrgs, setRefineOptIn } from "../../../data/queries/forge/refine/schedule";
import { readCounters } from "../../../data/queries/usage/usage";
import { withSystem } from "../../../data/with-system";
import { withTenant } from "../../../data/with-tenant";
import { systemActor } from "../../actor";
import { dayKey, monthKey } from "../../budgets/periods";
import { resolveCaps } from "../../budgets/resolve";
import { defaultPasses } from "./pass-names";
import { enqueueRefine, insertRefineJob } from "./request";

/** Opts a tenant in to scheduled refine runs (kept from its first opt-in), or out. */
export async function setRefineSchedule(db: Database, orgId: string, on: boolean): Promise<void> {
  await withSystem(db, (tx) => setRefineOptIn(tx, orgId, on));
}

/** Orgs scheduled per tick; the rest wait for the next tick, still oldest first. */
export const REFINE_ORGS_PER_TICK = 50;

/** Whether the tenant's daily or monthly token cap is already reached (reservations included). */
async function budgetSpent(tx: Tx, config: Ports["config"], now: Date): Promise<boolean> {
  const caps = resolveCaps(await readBudgetOverrides(tx), config);
  const counters = new Map(
    (await readCounters(tx, [dayKey(now), monthKey(now)])).map((c) => [
      c.period,
      c.tokens + c.reserved_tokens,
    ]),
  );
  return (
    (caps.daily_tokens !== null && (counters.get(dayKey(now)) ?? 0) >= caps.daily_tokens) ||
    (caps.monthly_tokens !== null && (counters.get(monthKey(now)) ?? 0) >= caps.monthly_tokens)
  );
}

export async function scheduleDueRefines(
  deps: Pick<Ports, "db" | "config" | "log" | "queue">,
  now = new Date(),
) {
  const interval = deps.config.REFINE_BEAT_INTERVAL_SECONDS;
  if (interval <= 0) return { scheduled: 0, reason: "REFINE_BEAT_INTERVAL_SECONDS=0" };
  const orgIds = await withSystem(deps.db, (tx) =>
    claimDueRefineOrgs(tx, interval, REFINE_ORGS_PER_TICK),
  );
  const scheduled: Array<{ org_id: string; job_id: string }> = [];
  const overBudget: string[] = [];
  for (const orgId of orgIds) {
    const jobId = await withTenant(deps.db, orgId, async (tx) => {
      if (await budgetSpent(tx, deps.config, now)) return null;
      const queued = await insertRefineJob(tx, systemActor(orgId), {
        agent_id: null,
        dataset_id: null,
        passes: defaultPasses(deps.config.REFINE_DEFAULT_PASSES),
        dry_run: false,
        trigger: "scheduler",
        key_id: null,
        request_id: null,
      });
      return queued.job_id;
    });
    if (jobId === null) {
      overBudget.push(orgId);
      continue;
    }
    await enqueueRefine(deps, orgId, jobId);
    scheduled.push({ org_id: orgId, job_id: jobId });
  }
  return {
    scheduled: scheduled.length,
    org_ids: scheduled.map((s) => s.org_id),
    jobs: scheduled,
    skipped_over_budget: overBudget,
  };
}
