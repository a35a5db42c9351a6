// GET and PATCH on /v1/memories/{recall,batch,forget}: a 405 naming POST. Without these, the paths
// reached GET/PATCH /v1/memories/{memory_id} and answered "Memory recall was not found". Hidden
// from OpenAPI: they document nothing a client can call. The paths are the catalog's
// (src/operations/).
import { Elysia } from "elysia";
import { AppError } from "../../../lib/errors";
import { POST_ONLY_MEMORY_PATHS } from "../../../operations/memories";
import { requestPath } from "../../pipeline/0-request-target";

const postOnly = ({ request }: { request: Request }) => {
  const detail = `${request.method} is not served here: use POST ${requestPath(request)}`;
  throw new AppError("method-not-allowed", detail, { headers: { allow: "POST" } });
};

export const memoriesWrongMethodRoute = () => {
  let app = new Elysia();
  const hidden = { detail: { hide: true } };
  for (const path of POST_ONLY_MEMORY_PATHS)
    app = app.get(path, postOnly, hidden).patch(path, postOnly, hidden);
  return app;
};
