// Hostile JSON-RPC batches for POST /mcp (issue 23): empty, over 100 items, mixed valid/invalid,
// nested arrays, huge and odd ids; and the judge of an answer by the JSON-RPC 2.0 batch rules:
// never a 5xx, a refusal is a JSON-RPC error or a problem, an empty batch is refused, and an
// answered batch has one answer per request, each carrying an id the batch sent.

export type HostileBatch = { label: string; body: string };

const request = (id: unknown, method: string, params?: unknown) => ({
  jsonrpc: "2.0",
  id,
  method,
  ...(params === undefined ? {} : { params }),
});
const ping = (id: unknown) => request(id, "ping");
const storeCall = (id: unknown, args: unknown) =>
  request(id, "tools/call", { name: "store_memory", arguments: args });

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

export const HOSTILE_BATCHES: HostileBatch[] = [
  { label: "empty batch", body: "[]" },
  { label: "101 pings", body: JSON.stringify(Array.from({ length: 101 }, (_, i) => ping(i + 1))) },
  {
    label: "101 tools/list",
    body: JSON.stringify(Array.from({ length: 101 }, (_, i) => request(i, "tools/list"))),
  },
  {
    label: "mixed valid and invalid",
    body: JSON.stringify([
      ping(1),
      {},
      1,
      "x",
      null,
      true,
      { jsonrpc: "1.0", id: 2, method: "ping" },
      { jsonrpc: "2.0", id: 3, method: 5 },
      { jsonrpc: "2.0", id: 4 },
      storeCall(5, { content: 7 }),
      storeCall(6, null),
      request(7, "no/such/method"),
      { jsonrpc: "2.0", method: "notifications/x" },
    ]),
  },
  { label: "nested array", body: JSON.stringify([[ping(1)]]) },
  { label: "array in a batch", body: JSON.stringify([ping(1), [ping(2)], []]) },
  { label: "deeply nested arrays", body: nested(10_000) },
  {
    label: "huge and odd ids",
    body: JSON.stringify([
      ping(1e308),
      ping(-1e308),
      ping(Number.MAX_SAFE_INTEGER + 2),
      ping(-0),
      ping(0.5),
      ping("x".repeat(100_000)),
      ping({}),
      ping([]),
      ping(true),
      ping(null),
    ]),
  },
  {
    label: "big-number id literal",
    body: `[{"jsonrpc":"2.0","id":${"9".repeat(400)},"method":"ping"}]`,
  },
  { label: "duplicate ids", body: JSON.stringify([ping(1), ping(1), request(1, "tools/list")]) },
  {
    label: "notifications only",
    body: JSON.stringify([{ jsonrpc: "2.0", method: "notifications/initialized" }]),
  },
  {
    label: "initialize inside a batch",
    body: JSON.stringify([
      request(1, "initialize", {
        protocolVersion: "2025-03-26",
        capabilities: {},
        clientInfo: { name: "fuzz", version: "0" },
      }),
      ping(2),
    ]),
  },
  {
    label: "responses instead of requests",
    body: JSON.stringify([{ jsonrpc: "2.0", id: 1, result: {} }]),
  },
  {
    label: "params of the wrong type",
    body: JSON.stringify([request(1, "tools/call", "x"), request(2, "tools/call", [1])]),
  },
];

/** The ids a batch sent, as JSON text (a number's id may come back rounded: numbers pass). */
function sentIds(body: string): Set<string> | null {
  try {
    const parsed: unknown = JSON.parse(body);
    const items = Array.isArray(parsed) ? parsed : [parsed];
    return new Set(
      items.flatMap((item) =>
        item && typeof item === "object" && "id" in item
          ? [JSON.stringify((item as { id: unknown }).id)]
          : [],
      ),
    );
  } catch {
    return null;
  }
}

/** Requests (items with a method and an id) in a batch; an empty batch is one Invalid Request. */
function requestCount(body: string): number {
  const parsed: unknown = JSON.parse(body);
  const items = Array.isArray(parsed) ? parsed : [parsed];
  if (items.length === 0) return 1;
  return items.filter((i) => i && typeof i === "object" && "method" in i && "id" in i).length;
}

const isRpcAnswer = (a: unknown): a is { jsonrpc: string; id: unknown } =>
  !!a &&
  typeof a === "object" &&
  (a as { jsonrpc?: unknown }).jsonrpc === "2.0" &&
  ("result" in a || "error" in a) &&
  "id" in a;

/** Why the answer breaks the batch rules, or null when it keeps them. */
export function judgeBatchAnswer(batch: HostileBatch, status: number, text: string): string | null {
  if (status >= 500) return "a 5xx";
  const requests = requestCount(batch.body);
  if (status === 202) {
    if (requests !== 0) return `a 202 to ${requests} requests`;
    return text.trim() === "" ? null : "a 202 with a body";
  }
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return "an answer that is not JSON";
  }
  if (status >= 400) {
    const refusal = answer as { error?: { code?: unknown }; status?: unknown };
    if (typeof refusal?.error?.code === "number" || refusal?.status === status) return null;
    return "a refusal that is neither a JSON-RPC error nor a problem";
  }
  const answers = Array.isArray(answer) ? answer : [answer];
  const bad = answers.find((a) => !isRpcAnswer(a));
  if (bad !== undefined)
    return `an item that is not a JSON-RPC answer: ${JSON.stringify(bad).slice(0, 100)}`;
  const ids = sentIds(batch.body);
  if (ids === null) return null;
  if (answers.length !== requests) return `${answers.length} answers to ${requests} requests`;
  const foreign = answers.find(
    (a) => a.id !== null && typeof a.id !== "number" && !ids.has(JSON.stringify(a.id)),
  );
  return foreign
    ? `an answer to an id never sent: ${JSON.stringify(foreign.id).slice(0, 60)}`
    : null;
}
