// CODE: identifier-aware matching over memories marked as code (metadata kind "code", "language" or
// "path").
import { codeSearch } from "../../../data/queries/recall/code";
import { cancellable } from "../../../data/queries/recall/common";
import type { RecallStrategy } from "../strategy";

export const codeStrategy: RecallStrategy = {
  name: "CODE",
  description: "Code: function/class names in camelCase or snake_case, symbols, file paths.",
  needsEmbedding: false,
  async run(tx, search) {
    const rows = await cancellable(
      codeSearch(tx, { filter: search.filter, text: search.query, limit: search.topK }),
      search.signal,
    );
    return { rows };
  },
};
