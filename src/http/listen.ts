// Every HTTP listener the service opens (the API, a worker's /metrics) starts here, so Bun's
// development error page (source lines, stack, absolute paths) never answers, in any mode: an error
// that escapes the fetch handler is logged and becomes a bare 500 problem.
import type { Deps } from "../operations/deps";
import { AppError } from "../lib/errors";
import { problemResponse, problemTypeBase } from "./problem";

export type ListenOptions = {
  port: number;
  fetch: (request: Request) => Response | Promise<Response>;
  maxRequestBodySize?: number;
  idleTimeout?: number;
};

export function listenHttp(deps: Pick<Deps, "config" | "log">, options: ListenOptions) {
  const typeBase = problemTypeBase(deps.config);
  return Bun.serve({
    ...options,
    hostname: deps.config.HOST,
    development: false,
    error(error) {
      deps.log.error({ msg: "unhandled error outside the app", err: error });
      const request = new Request("http://host.invalid/");
      return problemResponse(
        new AppError("internal-error", "An unexpected error occurred"),
        request,
        typeBase,
        undefined,
      );
    },
  });
}
