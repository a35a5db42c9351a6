// A migrated PGlite data directory that embedded test apps start from, copied instead of running
// initdb and every migration per app (initdb alone takes seconds): built once per set of migrations
// and PGlite version, in the temp directory, and published by an atomic rename so no process copies
// a half-built one.
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openEmbedded } from "../../src/data/embedded";
import { migrate } from "../../src/data/migrate";
import { migrationsHash } from "./migrations-hash";

const PREFIX = "svc-test-pglite-";

function templateDir(): string {
  const versions = ["@electric-sql/pglite", "@electric-sql/pglite-pgvector"].map((name) => {
    const manifest = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
    return `${name}@${JSON.parse(readFileSync(manifest, "utf8")).version}`;
  });
  const month = new Date().toISOString().slice(0, 7); // a migrate creates this month's audit partitions
  return path.join(tmpdir(), `${PREFIX}${migrationsHash(month, ...versions)}`);
}

/**
 * Other templates (earlier migrations or months) not touched for a day: nothing runs on them now.
 */
function dropStale(keep: string): void {
  const dayAgo = Date.now() - 86_400_000;
  for (const name of readdirSync(tmpdir())) {
    const dir = path.join(tmpdir(), name);
    if (!name.startsWith(PREFIX) || dir === keep) continue;
    try {
      if (statSync(dir).mtimeMs < dayAgo) rmSync(dir, { recursive: true, force: true });
    } catch {
      /* removed meanwhile by another process */
    }
  }
}

async function build(target: string): Promise<void> {
  const building = mkdtempSync(`${target}.build-`);
  try {
    const db = await openEmbedded(building, {
      statementTimeoutMs: 60_000,
      applicationName: "template",
    });
    try {
      await migrate(db.primary);
    } finally {
      await db.close();
    }
    renameSync(building, target);
  } catch (error) {
    // Another process published the same template first: use theirs.
    if (!existsSync(target)) throw error;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/**
 * Puts a migrated embedded database into `dataDir` (new and empty), for an app about to open it.
 */
export async function seedEmbeddedDataDir(dataDir: string): Promise<void> {
  const template = templateDir();
  if (!existsSync(template)) {
    dropStale(template);
    await build(template);
  }
  cpSync(path.join(template, "pg"), path.join(dataDir, "pg"), { recursive: true });
}
