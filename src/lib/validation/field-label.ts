// How a failing field is named in a problem's detail: "/filters/memory_type" →
// "filters.memory_type", "/memories/3/content" → "memories[3].content", "query:/limit" → "query
// parameter limit".
const PLACES: Record<string, string> = {
  query: "query parameter ",
  params: "path parameter ",
  headers: "header ",
};

export function fieldLabel(path: string): string {
  const place = /^(query|params|headers):(.*)$/.exec(path);
  const prefix = place ? PLACES[place[1]!]! : "";
  const pointer = place ? place[2]! : path;
  const parts = pointer
    .split("/")
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (parts.length === 0) return prefix ? prefix.trim() : "the request body";
  let label = "";
  for (const part of parts)
    label += /^\d+$/.test(part) && label ? `[${part}]` : `${label ? "." : ""}${part}`;
  return prefix + label;
}
