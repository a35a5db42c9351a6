// Job rows have one owner (issue 26 item 3): only src/domain/jobs/ reaches their life-cycle SQL
// (claim, heartbeat and progress, settle, requeue), and that SQL is written once.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const SRC = path.resolve(import.meta.dir, "../../src");
const OWNER = "domain/jobs/";
const LIFECYCLE_SQL = "data/queries/jobs/jobs.ts";

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith(".ts") ? [full] : [];
  });
}

const files = sourceFiles().map((file) => ({
  name: path.relative(SRC, file).split(path.sep).join("/"),
  text: readFileSync(file, "utf8"),
}));

test("only src/domain/jobs/ imports the job rows' life-cycle queries", () => {
  const importers = files
    .filter((f) => /from\s+["'][./]*data\/queries\/jobs\/jobs["']/.test(f.text))
    .map((f) => f.name)
    .filter((name) => !name.startsWith(OWNER));
  expect(importers).toEqual([]);
});

test("claiming, heartbeating and saving a job row's progress are written once", () => {
  // The columns only a running delivery writes; the upload states (awaiting_upload) are ingest's
  // own.
  const statements = files.flatMap((f) =>
    [...f.text.matchAll(/UPDATE jobs SET[^`]*/g)].map((m) => ({ file: f.name, sql: m[0] })),
  );
  const elsewhere = statements
    .filter((s) => s.file !== LIFECYCLE_SQL)
    .filter((s) => /\b(heartbeat_at|progress|attempts|started_at)\b/.test(s.sql))
    .map((s) => s.file);
  expect(elsewhere).toEqual([]);
  expect(statements.filter((s) => s.file === LIFECYCLE_SQL).length).toBeGreaterThanOrEqual(5);
});
