// Offline verification of a forget certificate document with nothing but the service's public key:
// the document's fields must be exactly the signed payload's, the payload canonical, the Merkle
// root recomputable from the items (and, version 2, the derived graph rows), and the ed25519
// signature valid.
import * as ed from "@noble/ed25519";
import { hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { canonicalJson } from "../audit/canonical";
import { rootOf, type DerivedRow, type ForgottenVersion } from "./certificate";

export type CertificateVerdict = { ok: true; cert_id: string } | { ok: false; reason: string };

const PAYLOAD_KEYS_V1 = [
  "cert_id",
  "issued_at",
  "items",
  "key_id",
  "merkle_algorithm",
  "merkle_root",
  "org_id",
  "public_key",
  "reason",
  "signature_algorithm",
  "tree_size",
  "version",
];
const PAYLOAD_KEYS_V2 = [...PAYLOAD_KEYS_V1, "derived"].sort();
const PAYLOAD_KEYS_V3 = [...PAYLOAD_KEYS_V2, "row_counts"].sort();
const KEYS_OF_VERSION: Record<number, string[]> = {
  1: PAYLOAD_KEYS_V1,
  2: PAYLOAD_KEYS_V2,
  3: PAYLOAD_KEYS_V3,
};
/** Version 3: row class → a count of rows, signed beside the tree. */
const isRowCounts = (c: unknown): boolean =>
  typeof c === "object" &&
  c !== null &&
  !Array.isArray(c) &&
  Object.values(c).every((n) => Number.isSafeInteger(n) && (n as number) >= 0);
const HEX64 = /^[0-9a-f]{64}$/;
const isDerived = (d: unknown): d is DerivedRow => {
  const o = d as Record<string, unknown>;
  return (
    typeof o === "object" &&
    o !== null &&
    Object.keys(o).sort().join() === "digest,id,kind" &&
    (o.kind === "edge" || o.kind === "memo") &&
    typeof o.id === "string" &&
    typeof o.digest === "string" &&
    HEX64.test(o.digest)
  );
};
const isItem = (i: unknown): i is ForgottenVersion => {
  const o = i as Record<string, unknown>;
  return (
    typeof o === "object" &&
    o !== null &&
    Object.keys(o).sort().join() === "content_hash,memory_id,version" &&
    typeof o.memory_id === "string" &&
    Number.isInteger(o.version) &&
    typeof o.content_hash === "string" &&
    HEX64.test(o.content_hash)
  );
};

export async function verifyCertificate(
  documentText: string,
  trustedPublicKeyHex: string,
): Promise<CertificateVerdict> {
  const fail = (reason: string): CertificateVerdict => ({ ok: false, reason });
  let doc: Record<string, unknown>;
  let payload: Record<string, unknown>;
  try {
    doc = JSON.parse(documentText);
    if (typeof doc !== "object" || doc === null || Array.isArray(doc))
      return fail("the document is not a JSON object");
    if (typeof doc.payload !== "string") return fail("payload is missing");
    payload = JSON.parse(doc.payload);
  } catch {
    return fail("not valid JSON");
  }
  const keys =
    payload !== null && typeof payload === "object"
      ? KEYS_OF_VERSION[payload.version as number]
      : undefined;
  if (keys === undefined) return fail("unsupported version");
  if (Object.keys(doc).sort().join() !== [...keys, "payload", "signature"].sort().join())
    return fail("unexpected or missing fields");
  if (Object.keys(payload).sort().join() !== keys.join())
    return fail("unexpected or missing payload fields");
  if (canonicalJson(payload) !== doc.payload) return fail("payload is not in canonical form");
  for (const key of keys)
    if (canonicalJson(doc[key]) !== canonicalJson(payload[key]))
      return fail(`field ${key} differs from the signed payload`);
  if (payload.signature_algorithm !== "ed25519" || payload.merkle_algorithm !== "rfc9162-sha256")
    return fail("unsupported algorithm");
  if (payload.public_key !== trustedPublicKeyHex) return fail("signed by a different key");
  const items = payload.items;
  if (!Array.isArray(items) || items.length === 0 || !items.every(isItem))
    return fail("items are malformed");
  const derived = payload.version === 1 ? [] : payload.derived;
  if (payload.version === 3 && !isRowCounts(payload.row_counts))
    return fail("row_counts are malformed");
  if (!Array.isArray(derived) || !derived.every(isDerived))
    return fail("derived rows are malformed");
  if (payload.tree_size !== items.length + derived.length)
    return fail("tree_size does not match the items");
  if (rootOf(items, derived) !== payload.merkle_root)
    return fail("merkle_root does not match the items");
  if (typeof doc.signature !== "string" || !/^[0-9a-f]{128}$/.test(doc.signature))
    return fail("signature is not 64 bytes of lowercase hex");
  const valid = await ed
    .verifyAsync(
      hexToBytes(doc.signature),
      utf8ToBytes(doc.payload as string),
      hexToBytes(trustedPublicKeyHex),
    )
    .catch(() => false);
  return valid
    ? { ok: true, cert_id: String(payload.cert_id) }
    : fail("the signature does not verify");
}
