// GET /v1/forget/{cert_id}: a forget certificate of the caller's tenant, as issued and signed.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { readCertificate } from "../../../domain/forget-proof/certificate";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { ForgetCertificate } from "../../../operations/schemas/forget-proof";

export const forgetCertificateRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/forget/:cert_id",
    ({ request, params }) => readCertificate(deps.db, actorOf(request), params.cert_id),
    {
      params: t.Object({ cert_id: t.String({ maxLength: 64 }) }),
      response: { 200: ForgetCertificate, ...authedErrors(404) },
      detail: {
        tags: ["Forget certificates"],
        summary: "Fetch a forget certificate",
        description:
          "Verify offline with `svc forget verify <file> --public-key <hex>` or the recipe in docs/forget-certificates.md.",
      },
    },
  );
