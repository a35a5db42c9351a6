// Where the test suite finds its services; scripts/setup-services.sh provides both on loopback.
export const TEST_ADMIN_DATABASE_URL = process.env.TEST_ADMIN_DATABASE_URL ?? "postgres://svc:svc@127.0.0.1:5432/svc";
export const TEST_VALKEY_URL = process.env.TEST_VALKEY_URL ?? "redis://127.0.0.1:6379";

/** Set by the preload: the database created for this run. */
export function testDatabaseUrl(): string {
  const url = process.env.SVC_TEST_DATABASE_URL;
  if (!url) throw new Error("SVC_TEST_DATABASE_URL is unset: run tests with `bun test` so test/harness/preload.ts runs");
  return url;
}

export function databaseUrlFor(name: string): string {
  const url = new URL(TEST_ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
