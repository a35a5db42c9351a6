// The catalog: every operation of the API, once. The route scopes, the gates that mount routes and
// tools, and the MCP tool map are read from here (docs/architecture.md).
import type { Gates } from "../config/gates";
import { ownValue } from "../lib/own-key";
import { ACCOUNT_OPERATIONS } from "./account";
import { CONVERSATION_OPERATIONS } from "./conversations";
import { FORGE_OPERATIONS } from "./forge";
import { FORGET_PROOF_OPERATIONS } from "./forget-proof";
import { GRAPH_OPERATIONS } from "./graph";
import { MEMORY_OPERATIONS } from "./memories";
import type { GateName, Operation } from "./operation";
import { PUBLIC_OPERATIONS } from "./public";
import { SUPERADMIN_OPERATIONS } from "./superadmin";
import { SESSION_OPERATIONS } from "./sessions";
import { TENANT_DATA_OPERATIONS } from "./tenant-data";
import { WEBHOOK_OPERATIONS } from "./webhooks";

export type {
  Access,
  Call,
  EventStream,
  GateName,
  Handler,
  Method,
  Operation,
  StreamEvent,
} from "./operation";

export const OPERATIONS: readonly Operation[] = [
  ...PUBLIC_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...FORGET_PROOF_OPERATIONS,
  ...SUPERADMIN_OPERATIONS,
  ...MEMORY_OPERATIONS,
  ...SESSION_OPERATIONS,
  ...CONVERSATION_OPERATIONS,
  ...GRAPH_OPERATIONS,
  ...FORGE_OPERATIONS,
  ...TENANT_DATA_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
];

const keyOf = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const BY_ROUTE = Object.fromEntries(OPERATIONS.map((op) => [keyOf(op.method, op.path), op]));
const BY_TOOL = Object.fromEntries(
  OPERATIONS.flatMap((op) => (op.mcp === null ? [] : [[op.mcp, op] as const])),
);

/** The operation a route template serves (HEAD is the GET), or undefined for an undeclared one. */
export function operationOf(method: string, path: string): Operation | undefined {
  const upper = method.toUpperCase();
  return ownValue(BY_ROUTE, keyOf(upper === "HEAD" ? "GET" : upper, path));
}

/** The operation an MCP tool runs, or undefined for a tool the catalog does not name. */
export const operationOfTool = (name: string): Operation | undefined => ownValue(BY_TOOL, name);

export const gateOn = (gates: Gates, gate: GateName): boolean => gate === "always" || gates[gate];

/** What to set for each gate: the 404 of a gated-off route names it. */
export const ENABLED_BY: Readonly<Record<Exclude<GateName, "always">, string>> = {
  forgetProof: "FORGET_PROOF_ENABLED=true",
  superadmin: "SUPERADMIN_ENABLED=true and SUPERADMIN_API_KEY",
  ingest: "INGEST_ENABLED=true",
  ingestSearch: "INGEST_ENABLED=true and WEBSEARCH_API_KEY",
  ingestUploadUrl: "INGEST_ENABLED=true and STORAGE_BACKEND=s3",
  refine: "REFINE_ENABLED=true",
  distill: "DISTILL_ENABLED=true",
};
