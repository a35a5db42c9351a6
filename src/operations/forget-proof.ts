// Forget certificate operations (FORGET_PROOF_ENABLED): the signing key's public half and one
// certificate as issued and signed.
import { t } from "elysia";
import { readCertificate } from "../domain/forget-proof/certificate";
import { publicSigningKeys } from "../domain/forget-proof/signer";
import { type Operation, read } from "./operation";
import { ForgetCertificate, SigningKeys } from "./schemas/forget-proof";

const tags = ["Forget certificates"];
const forgetProof = { gate: "forgetProof" } as const;

export const FORGET_PROOF_OPERATIONS: readonly Operation[] = [
  read("/v1/forget/keys", "audit:read", {
    ...forgetProof,
    handler: {
      input: null,
      output: SigningKeys,
      errors: [],
      docs: { tags, summary: "Public key that signs forget certificates" },
      // The gate is on only with a signer.
      run: ({ deps }) => publicSigningKeys(deps.forgetSigner!),
    },
  }),
  read("/v1/forget/:cert_id", "audit:read", {
    ...forgetProof,
    handler: {
      input: null,
      params: t.Object({ cert_id: t.String({ maxLength: 64 }) }),
      output: ForgetCertificate,
      errors: [404],
      docs: {
        tags,
        summary: "Fetch a forget certificate",
        description:
          "Verify offline with `svc forget verify <file> --public-key <hex>` or the recipe in docs/forget-certificates.md.",
      },
      run: ({ deps, actor }, _, params) => readCertificate(deps.db, actor, params.cert_id),
    },
  }),
];
