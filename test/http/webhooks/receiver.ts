// A webhook receiver for tests: records every request and verifies Svc-Signature as a receiver
// would.
import { createHmac, timingSafeEqual } from "node:crypto";

export type Received = { path: string; headers: Record<string, string>; body: string; json: any };

export type Receiver = {
  url(path?: string): string;
  received: Received[];
  /** The next `count` requests to `path` answer `status`. */
  failNext(path: string, count: number, status?: number): void;
  stop(): void;
};

export function startReceiver(): Receiver {
  const received: Received[] = [];
  const failures = new Map<string, { count: number; status: number }>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const body = await request.text();
      received.push({
        path,
        headers: Object.fromEntries(request.headers),
        body,
        json: JSON.parse(body),
      });
      const fail = failures.get(path);
      if (path.startsWith("/always-")) return new Response("no", { status: Number(path.slice(8)) });
      if (fail && fail.count > 0) {
        fail.count--;
        return new Response("not now", { status: fail.status });
      }
      return new Response("ok");
    },
  });
  return {
    url: (path = "/hook") => `http://127.0.0.1:${server.port}${path}`,
    received,
    failNext: (path, count, status = 500) => void failures.set(path, { count, status }),
    stop: () => void server.stop(true),
  };
}

/**
 * True when one v1 of the header is HMAC-SHA256(secret, "<t>.<body>") and t is the Svc-Timestamp.
 */
export function signatureValid(r: Received, secret: string, toleranceSeconds = 300): boolean {
  const parts = r.headers["svc-signature"]!.split(",").map((p) => p.split("=") as [string, string]);
  const t = parts.find(([k]) => k === "t")?.[1];
  if (!t || t !== r.headers["svc-timestamp"]) return false;
  if (Math.abs(Date.now() / 1000 - Number(t)) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${r.body}`).digest();
  return parts
    .filter(([k]) => k === "v1")
    .some(([, hex]) => {
      const given = Buffer.from(hex, "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
