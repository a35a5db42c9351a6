// Picks the web-search provider from configuration: Brave when WEBSEARCH_API_KEY is set, else none
// (and POST /v1/ingest/search does not exist).
import type { Config } from "../../config/schema";
import { braveSearch } from "./brave";
import type { WebSearchProvider } from "./port";

export function selectWebSearch(config: Config): WebSearchProvider | null {
  if (!config.WEBSEARCH_API_KEY) return null;
  return braveSearch({
    apiKey: config.WEBSEARCH_API_KEY,
    baseUrl: config.WEBSEARCH_BASE_URL,
    timeoutMs: config.WEBSEARCH_TIMEOUT_MS,
  });
}
