// The export as a byte stream for HTTP: audited first (operation `export`), then produced inside
// the snapshot transaction at the pace the client reads (backpressure), and abandoned, rolling the
// read transaction back and releasing its connection, when the client goes away, reads nothing for
// EXPORT_STALL_SECONDS, or is still reading after EXPORT_MAX_SECONDS. A failure or abandon
// mid-stream ends the body without its end record, which any importer refuses as truncated. One
// export per tenant at a time: a second is refused with a 409 before anything is sent.
import type { Database } from "../../data/pools";
import { heavyStream } from "../../data/tenant-share";
import type { Logger } from "../../observability/log";
import type { Actor } from "../actor";
import { exportInProgress } from "../../lib/errors";
import { exportTenant } from "./export";
import { recordExport } from "./record";

export type ExportLimits = { stallSeconds: number; maxSeconds: number };

/** Ends the export early: the client went away, stalled, or overran the deadline. */
class ExportAbandoned extends Error {}

/**
 * A chunk queued for the client (bytes); past this much unread, the export waits for the client.
 */
const BUFFERED_BYTES = 1 << 20;

/**
 * Orgs with an export running in this process. The advisory lock in exportTenant covers other
 * processes; this answers at once where the lock cannot be reached (embedded mode's one connection
 * is held by the running export's snapshot).
 */
const running = new Set<string>();

export async function exportAsStream(
  db: Database,
  log: Logger,
  actor: Actor,
  source: string,
  limits: ExportLimits,
): Promise<ReadableStream<Uint8Array>> {
  if (running.has(actor.orgId)) throw exportInProgress(60);
  running.add(actor.orgId);
  try {
    await recordExport(db, actor, source);
  } catch (error) {
    running.delete(actor.orgId);
    throw error;
  }
  const encoder = new TextEncoder();
  const deadline = Date.now() + limits.maxSeconds * 1000;
  let wake: (() => void) | null = null;
  let gone = false;
  let started: () => void = () => {};
  let refused: (error: unknown) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    started = resolve;
    refused = reject;
  });

  /** Waits until the client has read enough; false when it read nothing in time. */
  const clientReads = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const emit = async (chunk: string) => {
          if (gone) throw new ExportAbandoned("the client went away");
          controller.enqueue(encoder.encode(chunk));
          while ((controller.desiredSize ?? 1) <= 0 && !gone) {
            const left = deadline - Date.now();
            const wait = Math.min(limits.stallSeconds * 1000, left);
            if (wait <= 0 || !(await clientReads(wait))) {
              const why =
                left <= limits.stallSeconds * 1000
                  ? `still reading after EXPORT_MAX_SECONDS (${limits.maxSeconds} s)`
                  : `read nothing for EXPORT_STALL_SECONDS (${limits.stallSeconds} s)`;
              throw new ExportAbandoned(`the client ${why}`);
            }
          }
        };
        heavyStream(actor.orgId, () =>
          exportTenant(db, actor.orgId, source, emit, { started: () => started() }),
        )
          .then(
            () => controller.close(),
            (error) => {
              refused(error);
              if (error instanceof ExportAbandoned) {
                log.warn({
                  msg: "export abandoned",
                  org_id: actor.orgId,
                  request_id: actor.requestId,
                  reason: error.message,
                });
                if (!gone) controller.error(error);
                return;
              }
              log.error({
                msg: "export failed mid-stream",
                org_id: actor.orgId,
                request_id: actor.requestId,
                err: error,
              });
              controller.error(error);
            },
          )
          .finally(() => running.delete(actor.orgId));
      },
      pull() {
        wake?.();
        wake = null;
      },
      cancel() {
        gone = true;
        wake?.();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: BUFFERED_BYTES }),
  );
  await ready; // a refusal (another process's export holds the lock) is the response, not a cut stream
  return stream;
}
