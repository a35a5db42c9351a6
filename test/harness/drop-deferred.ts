// `bun test/harness/drop-deferred.ts <file>`: drops the databases a run listed in <file> (one name
// a line; test/harness/databases.ts), after its last test file. scripts/test.sh runs it on exit.
import { readFileSync } from "node:fs";
import { dropDatabaseNow } from "./databases";

const file = process.argv[2];
if (!file) throw new Error("usage: drop-deferred.ts <file of database names>");
const names = [...new Set(readFileSync(file, "utf8").split("\n").filter(Boolean))];
// A few at a time: their forced checkpoints find little to write and run together.
const PARALLEL = 4;
for (let i = 0; i < names.length; i += PARALLEL)
  await Promise.all(names.slice(i, i + PARALLEL).map((name) => dropDatabaseNow(name)));
console.error(`[test] dropped the run's ${names.length} databases`);
