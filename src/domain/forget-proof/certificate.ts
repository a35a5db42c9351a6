// Forget certificates: the signed payload (canonical JSON, see docs/forget-certificates.md),
// issuing one inside the forget's own transaction, and reading one back as the document clients
// verify.
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { findCertificate, insertCertificate } from "../../data/queries/forget-proof/certificates";
import type { Database, Tx } from "../../data/pools";
import { withTenantRead } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { canonicalJson } from "../audit/canonical";
import { recordAudit } from "../audit/record";
import { notFound } from "../../lib/errors";
import { sha256Hex } from "../../lib/hash";
import { looksLikeId, newId } from "../../lib/ids";
import { merkleRoot } from "./merkle";
import type { ForgetSigner } from "./signer";
import type { GraphRetirement } from "../graph/cascade";

export type ForgottenVersion = { memory_id: string; version: number; content_hash: string };

/**
 * A graph row the forget retired: digest = hex SHA-256 of the edge's fact or the memo's name
 * (UTF-8).
 */
export type DerivedRow = { kind: "edge" | "memo"; id: string; digest: string };

export type CertificatePayload = {
  /**
   * 1: items only (still verifiable); 2: items and the derived graph rows the forget retired;
   * 3 (subject erasure): version 2 plus row_counts, the rows of each class the erasure touched.
   */
  version: 1 | 2 | 3;
  cert_id: string;
  org_id: string;
  issued_at: string;
  reason: string;
  items: ForgottenVersion[];
  /** Versions 2 and 3. */
  derived?: DerivedRow[];
  /** Version 3 only: row class → rows touched (signed, outside the Merkle tree). */
  row_counts?: Record<string, number>;
  tree_size: number;
  merkle_root: string;
  merkle_algorithm: "rfc9162-sha256";
  signature_algorithm: "ed25519";
  key_id: string;
  public_key: string;
};

export type CertificateDocument = CertificatePayload & { payload: string; signature: string };

/**
 * Leaves are raw 32-byte hashes: the items' content hashes in item order (items sorted by
 * memory_id), then (version 2) the derived rows' digests in their order (sorted by kind, then id).
 */
export const rootOf = (items: ForgottenVersion[], derived: DerivedRow[] = []) =>
  bytesToHex(
    merkleRoot(
      [...items.map((i) => i.content_hash), ...derived.map((d) => d.digest)].map((h) =>
        hexToBytes(h),
      ),
    ),
  );

export function derivedRowsOf(retired: GraphRetirement): DerivedRow[] {
  const rows: DerivedRow[] = [
    ...retired.edges.map((e) => ({
      kind: "edge" as const,
      id: e.edge_id,
      digest: sha256Hex(e.fact),
    })),
    ...retired.memos.map((m) => ({
      kind: "memo" as const,
      id: m.memo_id,
      digest: sha256Hex(m.name),
    })),
  ];
  const unique = [...new Map(rows.map((r) => [`${r.kind}/${r.id}`, r])).values()];
  return unique.sort((a, b) =>
    a.kind !== b.kind ? (a.kind < b.kind ? -1 : 1) : a.id < b.id ? -1 : 1,
  );
}

export async function issueForgetCertificate(
  tx: Tx,
  actor: Actor,
  forgotten: ForgottenVersion[],
  retired: GraphRetirement,
  deps: { forgetSigner: ForgetSigner },
  reason = "api",
): Promise<string | null> {
  if (forgotten.length === 0) return null;
  return sealCertificate(
    tx,
    actor,
    { reason, items: forgotten, derived: derivedRowsOf(retired) },
    deps,
  );
}

export type CertificateContents = {
  reason: string;
  items: ForgottenVersion[];
  derived: DerivedRow[];
  /** Present for a subject erasure: the certificate is then version 3. */
  rowCounts?: Record<string, number>;
};

/** Signs, stores and audits one certificate over the contents; returns its id. */
export async function sealCertificate(
  tx: Tx,
  actor: Actor,
  contents: CertificateContents,
  deps: { forgetSigner: ForgetSigner },
): Promise<string> {
  const issuedAt = new Date();
  const items = [...contents.items]
    .sort((a, b) =>
      a.memory_id < b.memory_id ? -1 : a.memory_id > b.memory_id ? 1 : a.version - b.version,
    )
    .map((f) => ({ memory_id: f.memory_id, version: f.version, content_hash: f.content_hash }));
  const derived = contents.derived;
  const payload: CertificatePayload = {
    version: contents.rowCounts ? 3 : 2,
    cert_id: newId("cert", issuedAt.getTime()),
    org_id: actor.orgId,
    issued_at: issuedAt.toISOString(),
    reason: contents.reason,
    items,
    derived,
    ...(contents.rowCounts ? { row_counts: contents.rowCounts } : {}),
    tree_size: items.length + derived.length,
    merkle_root: rootOf(items, derived),
    merkle_algorithm: "rfc9162-sha256",
    signature_algorithm: "ed25519",
    key_id: await deps.forgetSigner.keyId(),
    public_key: await deps.forgetSigner.publicKeyHex(),
  };
  const text = canonicalJson(payload);
  const signature = await deps.forgetSigner.sign(utf8ToBytes(text));
  await insertCertificate(tx, {
    org_id: actor.orgId,
    cert_id: payload.cert_id,
    issued_at: issuedAt,
    payload: text,
    signature,
  });
  // Chains the certificate into the audit log, so a certificate cannot later be dropped or swapped
  // unnoticed.
  await recordAudit(tx, actor, {
    operation: "forget.certificate",
    targetIds: [payload.cert_id, ...new Set(items.map((i) => i.memory_id))],
    detail: {
      merkle_root: payload.merkle_root,
      tree_size: payload.tree_size,
      derived_rows: derived.length,
      key_id: payload.key_id,
      payload_sha256: sha256Hex(text),
    },
  });
  return payload.cert_id;
}

export async function readCertificate(
  db: Database,
  actor: Actor,
  certId: string,
): Promise<CertificateDocument> {
  const row = looksLikeId("cert", certId)
    ? await withTenantRead(db, actor.orgId, (tx) => findCertificate(tx, certId))
    : null;
  if (!row) throw notFound("Forget certificate");
  return {
    ...(JSON.parse(row.payload) as CertificatePayload),
    payload: row.payload,
    signature: row.signature,
  };
}
