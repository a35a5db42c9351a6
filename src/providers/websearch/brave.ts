// Brave Search API client (GET {base}/web/search?q=&count=, X-Subscription-Token header; documented
// at https://api-dashboard.search.brave.com/app/documentation/web-search). Only web.results[].url
// and .title are read.
import type { WebSearchHit, WebSearchProvider } from "./port";
import { WebSearchError } from "./port";

/** Brave answers at most 20 results per request. */
export const BRAVE_MAX_COUNT = 20;

type BraveAnswer = { web?: { results?: Array<{ url?: unknown; title?: unknown }> } };

export function braveSearch(options: {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
}): WebSearchProvider {
  const endpoint = `${options.baseUrl.replace(/\/+$/, "")}/web/search`;
  return {
    name: "brave",
    async search(query, count, ctx) {
      const url = new URL(endpoint);
      url.searchParams.set("q", query);
      url.searchParams.set("count", String(Math.min(count, BRAVE_MAX_COUNT)));
      const signal = ctx.signal
        ? AbortSignal.any([ctx.signal, AbortSignal.timeout(options.timeoutMs)])
        : AbortSignal.timeout(options.timeoutMs);
      let response: Response;
      try {
        response = await fetch(url, {
          headers: { accept: "application/json", "x-subscription-token": options.apiKey },
          signal,
          redirect: "error",
        });
      } catch (error) {
        const timedOut = (error as Error).name === "TimeoutError";
        throw new WebSearchError(
          timedOut
            ? `the web-search provider did not answer within ${options.timeoutMs} ms`
            : `the web-search provider could not be reached: ${(error as Error).message}`,
        );
      }
      if (!response.ok) {
        await response.body?.cancel();
        const hint =
          response.status === 401 || response.status === 403
            ? " (check WEBSEARCH_API_KEY)"
            : response.status === 429
              ? " (rate limited or quota spent)"
              : "";
        throw new WebSearchError(
          `the web-search provider answered HTTP ${response.status}${hint}`,
          response.status,
        );
      }
      let answer: BraveAnswer;
      try {
        answer = (await response.json()) as BraveAnswer;
      } catch {
        throw new WebSearchError("the web-search provider answered something that is not JSON");
      }
      const results = answer?.web?.results;
      if (results !== undefined && !Array.isArray(results))
        throw new WebSearchError(
          "the web-search provider's answer has no readable web.results list",
        );
      const hits: WebSearchHit[] = [];
      for (const r of results ?? []) {
        if (typeof r?.url !== "string" || r.url === "") continue;
        hits.push({
          url: r.url,
          title: typeof r.title === "string" ? r.title.slice(0, 500) : null,
        });
        if (hits.length >= count) break;
      }
      return hits;
    },
  };
}
