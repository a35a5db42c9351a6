// The in-process cache of verified API keys, so an authenticated request usually costs no database
// round trip. Correctness rests on three bounds: every key change NOTIFYs svc_api_key_changed
// (sql/0125) and each process forgets that key when it hears it; a (re)established LISTEN empties
// the cache, since notifications sent while it was down are gone; and no entry lives longer than
// API_KEY_CACHE_TTL_MS, which bounds staleness while the listener is disconnected. Until the first
// LISTEN succeeds nothing is cached. A lookup that overlaps a change is not cached (the epoch
// check), so a revocation heard mid-lookup is never undone by a stale read.
import type { Database } from "../../data/pools";
import type { Logger } from "../../observability/log";
import type { KeyIdentity } from "./identity";

export const KEY_CHANGES_CHANNEL = "svc_api_key_changed";
/** Bounds memory: past this many keys the oldest entry is dropped. */
const MAX_ENTRIES = 10_000;

type Entry = { identity: KeyIdentity; expiresAt: number };

export type KeyCache = {
  /**
   * A cached identity for the key hash, or null (absent, expired, or the cache is not following
   * changes).
   */
  get(hashHex: string): KeyIdentity | null;
  /** The current epoch, read before a lookup and passed to `put`. */
  epoch(): number;
  /** Caches a lookup's result, unless anything changed since `epoch` was read. */
  put(hashHex: string, identity: KeyIdentity, epoch: number): void;
  /** Forgets one key (by key_id) at once: the revoking process does not wait for its own NOTIFY. */
  forget(keyId: string): void;
  /** Starts following key changes; until the LISTEN is up the cache stays empty. */
  follow(db: Database, log: Logger): Promise<void>;
};

/**
 * `source`: the database to follow, from the first `get` on, so processes that never authenticate a
 * key (worker, beat, CLI) open no LISTEN connection.
 */
export function createKeyCache(
  ttlMs: number,
  source?: { db: Database; log: Logger },
  clock: () => number = Date.now,
): KeyCache {
  const entries = new Map<string, Entry>();
  const hashOfKey = new Map<string, string>();
  let epoch = 0;
  let following = false;
  let started = false;

  const forget = (keyId: string) => {
    epoch++;
    const hashHex = hashOfKey.get(keyId);
    if (hashHex === undefined) return;
    hashOfKey.delete(keyId);
    entries.delete(hashHex);
  };
  const clear = () => {
    epoch++;
    entries.clear();
    hashOfKey.clear();
  };

  const cache: KeyCache = {
    get(hashHex) {
      if (!started && source) void cache.follow(source.db, source.log);
      if (!following || ttlMs === 0) return null;
      const entry = entries.get(hashHex);
      if (!entry) return null;
      if (entry.expiresAt <= clock()) {
        entries.delete(hashHex);
        hashOfKey.delete(entry.identity.keyId);
        return null;
      }
      return entry.identity;
    },
    epoch: () => epoch,
    put(hashHex, identity, seen) {
      if (!following || ttlMs === 0 || seen !== epoch) return;
      if (entries.size >= MAX_ENTRIES) {
        const oldest = entries.keys().next().value!;
        hashOfKey.delete(entries.get(oldest)!.identity.keyId);
        entries.delete(oldest);
      }
      entries.set(hashHex, { identity, expiresAt: clock() + ttlMs });
      hashOfKey.set(identity.keyId, hashHex);
    },
    forget,
    async follow(db, log) {
      if (started || ttlMs === 0) return;
      started = true;
      try {
        await db.listen(KEY_CHANGES_CHANNEL, forget, () => {
          clear();
          following = true;
        });
      } catch (error) {
        log.warn({
          msg: "cannot LISTEN for API key changes; every request looks its key up",
          err: (error as Error).message,
        });
      }
    },
  };
  return cache;
}
