// The one place a subject erasure finishes (docs/erasure.md): in one transaction, the last sweeps
// over rows kept per agent or subject, the certificate over every emptied version, the job's
// result, the audit row and the subject.erased webhook event.
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Ports } from "../ports/ports";
import type { Tx } from "../../data/pools";
import {
  emptyConversations,
  emptyIngestJobs,
  ingestJobsOfAgent,
} from "../../data/queries/erasure/derived";
import { replaceErasurePayload } from "../../data/queries/erasure/jobs";
import {
  deleteEmptyTermStats,
  versionsErasedBy,
  type Subject,
} from "../../data/queries/erasure/memories";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { sealCertificate } from "../forget-proof/certificate";
import { sha256Hex } from "../../lib/hash";
import { settleJobSilently } from "../jobs/settle";
import { recordEvent } from "../webhooks/record-event";
import { addCounts, type ErasurePayload, type ErasureProgress } from "./progress";

export type ErasureResult = { counts: Record<string, number>; cert_id: string | null };

export async function finishErasure(
  tx: Tx,
  deps: Pick<Ports, "forgetSigner">,
  actor: Actor,
  jobId: string,
  payload: ErasurePayload,
  subject: Subject,
  progress: ErasureProgress,
): Promise<ErasureResult> {
  const agentId = payload.agent_id;
  const ingestJobs =
    subject === null ? await emptyIngestJobs(tx, await ingestJobsOfAgent(tx, agentId)) : 0;
  const counts = addCounts(progress.counts, {
    ...(await emptyConversations(tx, agentId, subject)),
    memory_term_stats: await deleteEmptyTermStats(tx, agentId),
    ingest_jobs: ingestJobs,
  });
  const items = (await versionsErasedBy(tx, jobId)).map((v) => ({
    memory_id: v.memory_id,
    version: v.version,
    content_hash: bytesToHex(v.content_hash),
  }));
  const certId =
    deps.forgetSigner && items.length > 0
      ? await sealCertificate(
          tx,
          actor,
          { reason: "erasure", items, derived: sortedDerived(progress), rowCounts: counts },
          { forgetSigner: deps.forgetSigner },
        )
      : null;
  const result: ErasureResult = { counts, cert_id: certId };
  await settleJobSilently(tx, jobId, "succeeded", { result });
  // Only the value's digest outlives the erasure: in the job row and in the event alike.
  const digest =
    subject === null ? null : { key: subject.key, value_sha256: sha256Hex(subject.value) };
  if (digest !== null) await replaceErasurePayload(tx, jobId, { ...payload, subject: digest });
  await recordEvent(tx, actor.orgId, "subject.erased", {
    erasure_id: jobId,
    agent_id: agentId,
    subject: digest,
    counts,
    cert_id: certId,
  });
  await recordAudit(tx, actor, {
    operation: "erasure",
    agentId,
    targetIds: certId ? [jobId, certId] : [jobId],
    detail: { phase: "finished", counts, cert_id: certId },
  });
  return result;
}

/** The certificate's order for derived rows: by kind, then id, each row once. */
function sortedDerived(progress: ErasureProgress) {
  const unique = [...new Map(progress.derived.map((r) => [`${r.kind}/${r.id}`, r])).values()];
  const key = (r: { kind: string; id: string }) => `${r.kind}/${r.id}`;
  return unique.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
