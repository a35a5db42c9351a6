// Public operations: the root page, health and readiness probes, metrics, error pages, the graph
// viewer. No key; the pages are hidden from OpenAPI.
import { type Operation, read } from "./operation";

const page = (path: string) => read(path, "public", { hidden: true });
const VIEWER_ASSETS = "/_assets/graph-viewer";

export const PUBLIC_OPERATIONS: readonly Operation[] = [
  page("/"),
  read("/v1/health", "public"),
  read("/v1/ready", "public"),
  read("/v1/worker/health", "public"),
  read("/metrics", "public"),
  page("/docs/errors"),
  page("/docs/errors/:slug"),
  page("/graph"),
  page("/graph/"),
  page(`${VIEWER_ASSETS}/cytoscape.esm.min.mjs`),
  page(`${VIEWER_ASSETS}/viewer.js`),
  page(`${VIEWER_ASSETS}/viewer.css`),
];
