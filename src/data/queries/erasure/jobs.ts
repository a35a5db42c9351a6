// Erasure job rows: the request's subject value replaced by its digest once the erasure is done
// (the row must not keep the identifier it erased).
import type { Tx } from "../../pools";

export async function replaceErasurePayload(tx: Tx, jobId: string, payload: object): Promise<void> {
  await tx`UPDATE jobs SET payload = ${tx.json(payload as never)}
    WHERE job_id = ${jobId} AND kind = 'erasure'`;
}
