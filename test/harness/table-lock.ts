// Holds an ACCESS EXCLUSIVE lock on one table from a separate owner connection until released: a
// statement that reads the table then waits, which is how tests make one retriever outlast its
// timeout (or block a stream) without a clock of their own.
import type postgres from "postgres";

export function lockTable(owner: postgres.Sql, table: string) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const done = owner.begin(async (tx) => {
    await tx`LOCK TABLE ${tx(table)} IN ACCESS EXCLUSIVE MODE`;
    locked();
    await held;
  });
  return {
    isLocked,
    release: async () => {
      release();
      await done;
    },
  };
}
