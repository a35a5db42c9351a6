// `svc import --org <name> [file]`: loads an export stream (a file, or stdin) into the named org of
// this instance, creating the org if needed. All or nothing: a stream refused at line N exits 1 and
// imports nothing. Idempotent: rows already present are skipped. Prints a JSON summary on stdout.
import { migrateAsOwner } from "../app/database-roles";
import { createReadStream, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { openDatabase } from "../app/build-deps";
import { systemActor } from "../domain/actor";
import { AppError } from "../lib/errors";
import { importStream } from "../domain/export/import";
import { newId } from "../lib/ids";
import { ensureOrg } from "../domain/keys/bootstrap";
import { configOrExit } from "./config";
import { progressReporter } from "./progress";
import { readLines } from "./read-lines";
import { UsageError } from "./usage";

export async function runImport(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { org: { type: "string" } },
  });
  if (!values.org)
    throw new UsageError("svc import needs --org <name> (created if it does not exist)");
  if (positionals.length > 1)
    throw new UsageError("svc import takes at most one file (default: stdin)");
  const file = positionals[0];
  const config = configOrExit();
  const db = await openDatabase(config, "svc-import");
  // A file shows bytes read of its size; stdin has no known size, so rows imported so far.
  const progress = progressReporter("import", file ? "bytes" : "rows");
  try {
    await migrateAsOwner(config, db, "svc-import");
    const orgId = await ensureOrg(db, values.org);
    const input = file ? createReadStream(file) : process.stdin;
    const size = file ? statSync(file).size : undefined;
    const lines = readLines(input);
    const result = await importStream(db, systemActor(orgId, newId("req")), lines, (rows) =>
      file
        ? progress.update((input as ReturnType<typeof createReadStream>).bytesRead, size)
        : progress.update(rows),
    );
    progress.stop();
    console.log(JSON.stringify({ org_id: orgId, ...result }));
  } catch (error) {
    progress.stop();
    if (error instanceof AppError) throw new Error(error.detail);
    throw error;
  } finally {
    await db.close();
  }
}
