// The web-search provider port: a query in, ranked result URLs out. Used by POST /v1/ingest/search
// to discover the pages its batch then ingests one URL job each.
export type WebSearchHit = { url: string; title: string | null };

export type WebSearchContext = { orgId: string; signal?: AbortSignal };

export interface WebSearchProvider {
  readonly name: string;
  /** At most `count` hits, best first. Throws WebSearchError when the provider cannot answer. */
  search(query: string, count: number, ctx: WebSearchContext): Promise<WebSearchHit[]>;
}

/**
 * The provider refused, failed or answered something unreadable; the message is safe to show a
 * client.
 */
export class WebSearchError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}
