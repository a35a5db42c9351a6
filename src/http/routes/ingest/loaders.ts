// GET /v1/ingest/loaders: the registered loaders with their MIME types and extensions.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { listLoaders } from "../../../domain/ingest/loaders";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { LoaderInfo } from "../../../operations/schemas/ingest";

export const ingestLoadersRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/ingest/loaders",
    ({ request }) => {
      actorOf(request);
      return listLoaders(deps);
    },
    {
      response: {
        200: t.Object({ loaders: t.Array(LoaderInfo) }, { additionalProperties: false }),
        ...authedErrors(),
      },
      detail: {
        tags: ["Ingest"],
        summary: "List the loaders",
        description:
          "Formats are recognised from the bytes; the MIME types and extensions listed here only choose among text formats.",
      },
    },
  );
