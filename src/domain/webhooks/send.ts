// One delivery attempt: POST the signed JSON body to the endpoint, the host resolved once and every
// address checked against the webhook address policy (the connection pinned to it), under one
// deadline, redirects never followed (a 3xx is a failed attempt). The answer's body is discarded.
import http from "node:http";
import https from "node:https";
import type { AddressPolicy } from "../../lib/fetch/address-policy";
import { literalAddress } from "../../lib/fetch/address-policy";
import { FetchRefused, pinnedLookup, resolveChecked } from "../../lib/fetch/safe-fetch";

export type SendOutcome =
  | { ok: true; status: number }
  | { ok: false; status: number | null; error: string };

const USER_AGENT = "svc-webhooks/1 (+https://github.com/svc)";

export async function sendWebhook(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  policy: AddressPolicy,
  timeoutMs: number,
): Promise<SendOutcome> {
  const url = new URL(rawUrl);
  let pin: { address: string; family: 4 | 6 };
  try {
    pin = await resolveChecked(url.hostname.replace(/^\[|\]$/g, ""), policy);
  } catch (error) {
    const refused = error instanceof FetchRefused ? "refused: " : "";
    return { ok: false, status: null, error: `${refused}${(error as Error).message}` };
  }
  return new Promise((resolve) => {
    const client = url.protocol === "https:" ? https : http;
    const req = client.request(
      {
        protocol: url.protocol,
        host: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        lookup: pinnedLookup(pin.address, pin.family),
        servername: literalAddress(url.hostname) ? undefined : url.hostname,
        headers: {
          ...headers,
          "content-type": "application/json",
          "user-agent": USER_AGENT,
          "content-length": String(Buffer.byteLength(body)),
        },
      },
      (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        clearTimeout(timer);
        if (status >= 200 && status < 300) resolve({ ok: true, status });
        else resolve({ ok: false, status, error: `the endpoint answered HTTP ${status}` });
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within WEBHOOKS_TIMEOUT_MS (${timeoutMs} ms)`));
    }, timeoutMs);
    req.on("error", (error) => {
      clearTimeout(timer);
      resolve({ ok: false, status: null, error: error.message });
    });
    req.end(body);
  });
}
