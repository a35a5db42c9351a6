// PostgreSQL connections: the primary pool, an optional read pool. The only file that imports the
// driver.
import postgres from "postgres";

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;
export type PostgresError = postgres.PostgresError;

export type Database = {
  readonly primary: Sql;
  /** Same as primary unless DATABASE_READ_URL is set. */
  readonly read: Sql;
  readonly kind: "postgres" | "embedded";
  /** Connections the primary pool opens at most (one in embedded mode). */
  readonly connections: number;
  /** Transactions open right now through withTenant/withKeyLookup/withSystem (for /metrics). */
  readonly stats: { inFlight: number };
  /**
   * Calls `onMessage` with each NOTIFY payload on `channel`, and `onListen` each time the LISTEN is
   * (re)established: notifications sent while it was down are lost, so listeners resynchronise
   * there.
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onListen: () => void,
  ): Promise<void>;
  close(): Promise<void>;
};

export type PoolOptions = {
  max: number;
  statementTimeoutMs: number;
  applicationName: string;
};

/**
 * Reconnect delay in seconds. The driver's default grows to 20 s and its retry count is shared by
 * the pool, so after a burst of killed connections every request would wait that long; cap it at 2
 * s.
 */
export const reconnectBackoff = (retries: number) =>
  Math.min(0.05 * 2 ** retries, 2) * (0.5 + Math.random() / 2);

export function connect(
  url: string | { path: string },
  options: PoolOptions,
  onnotify?: (channel: string, payload: string) => void,
): Sql {
  const common = {
    ...(onnotify ? { onnotify } : {}),
    max: options.max,
    idle_timeout: 30,
    connect_timeout: 5,
    backoff: reconnectBackoff,
    onnotice: () => {},
    connection: {
      application_name: options.applicationName,
      statement_timeout: options.statementTimeoutMs,
    },
  };
  return typeof url === "string"
    ? postgres(url, common)
    : postgres({ ...common, path: url.path, host: undefined });
}

export function openPostgres(
  url: string,
  readUrl: string | undefined,
  options: PoolOptions,
): Database {
  const primary = connect(url, options);
  const read = readUrl
    ? connect(readUrl, { ...options, applicationName: `${options.applicationName}-read` })
    : primary;
  return {
    primary,
    read,
    kind: "postgres",
    connections: options.max,
    stats: { inFlight: 0 },
    // postgres.js LISTENs on a dedicated connection and re-LISTENs (calling onListen) after it is
    // lost.
    listen: async (channel, onMessage, onListen) =>
      void (await primary.listen(channel, onMessage, onListen)),
    async close() {
      await primary.end({ timeout: 5 });
      if (read !== primary) await read.end({ timeout: 5 });
    },
  };
}
