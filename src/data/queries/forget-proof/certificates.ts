// forget_certificates rows: the signed payload text and its signature, stored as issued.
import type { Tx } from "../../pools";

export type CertificateRow = { cert_id: string; payload: string; signature: string };

export async function insertCertificate(
  tx: Tx,
  row: { org_id: string; cert_id: string; issued_at: Date; payload: string; signature: string },
): Promise<void> {
  await tx`INSERT INTO forget_certificates ${tx(row)}`;
}

export async function findCertificate(tx: Tx, certId: string): Promise<CertificateRow | null> {
  const rows = await tx<
    CertificateRow[]
  >`SELECT cert_id, payload, signature FROM forget_certificates WHERE cert_id = ${certId}`;
  return rows[0] ?? null;
}
