// The JSON-RPC batch rules the MCP transport leaves out (issue 23). An empty batch is an Invalid
// Request (JSON-RPC 2.0, "Batch"); the transport answered it 202 as if it held only notifications.
// A batch naming one request id twice is refused: the transport answers each id once, so the
// other calls would run unanswered. The transport itself refuses over 100 messages (-32600) and a
// batch with any item that is not a JSON-RPC message (-32700).

const invalidRequest = (why: string) =>
  new Response(
    JSON.stringify({
      jsonrpc: "2.0",
      error: { code: -32600, message: `Invalid Request: ${why}` },
      id: null,
    }),
    { status: 400, headers: { "content-type": "application/json" } },
  );

/** The refusal of a batch these rules forbid, or null when the transport may take it. */
export function batchRefusal(body: unknown): Response | null {
  if (!Array.isArray(body)) return null;
  if (body.length === 0) return invalidRequest("an empty batch");
  const ids = new Set<string>();
  for (const item of body) {
    if (!item || typeof item !== "object" || !("method" in item) || !("id" in item)) continue;
    const id = JSON.stringify((item as { id: unknown }).id) ?? "undefined";
    if (ids.has(id))
      return invalidRequest(`request id ${id.slice(0, 40)} appears twice in the batch`);
    ids.add(id);
  }
  return null;
}
