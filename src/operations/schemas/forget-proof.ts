// Forget certificate and signing-key schemas.
import { t } from "elysia";

export const ForgetCertificate = t.Object({
  version: t.Union([t.Literal(1), t.Literal(2), t.Literal(3)], {
    description:
      "2 since the graph cascade (derived rows listed); 1 for older certificates; 3 for a subject erasure (row_counts)",
  }),
  cert_id: t.String(),
  org_id: t.String(),
  issued_at: t.String({ description: "ISO 8601 UTC, millisecond precision" }),
  reason: t.String(),
  items: t.Array(
    t.Object({
      memory_id: t.String(),
      version: t.Integer(),
      content_hash: t.String({ description: "hex SHA-256 of the forgotten version's content" }),
    }),
  ),
  derived: t.Optional(
    t.Array(
      t.Object({
        kind: t.Union([t.Literal("edge"), t.Literal("memo")]),
        id: t.String(),
        digest: t.String({
          description: "hex SHA-256 of the edge's fact or the memo's name (UTF-8)",
        }),
      }),
      {
        description:
          "Version 2: the graph rows (edges, memos) the forget retired because only the forgotten memories grounded them; sorted by kind, then id",
      },
    ),
  ),
  row_counts: t.Optional(
    t.Record(t.String(), t.Integer({ minimum: 0 }), {
      description:
        "Version 3 (POST /v1/erasures): row class → rows the erasure touched; signed, not in the Merkle tree",
    }),
  ),
  tree_size: t.Integer({ description: "items + derived rows" }),
  merkle_root: t.String({
    description:
      "hex RFC 9162 Merkle tree hash over the items' content hashes, then the derived rows' digests, in order",
  }),
  merkle_algorithm: t.Literal("rfc9162-sha256"),
  signature_algorithm: t.Literal("ed25519"),
  key_id: t.String(),
  public_key: t.String({
    description:
      "hex ed25519 public key (compare with GET /v1/forget/keys, never trust it blindly)",
  }),
  payload: t.String({ description: "The exact signed bytes: canonical JSON of every field above" }),
  signature: t.String({ description: "hex ed25519 signature over the UTF-8 bytes of payload" }),
});

export const SigningKeys = t.Object({
  keys: t.Array(
    t.Object({
      key_id: t.String(),
      algorithm: t.Literal("ed25519"),
      public_key: t.String({ description: "hex, 32 bytes" }),
    }),
  ),
});
