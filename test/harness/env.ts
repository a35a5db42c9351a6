// Where the test suite finds its services; scripts/setup-services.sh provides both on loopback,
// plus the two database logins: the owner (TEST_ADMIN_DATABASE_URL's user, which creates, migrates
// and inspects the run's database) and the serving login the service runs as (member of svc_app
// only, owns nothing).
export const TEST_ADMIN_DATABASE_URL =
  process.env.TEST_ADMIN_DATABASE_URL ?? "postgres://svc:svc@127.0.0.1:5432/svc";
export const TEST_VALKEY_URL = process.env.TEST_VALKEY_URL ?? "redis://127.0.0.1:6379";
export const TEST_SERVING_LOGIN = process.env.TEST_SERVING_LOGIN ?? "svc_serving";
/**
 * One queue namespace per test process (per file under --parallel), so concurrent files and runs on
 * the shared Valkey never take each other's jobs; test/harness/valkey-cleanup.ts deletes it
 * afterwards.
 */
export const TEST_QUEUE_PREFIX = `svct${process.pid}x${Date.now().toString(36)}`;
const TEST_SERVING_PASSWORD = process.env.TEST_SERVING_PASSWORD ?? "svc_serving";

/**
 * Set by the preload: the database created for this run, as its owner (for fixtures and
 * inspection).
 */
export function testDatabaseUrl(): string {
  const url = process.env.SVC_TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      "SVC_TEST_DATABASE_URL is unset: run tests with `bun test` so test/harness/preload.ts runs",
    );
  return url;
}

/** The same database as the serving login: what the service's DATABASE_URL is in every test. */
export function testServingDatabaseUrl(): string {
  return asServingLogin(testDatabaseUrl());
}

/** A database URL with the owner's credentials swapped for the serving login's. */
export function asServingLogin(ownerUrl: string): string {
  const url = new URL(ownerUrl);
  url.username = TEST_SERVING_LOGIN;
  url.password = TEST_SERVING_PASSWORD;
  return url.toString();
}

/**
 * DATABASE_URL (serving login) and DATABASE_MIGRATION_URL (owner) of the run's database, as the
 * service reads them.
 */
export function testDatabaseEnv(): { DATABASE_URL: string; DATABASE_MIGRATION_URL: string } {
  return { DATABASE_URL: testServingDatabaseUrl(), DATABASE_MIGRATION_URL: testDatabaseUrl() };
}

export function databaseUrlFor(name: string): string {
  const url = new URL(TEST_ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
