// `svc export --org <id or name> [--out <file>]`: streams one tenant's data as chained NDJSON to
// stdout (or a file), audited as `export`; progress goes to stderr. `svc import` loads it into
// another instance.
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { openDatabase } from "../app/build-deps";
import { findOrgById, findOrgByName } from "../data/queries/orgs";
import type { Database } from "../data/pools";
import { withSystem } from "../data/with-system";
import { systemActor } from "../domain/actor";
import { exportTenant } from "../domain/export/export";
import { recordExport } from "../domain/export/record";
import { newId } from "../lib/ids";
import { configOrExit } from "./config";
import { progressReporter } from "./progress";
import { UsageError } from "./usage";

export async function orgIdOf(db: Database, org: string): Promise<string> {
  const row = await withSystem(
    db,
    async (tx) => (await findOrgById(tx, org)) ?? findOrgByName(tx, org),
  );
  if (!row) throw new Error(`org ${org} does not exist`);
  return row.id;
}

export async function runExport(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: { org: { type: "string" }, out: { type: "string" } },
  });
  if (!values.org) throw new UsageError("svc export needs --org <id or name>");
  const config = configOrExit();
  const db = await openDatabase(config, "svc-export");
  const out = values.out ? createWriteStream(values.out) : process.stdout;
  const progress = progressReporter("export", "rows");
  try {
    const orgId = await orgIdOf(db, values.org);
    const actor = systemActor(orgId, newId("req"));
    await recordExport(db, actor, "cli");
    const emit = async (chunk: string) => {
      if (!out.write(chunk)) await once(out, "drain");
    };
    const { rows } = await exportTenant(db, orgId, `svc export (${db.kind})`, emit, {
      progress: (done, total) => progress.update(done, total),
    });
    progress.stop();
    if (values.out)
      await new Promise<void>((resolve, reject) =>
        (out as ReturnType<typeof createWriteStream>).end((error?: Error | null) =>
          error ? reject(error) : resolve(),
        ),
      );
    console.error(`svc: exported ${rows} rows of org ${orgId}`);
  } finally {
    await db.close();
  }
}
