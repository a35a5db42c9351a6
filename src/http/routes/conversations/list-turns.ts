// GET /v1/conversations/{conversation_id}/turns?after_turn=&limit=: turns in order, bounded pages.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { readTurns } from "../../../domain/conversations/turns";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import {
  ConversationParams,
  TurnPage,
  TurnsQuery,
} from "../../../operations/schemas/conversations";

export const listTurnsRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/conversations/:conversation_id/turns",
    ({ request, params, query }) =>
      readTurns(
        deps,
        actorOf(request),
        params.conversation_id,
        query.after_turn ?? -1,
        query.limit ?? 50,
      ),
    {
      params: ConversationParams,
      query: TurnsQuery,
      response: { 200: TurnPage, ...authedErrors(404) },
      detail: { tags: ["Conversations"], summary: "List turns" },
    },
  );
