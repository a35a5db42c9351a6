// Outbound webhooks: who may be called, how long a call may take, and how deliveries are retried.
import { Type as T } from "@sinclair/typebox";

export const webhooksSection = {
  WEBHOOKS_ALLOW_LOOPBACK: T.Boolean({
    default: false,
    description:
      "Allow webhook endpoints on loopback addresses (127.0.0.0/8, ::1); for tests and local development only",
  }),
  WEBHOOKS_TIMEOUT_MS: T.Integer({
    default: 10000,
    minimum: 100,
    maximum: 60000,
    description: "One delivery attempt's deadline (connect, send, answer)",
  }),
  WEBHOOKS_MAX_ATTEMPTS: T.Integer({
    default: 8,
    minimum: 1,
    maximum: 30,
    description: "Attempts of one delivery before it is marked dead",
  }),
  WEBHOOKS_RETRY_BASE_MS: T.Integer({
    default: 30000,
    minimum: 10,
    description:
      "Delay before the first retry; doubles on each further retry, with up to 50 % random jitter",
  }),
  WEBHOOKS_RETRY_MAX_MS: T.Integer({
    default: 21600000,
    minimum: 10,
    description: "Longest delay between two attempts",
  }),
  WEBHOOKS_LEASE_SECONDS: T.Integer({
    default: 60,
    minimum: 1,
    maximum: 3600,
    description:
      "A claimed delivery whose worker died is retried after this long (must exceed WEBHOOKS_TIMEOUT_MS)",
  }),
  WEBHOOKS_SWEEP_SECONDS: T.Integer({
    default: 30,
    minimum: 1,
    description:
      "svc.deliver_webhooks runs this often as a safety net besides the after-commit wake-up",
  }),
  WEBHOOKS_SECRET_OVERLAP_SECONDS: T.Integer({
    default: 86400,
    minimum: 0,
    maximum: 604800,
    description:
      "After a secret rotation, deliveries also carry a signature made with the previous secret for this long",
  }),
};
