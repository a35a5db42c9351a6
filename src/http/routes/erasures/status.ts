// GET /v1/erasures/{erasure_id}: poll an erasure: state, counts per row class, the certificate id.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { getErasureStatus } from "../../../domain/erasure/status";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { ErasureParams, ErasureStatus } from "../../../operations/schemas/erasures";

const DESCRIPTION =
  "States: queued → running → succeeded | failed. counts grow with each committed " +
  "step; cert_id names the forget certificate (version 3) once it succeeded.";

export const erasureStatusRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/erasures/:erasure_id",
    ({ request, params }) => getErasureStatus(deps.db, actorOf(request), params.erasure_id),
    {
      params: ErasureParams,
      response: { 200: ErasureStatus, ...authedErrors(404) },
      detail: { tags: ["Erasure"], summary: "Poll an erasure", description: DESCRIPTION },
    },
  );
