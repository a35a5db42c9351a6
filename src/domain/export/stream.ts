// The export as a byte stream for HTTP: audited first (operation `export`), then produced inside the
// snapshot transaction at the pace the client reads (backpressure), and abandoned, rolling the read
// transaction back, when the client goes away. A failure mid-stream ends the body without its end
// record, which any importer refuses as truncated.
import type { Database } from "../../data/pools";
import { withTenant } from "../../data/with-tenant";
import type { Logger } from "../../observability/log";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { exportTenant } from "./export";

class ClientGone extends Error {}

export async function exportAsStream(db: Database, log: Logger, actor: Actor, source: string): Promise<ReadableStream<Uint8Array>> {
  await withTenant(db, actor.orgId, (tx) => recordAudit(tx, actor, { operation: "export", detail: { via: source } }));
  const encoder = new TextEncoder();
  let wake: (() => void) | null = null;
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const emit = async (chunk: string) => {
        if (cancelled) throw new ClientGone();
        controller.enqueue(encoder.encode(chunk));
        while ((controller.desiredSize ?? 1) <= 0 && !cancelled) await new Promise<void>((resolve) => { wake = resolve; });
      };
      exportTenant(db, actor.orgId, source, emit).then(() => controller.close(), (error) => {
        if (error instanceof ClientGone) return;
        log.error({ msg: "export failed mid-stream", org_id: actor.orgId, request_id: actor.requestId, err: error });
        controller.error(error);
      });
    },
    pull() {
      wake?.();
      wake = null;
    },
    cancel() {
      cancelled = true;
      wake?.();
    },
  }, { highWaterMark: 8 });
}
