// Wakes svc.deliver_webhooks right after a transaction that recorded webhook deliveries commits:
// the table's trigger NOTIFYs svc_webhook_deliveries with the org id; the beat's sweep covers the
// notifications that are lost.
import type { Ports } from "../domain/ports/ports";

export const WEBHOOK_CHANNEL = "svc_webhook_deliveries";

export async function listenForWebhookDeliveries(
  deps: Pick<Ports, "db" | "queue" | "log">,
): Promise<void> {
  const wake = (payload: Record<string, string>, jobId: string) => {
    deps.queue.enqueue("svc.deliver_webhooks", payload, { jobId }).catch((error) =>
      deps.log.warn({
        msg: "could not wake svc.deliver_webhooks",
        err: (error as Error).message,
      }),
    );
  };
  await deps.db.listen(
    WEBHOOK_CHANNEL,
    (orgId) => wake({ org_id: orgId }, `webhooks-${orgId}`),
    // (Re)listening: notifications sent while the connection was down are lost, so sweep every org.
    () => wake({}, "webhooks-all"),
  );
}
