// Budget check for web searches: a search spends no tokens, so it reserves nothing, but it is
// refused (budget-exceeded) once the tenant's token budget is spent, like every other provider
// call.
import type { UsageMeter } from "../usage-meter";
import type { WebSearchProvider } from "./port";

export function meteredWebSearch(inner: WebSearchProvider, meter: UsageMeter): WebSearchProvider {
  return {
    name: inner.name,
    async search(query, count, ctx) {
      const reservation = await meter.reserve(ctx.orgId, 0);
      try {
        return await inner.search(query, count, ctx);
      } finally {
        await meter.settle(reservation, { tokens: 0 });
      }
    },
  };
}
