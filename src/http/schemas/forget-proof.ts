// Forget certificate and signing-key schemas.
import { t } from "elysia";

export const ForgetCertificate = t.Object({
  version: t.Literal(1),
  cert_id: t.String(),
  org_id: t.String(),
  issued_at: t.String({ description: "ISO 8601 UTC, millisecond precision" }),
  reason: t.String(),
  items: t.Array(t.Object({ memory_id: t.String(), version: t.Integer(), content_hash: t.String({ description: "hex SHA-256 of the forgotten version's content" }) })),
  tree_size: t.Integer(),
  merkle_root: t.String({ description: "hex RFC 9162 Merkle tree hash over the items' content hashes, in item order" }),
  merkle_algorithm: t.Literal("rfc9162-sha256"),
  signature_algorithm: t.Literal("ed25519"),
  key_id: t.String(),
  public_key: t.String({ description: "hex ed25519 public key (compare with GET /v1/forget/keys, never trust it blindly)" }),
  payload: t.String({ description: "The exact signed bytes: canonical JSON of every field above" }),
  signature: t.String({ description: "hex ed25519 signature over the UTF-8 bytes of payload" }),
});

export const SigningKeys = t.Object({
  keys: t.Array(t.Object({ key_id: t.String(), algorithm: t.Literal("ed25519"), public_key: t.String({ description: "hex, 32 bytes" }) })),
});
