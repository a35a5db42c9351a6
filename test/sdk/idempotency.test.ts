// The SDK's idempotency keys against the real server over real HTTP: a POST whose first answer is
// lost (a proxy turns it into a 503, or drops the connection after the server has stored) is
// retried with the same key and stores exactly one memory; an explicit key replays; reusing it for
// another body is a 422.
import { afterAll, beforeAll, expect, test } from "bun:test";
import net from "node:net";
import { withTenant } from "../../src/data/with-tenant";
import { IdempotencyKeyReusedError, SvcClient } from "../../sdk/src/index";
import type { Tenant } from "../harness/app";
import { serve, type Served } from "./server";

let s: Served;
let a: Tenant;
const seenKeys: string[] = [];

beforeAll(async () => {
  s = await serve();
  a = await s.t.tenant("sdk-idem");
});
afterAll(() => s.stop());

const memoryCount = async (agent: string) =>
  (
    await withTenant(
      s.t.deps.db,
      a.orgId,
      (tx) => tx`SELECT count(*)::int AS n FROM memories WHERE agent_id = ${agent}`,
    )
  )[0]!.n as number;

/** Forwards every request to the server; the first POST's real answer is replaced by a 503. */
function proxyLosingFirstAnswer() {
  let lost = false;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      seenKeys.push(request.headers.get("idempotency-key") ?? "");
      const upstream = await fetch(s.url + url.pathname + url.search, {
        method: request.method,
        headers: request.headers,
        body: request.method === "GET" ? undefined : await request.arrayBuffer(),
      });
      if (request.method === "POST" && !lost) {
        lost = true;
        await upstream.arrayBuffer(); // the server did the work; the client never hears of it
        return new Response(
          JSON.stringify({
            type: "about:blank",
            title: "Service Unavailable",
            status: 503,
            detail: "proxy lost the answer",
          }),
          {
            status: 503,
            headers: { "content-type": "application/problem+json", "retry-after": "0" },
          },
        );
      }
      return upstream;
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

/**
 * A TCP proxy whose first connection reaches the server but is cut as soon as the answer starts.
 */
async function proxyDroppingFirstConnection() {
  const upstream = new URL(s.url);
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const first = ++connections === 1;
    const toServer = net.connect(Number(upstream.port), upstream.hostname);
    sockets.add(client).add(toServer);
    client.pipe(toServer);
    toServer.on("data", (chunk) => {
      if (first) {
        client.destroy();
        toServer.destroy();
      } else client.write(chunk);
    });
    toServer.on("end", () => client.end());
    client.on("error", () => toServer.destroy());
    toServer.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy(); // the client's keep-alive connection would hold close() open
    });
  return { url: `http://127.0.0.1:${port}`, connections: () => connections, stop };
}

test("a store whose answer is turned into a 503 is retried with the same key: one memory, the first answer", async () => {
  const proxy = proxyLosingFirstAnswer();
  try {
    const svc = new SvcClient({ baseUrl: proxy.url, apiKey: a.key });
    seenKeys.length = 0;
    const stored = await svc.memories.store({
      agent_id: "lost-503",
      content: "the boiler was serviced in March",
    });
    expect(stored.memory_id).toStartWith("mem_");
    expect(seenKeys.length).toBe(2);
    expect(seenKeys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seenKeys[1]).toBe(seenKeys[0]!);
    expect(await memoryCount("lost-503")).toBe(1);
  } finally {
    proxy.stop();
  }
});

test("a store whose connection drops after the server stored it is retried: still one memory", async () => {
  const proxy = await proxyDroppingFirstConnection();
  try {
    const svc = new SvcClient({ baseUrl: proxy.url, apiKey: a.key });
    const stored = await svc.memories.store({
      agent_id: "lost-conn",
      content: "the fuse box is behind the coats",
    });
    expect(stored.memory_id).toStartWith("mem_");
    expect(proxy.connections()).toBeGreaterThanOrEqual(2); // the first connection was cut, the retry used another
    expect(await memoryCount("lost-conn")).toBe(1);
  } finally {
    await proxy.stop();
  }
});

test("separate calls get separate keys; an explicit key replays, and reusing it for another body is IdempotencyKeyReusedError", async () => {
  const svc = new SvcClient({ baseUrl: s.url, apiKey: a.key });
  await svc.memories.store({ agent_id: "explicit", content: "same words" });
  await svc.memories.store({ agent_id: "explicit", content: "same words" });
  expect(await memoryCount("explicit")).toBe(2);
  const first = await svc.memories.store(
    { agent_id: "explicit", content: "keyed" },
    { idempotencyKey: "order-42" },
  );
  const second = await svc.memories.store(
    { agent_id: "explicit", content: "keyed" },
    { idempotencyKey: "order-42" },
  );
  expect(second.memory_id).toBe(first.memory_id);
  expect(await memoryCount("explicit")).toBe(3);
  const reused = await svc.memories
    .store({ agent_id: "explicit", content: "different" }, { idempotencyKey: "order-42" })
    .catch((e) => e);
  expect(reused).toBeInstanceOf(IdempotencyKeyReusedError);
  expect(reused.status).toBe(422);
  // The raw header on the wire: the replay says so.
  const raw = await fetch(`${s.url}/v1/memories`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${a.key}`,
      "content-type": "application/json",
      "idempotency-key": "order-42",
    },
    body: JSON.stringify({ agent_id: "explicit", content: "keyed" }),
  });
  expect(raw.status).toBe(201);
  expect(raw.headers.get("idempotent-replayed")).toBe("true");
  expect(((await raw.json()) as { memory_id: string }).memory_id).toBe(first.memory_id);
});
