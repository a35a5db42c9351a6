// Two database logins: the owner migrates (svc migrate; serve only under the migration lock, then
// its pool is closed), the serving login serves. Every process refuses to serve when the serving
// login could bypass row-level security. docs/operations.md, "Database roles".
import type { Config } from "../config/schema";
import { migrate, migrationStatus, type MigrationStatus } from "../data/migrate";
import { openEmbedded } from "../data/embedded";
import { openPostgres, type Database, type Sql } from "../data/pools";
import { ensureVectorIndex } from "../data/queries/memories/vector-index";
import {
  canCreateTables,
  ensureEmbeddedServingLogin,
  grantServingLogin,
  servingLoginName,
} from "../data/queries/serving-login";
import {
  ServingLoginError,
  servingLoginMessage,
  servingLoginProblems,
} from "../data/serving-login";

const separateOwner = (
  config: Config,
): config is Config & { DATABASE_URL: string; DATABASE_MIGRATION_URL: string } =>
  Boolean(config.DATABASE_URL && config.DATABASE_MIGRATION_URL);

async function asOwner<T>(
  config: Config,
  serving: Database,
  applicationName: string,
  work: (owner: Sql) => Promise<T>,
): Promise<T> {
  if (!separateOwner(config)) return work(serving.primary);
  const owner = openPostgres(config.DATABASE_MIGRATION_URL, undefined, {
    max: 1,
    statementTimeoutMs: 0,
    applicationName: `${applicationName}-migrate`,
  });
  try {
    const result = await work(owner.primary);
    await grantServingLogin(owner.primary, await servingLoginName(serving.primary));
    return result;
  } finally {
    await owner.close();
  }
}

/**
 * Applies pending migrations as the owner, grants the serving login what it needs, and drops the
 * owner's pool. Without DATABASE_MIGRATION_URL, a login that cannot create tables (a serving login,
 * the owner having run `svc migrate`) has nothing to do when nothing is pending; anything pending
 * then fails as before.
 */
export async function migrateAsOwner(
  config: Config,
  serving: Database,
  applicationName: string,
): Promise<MigrationStatus> {
  if (
    !separateOwner(config) &&
    serving.kind === "postgres" &&
    !(await canCreateTables(serving.primary))
  ) {
    const status = await migrationStatus(serving.primary);
    if (status.pending.length === 0) return { applied: [], pending: [] };
  }
  return asOwner(config, serving, applicationName, async (owner) => {
    const result = await migrate(owner);
    await ensureVectorIndex(owner, config.EMBEDDING_DIMENSIONS);
    return result;
  });
}

/** The role `svc serve` uses in embedded mode once the superuser session has migrated. */
export const EMBEDDED_SERVING_LOGIN = "svc_serving";

/**
 * Embedded mode: migrate in PGlite's superuser session, make sure the serving login exists with its
 * grants, close, and reopen the data directory as that login.
 */
export async function openEmbeddedServing(
  config: Config,
  applicationName: string,
  progress: (step: string) => void = () => {},
): Promise<{ db: Database; applied: string[] }> {
  const options = { statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS, applicationName };
  progress(`opening the embedded database in ${config.SVC_DATA_DIR}`);
  const owner = await openEmbedded(config.SVC_DATA_DIR, options);
  let applied: string[];
  try {
    progress("applying migrations");
    applied = (await migrate(owner.primary)).applied;
    progress("preparing the vector index");
    await ensureVectorIndex(owner.primary, config.EMBEDDING_DIMENSIONS);
    await ensureEmbeddedServingLogin(owner.primary, EMBEDDED_SERVING_LOGIN);
    await grantServingLogin(owner.primary, EMBEDDED_SERVING_LOGIN);
  } finally {
    await owner.close();
  }
  return {
    db: await openEmbedded(config.SVC_DATA_DIR, { ...options, username: EMBEDDED_SERVING_LOGIN }),
    applied,
  };
}

/**
 * Throws ServingLoginError when the serving login is a superuser, has BYPASSRLS, owns a table, or
 * can SET ROLE to a role that does, in both modes and whether or not DATABASE_MIGRATION_URL is set:
 * a single login that owns the tables it serves is refused too (it could turn row-level security
 * off).
 */
export async function checkServingLogin(db: Database): Promise<void> {
  const { login, problems } = await servingLoginProblems(db.primary);
  if (problems.length > 0) throw new ServingLoginError(servingLoginMessage(login, problems));
}
