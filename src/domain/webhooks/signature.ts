// The webhook signature scheme (docs/webhooks.md): Svc-Signature: t=<unix seconds>,v1=<hex>, where
// hex = HMAC-SHA256(secret, "<t>.<body>"); one v1 per valid secret during a rotation's overlap.
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

export const SECRET_PREFIX = "whsec_";

/** A fresh signing secret: whsec_ + 32 random bytes, base64url. */
export function mintWebhookSecret(): string {
  const random = crypto.getRandomValues(new Uint8Array(32));
  return SECRET_PREFIX + Buffer.from(random).toString("base64url");
}

export function signPayload(secret: string, timestamp: number, body: string): string {
  return bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(`${timestamp}.${body}`)));
}

/** The header value, signed with every secret given (the current one first). */
export function signatureHeader(secrets: string[], timestamp: number, body: string): string {
  const signatures = secrets.map((s) => `v1=${signPayload(s, timestamp, body)}`);
  return [`t=${timestamp}`, ...signatures].join(",");
}
