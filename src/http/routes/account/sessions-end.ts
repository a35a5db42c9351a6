// POST /v1/sessions/{session_id}/end: active → ended; ending an ended session is a 409.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { endSession } from "../../../domain/sessions/sessions";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { Session, SessionParams } from "../../../operations/schemas/sessions";

export const endSessionRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/sessions/:session_id/end",
    ({ request, params }) => endSession(deps.db, actorOf(request), params.session_id),
    {
      params: SessionParams,
      response: { 200: Session, ...authedErrors(404, 409) },
      detail: { tags: ["Sessions"], summary: "End a session" },
    },
  );
