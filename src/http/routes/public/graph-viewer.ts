// GET /graph: the knowledge-graph viewer (docs/graph.md, "Viewer"). The page is public and holds no
// data: its script asks for an API key and calls /v1/graph/data and /v1/memories/{id}/history with
// it. Every asset is embedded in the binary (no CDN) and the strict CSP allows only this origin's
// scripts and styles.
import { Elysia } from "elysia";
import cytoscapeBundle from "cytoscape/dist/cytoscape.esm.min.mjs" with { type: "file" };
import viewerScript from "./graph-viewer/viewer.js" with { type: "file" };
import viewerStyle from "./graph-viewer/viewer.css" with { type: "file" };

const ASSETS = "/_assets/graph-viewer";

export const GRAPH_VIEWER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>svc graph viewer</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<!-- The id tells cytoscape its container style is already here, so it injects no style element (which the CSP would refuse). -->
<link id="__________cytoscape_stylesheet" rel="stylesheet" href="${ASSETS}/viewer.css"></head>
<body>
<header>
  <form id="key-form" autocomplete="off"><label>API key <input id="key" type="password" placeholder="svc_sk_…" required></label>
    <button type="submit">Use key</button><button type="button" id="forget-key">Forget key</button></form>
  <form id="agent-form" autocomplete="off"><label>Agent <input id="agent" list="agents" placeholder="agent id" required></label>
    <datalist id="agents"></datalist><label><input id="include-expired" type="checkbox"> include expired</label>
    <button type="submit">Load graph</button></form>
  <label>Find <input id="search" type="search" placeholder="name or alias"></label>
</header>
<section id="timeline"><label for="as-of">Event time</label><input id="as-of" type="range" min="0" max="0" value="0" disabled>
  <output id="as-of-label" for="as-of">current graph</output></section>
<p id="status" role="status">Enter an API key, then an agent id.</p>
<main><div id="graph"></div>
  <aside><section id="details" aria-live="polite"><h2>Details</h2><p class="hint">Click a node or an edge.</p></section>
  <section id="history" aria-live="polite"></section>
  <section id="legend"><h2>Memo types</h2><ul id="legend-list"></ul></section></aside></main>
<script type="module" src="${ASSETS}/viewer.js"></script>
</body></html>`;

const SECURITY_HEADERS = {
  "content-security-policy": GRAPH_VIEWER_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

const asset = (path: string, type: string) => () =>
  new Response(Bun.file(path), {
    headers: { "content-type": type, "cache-control": "public, max-age=3600", ...SECURITY_HEADERS },
  });

const page = () =>
  new Response(PAGE, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      ...SECURITY_HEADERS,
    },
  });

// Every URL in the page is absolute, so /graph and /graph/ both work.
export const graphViewerRoute = () =>
  new Elysia()
    .get("/graph", page, { detail: { hide: true } })
    .get("/graph/", page, { detail: { hide: true } })
    .get(
      `${ASSETS}/cytoscape.esm.min.mjs`,
      asset(cytoscapeBundle, "text/javascript; charset=utf-8"),
      { detail: { hide: true } },
    )
    .get(`${ASSETS}/viewer.js`, asset(viewerScript, "text/javascript; charset=utf-8"), {
      detail: { hide: true },
    })
    .get(`${ASSETS}/viewer.css`, asset(viewerStyle, "text/css; charset=utf-8"), {
      detail: { hide: true },
    });
