// GET /v1/sessions/{session_id}: the session and its state.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { getSession } from "../../../domain/sessions/sessions";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { Session, SessionParams } from "../../../operations/schemas/sessions";

export const getSessionRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/sessions/:session_id",
    ({ request, params }) => getSession(deps.db, actorOf(request), params.session_id),
    {
      params: SessionParams,
      response: { 200: Session, ...authedErrors(404) },
      detail: { tags: ["Sessions"], summary: "Read a session" },
    },
  );
