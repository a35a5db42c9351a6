// POST /v1/sessions: start a session (state `active`).
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { checkMetadata } from "../../../domain/metadata";
import { startSession } from "../../../domain/sessions/sessions";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { Session, StartSession } from "../../../operations/schemas/sessions";

export const startSessionRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/sessions",
    async ({ request, body, set }) => {
      const actor = actorOf(request);
      const metadata = checkMetadata(deps.config, body.metadata);
      const session = await startSession(deps.db, actor, { agent_id: body.agent_id, metadata });
      set.status = 201;
      return session;
    },
    {
      parse: "json",
      body: StartSession,
      response: { 201: Session, ...authedErrors(400, 413, 415) },
      detail: { tags: ["Sessions"], summary: "Start a session" },
    },
  );
