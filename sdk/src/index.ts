// @svc/sdk: a typed client for svc. Zero runtime dependencies: only fetch, streams and WebCrypto.
export { SvcClient } from "./client";
export * from "./errors";
export { Job, type JobStatus, type WaitOptions } from "./jobs";
export { canonicalJson, rowHash, verifyRows, GENESIS_HASH, type ChainVerdict } from "./audit-chain";
export type { ClientOptions, CallOptions } from "./transport";
export type * from "./types";
export type { paths, components, operations } from "./openapi";
