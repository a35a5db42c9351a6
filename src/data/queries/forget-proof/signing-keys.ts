// The service's forget-certificate signing seed (sql/0203): one row per key, newest first; read and
// created under one advisory lock so concurrent first boots agree on a single key.
import type { Tx } from "../../pools";

export async function lockSigningKeys(tx: Tx): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(hashtextextended('svc.forget-signing-key', 0))`;
}

export async function newestSigningSeed(tx: Tx): Promise<Uint8Array | null> {
  const rows = await tx<
    { private_seed: Uint8Array }[]
  >`SELECT private_seed FROM service_signing_keys ORDER BY created_at DESC LIMIT 1`;
  return rows[0] ? new Uint8Array(rows[0].private_seed) : null;
}

export async function insertSigningKey(
  tx: Tx,
  key: { keyId: string; publicKey: Uint8Array; seed: Uint8Array },
): Promise<void> {
  await tx`INSERT INTO service_signing_keys (key_id, algorithm, public_key, private_seed) VALUES (${key.keyId}, 'ed25519', ${key.publicKey}, ${key.seed})`;
}
