// GET /v1/forget/keys: the public half of the key that signs forget certificates.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { SigningKeys } from "../../../operations/schemas/forget-proof";

export const forgetKeysRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/forget/keys",
    async ({ request }) => {
      actorOf(request);
      const signer = deps.forgetSigner!;
      return {
        keys: [
          {
            key_id: await signer.keyId(),
            algorithm: "ed25519" as const,
            public_key: await signer.publicKeyHex(),
          },
        ],
      };
    },
    {
      response: { 200: SigningKeys, ...authedErrors() },
      detail: {
        tags: ["Forget certificates"],
        summary: "Public key that signs forget certificates",
      },
    },
  );
