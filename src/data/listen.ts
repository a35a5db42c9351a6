// The audit listener: a dedicated LISTEN connection on svc_audit_pending that drains the orgs it
// hears about after a short debounce, plus a periodic full drain as a fallback. postgres.js
// re-establishes the LISTEN after a lost connection and calls `onlisten` again; each (re)listen
// triggers a full drain because notifications sent while disconnected are gone.
import type { Logger } from "../observability/log";
import { connect } from "./pools";

export const AUDIT_CHANNEL = "svc_audit_pending";

export type AuditListenerOptions = {
  url: string;
  log: Logger;
  debounceMs: number;
  fallbackPollMs: number;
  /** orgIds null = every org with pending rows. Returns how many rows were drained. */
  drain: (orgIds: string[] | null) => Promise<number>;
};

export type AuditListener = { close(): Promise<void>; readonly listens: () => number };

export function startAuditListener(options: AuditListenerOptions): AuditListener {
  const { log, debounceMs, drain } = options;
  const sql = connect(options.url, {
    max: 1,
    statementTimeoutMs: 60_000,
    applicationName: "svc-audit-listener",
  });
  let orgs = new Set<string>();
  let everything = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let closed = false;
  let listens = 0;

  const schedule = () => {
    if (timer !== null || closed) return;
    timer = setTimeout(() => {
      timer = null;
      if (running === null)
        running = runOnce().finally(() => {
          running = null;
          if (everything || orgs.size > 0) schedule();
        });
    }, debounceMs);
  };

  const runOnce = async () => {
    const target = everything ? null : [...orgs];
    orgs = new Set();
    everything = false;
    try {
      const drained = await drain(target);
      if (drained > 0)
        log.debug({ msg: "audit listener drained", drained, orgs: target?.length ?? "all" });
    } catch (error) {
      log.warn({
        msg: "audit listener drain failed; the fallback poll retries",
        err: (error as Error).message,
      });
    }
  };

  const listening = sql.listen(
    AUDIT_CHANNEL,
    (orgId) => {
      orgs.add(orgId);
      schedule();
    },
    () => {
      listens++;
      if (listens > 1) log.info({ msg: "audit listener reconnected", listens });
      everything = true;
      schedule();
    },
  );
  listening.catch((error: Error) =>
    log.warn({
      msg: "audit listener could not LISTEN; relying on the fallback poll",
      err: error.message,
    }),
  );

  const poll = setInterval(() => {
    everything = true;
    schedule();
  }, options.fallbackPollMs);

  return {
    listens: () => listens,
    async close() {
      closed = true;
      clearInterval(poll);
      if (timer !== null) clearTimeout(timer);
      await running;
      await sql.end({ timeout: 5 });
    },
  };
}
