// Session operations: start, read and end a session.
import { endSession, getSession, startSession } from "../domain/sessions/sessions";
import { type Operation, read, write } from "./operation";
import { Session, SessionParams, StartSession } from "./schemas/sessions";

const tags = ["Sessions"];

export const SESSION_OPERATIONS: readonly Operation[] = [
  // A session starts `active`.
  write("POST", "/v1/sessions", "memories:write", "session.start", {
    handler: {
      input: { from: "body", schema: () => StartSession },
      status: 201,
      output: Session,
      errors: [400, 413, 415],
      docs: { tags, summary: "Start a session" },
      run: ({ deps, actor }, body) => startSession(deps, actor, body),
    },
  }),
  read("/v1/sessions/:session_id", "memories:read", {
    handler: {
      input: null,
      params: SessionParams,
      output: Session,
      errors: [404],
      docs: { tags, summary: "Read a session" },
      run: ({ deps, actor }, _, params) => getSession(deps.db, actor, params.session_id),
    },
  }),
  // active → ended; ending an ended session is a 409.
  write("POST", "/v1/sessions/:session_id/end", "memories:write", "session.end", {
    handler: {
      input: null,
      params: SessionParams,
      output: Session,
      errors: [404, 409],
      docs: { tags, summary: "End a session" },
      run: ({ deps, actor }, _, params) => endSession(deps.db, actor, params.session_id),
    },
  }),
];
