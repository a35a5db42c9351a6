// POST /v1/conversations/{conversation_id}/turns: append a turn; returns turn_index and
// needs_summary.
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { appendTurn } from "../../../domain/conversations/turns";
import { checkMetadata } from "../../../domain/metadata";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import {
  AppendedTurn,
  AppendTurn,
  ConversationParams,
} from "../../../operations/schemas/conversations";

export const appendTurnRoute = (deps: Deps) =>
  new Elysia().post(
    "/v1/conversations/:conversation_id/turns",
    async ({ request, params, body, set }) => {
      const actor = actorOf(request);
      const metadata = checkMetadata(deps.config, body.metadata);
      const turn = await appendTurn(deps, actor, params.conversation_id, {
        role: body.role,
        content: body.content,
        metadata,
        occurred_at: body.occurred_at,
      });
      set.status = 201;
      return turn;
    },
    {
      parse: "json",
      params: ConversationParams,
      body: AppendTurn(deps.config),
      response: { 201: AppendedTurn, ...authedErrors(400, 404, 410, 413, 415) },
      detail: {
        tags: ["Conversations"],
        summary: "Append a turn",
        description:
          "The turn is stored as a memory of type `turn` for the conversation's agent (embedded, recallable, also after the conversation is deleted).",
      },
    },
  );
