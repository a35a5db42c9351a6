// Cypher errors carry the offending token and its position, and become a 422 problem whose `errors`
// entry points at /query with the token, line and column (1-based), so a client can underline it.
import { AppError } from "../../../../lib/errors";

export type SourcePos = { offset: number; line: number; column: number };

export class CypherError extends Error {
  constructor(
    message: string,
    readonly token: string,
    readonly pos: SourcePos,
  ) {
    super(message);
  }
}

/** The 422 a client sees: detail and errors[0] both say what is wrong and where. */
export function cypherProblem(error: CypherError): AppError {
  const where = `line ${error.pos.line}, column ${error.pos.column}`;
  const message = `${error.message} (at ${where})`;
  return new AppError("validation-failed", `/query: ${message}`, {
    fields: {
      errors: [
        {
          path: "/query",
          message,
          token: error.token,
          line: error.pos.line,
          column: error.pos.column,
          offset: error.pos.offset,
        },
      ],
    },
  });
}

/** A quoted token for messages, shortened so a huge token cannot flood the response. */
export const quote = (text: string) =>
  text === "" ? "end of query" : `'${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`;
