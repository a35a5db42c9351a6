// `svc refine schedule --org <name> [--off]`: opts a tenant in to (or out of) scheduled refine
// runs.
import { openDatabase } from "../app/build-deps";
import { findOrgByName } from "../data/queries/orgs";
import { withSystem } from "../data/with-system";
import { setRefineSchedule } from "../domain/forge/refine/schedule";
import { configOrExit } from "./config";
import { UsageError } from "./usage";

export async function runRefineSchedule(flags: { org?: string; off?: boolean }): Promise<void> {
  if (!flags.org) throw new UsageError("refine schedule needs --org <name>");
  const config = configOrExit();
  const db = await openDatabase(config, "svc-cli");
  try {
    const org = await withSystem(db, (tx) => findOrgByName(tx, flags.org!));
    if (!org) throw new Error(`no org named ${flags.org}`);
    await setRefineSchedule(db, org.id, !flags.off);
    console.log(
      JSON.stringify({
        org_id: org.id,
        refine_scheduled: !flags.off,
        beat_interval_seconds: config.REFINE_BEAT_INTERVAL_SECONDS,
      }),
    );
  } finally {
    await db.close();
  }
}
