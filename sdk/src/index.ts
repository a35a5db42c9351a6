// @svc/sdk: a typed client for svc. Zero runtime dependencies: only fetch, streams and WebCrypto.
export { SvcClient } from "./client.js";
export * from "./errors.js";
export { Job, type JobStatus, type WaitOptions } from "./jobs.js";
export {
  canonicalJson,
  rowHash,
  verifyRows,
  GENESIS_HASH,
  type ChainVerdict,
} from "./audit-chain.js";
export type { ClientOptions, CallOptions } from "./transport.js";
export type * from "./types.js";
export type { paths, components, operations } from "./openapi.js";
