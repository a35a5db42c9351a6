// The /graph page's script (plain browser JS, served as a file; no eval, no inline handlers, so the page's
// strict CSP holds). The API key lives in sessionStorage only; every call sends it as a bearer token.
// Text from the API is only ever set through textContent, never parsed as HTML.
import cytoscape from "./cytoscape.esm.min.mjs";

(() => {
  const KEY_STORAGE = "svc.graphViewer.key";
  const AGENTS_STORAGE = "svc.graphViewer.agents";
  const DAY = 86_400_000;
  const TYPE_COLOURS = {
    PERSON: "#e6194b",
    ORG: "#3cb44b",
    PLACE: "#4363d8",
    TOOL: "#f58231",
    FILE: "#911eb4",
    SYMBOL: "#46a0a0",
    URL: "#b8a000",
    EMAIL: "#f032e6",
    VERSION: "#808000",
    EVENT: "#9a6324",
    ROLE: "#800000",
    CONCEPT: "#469990",
    SUMMARY: "#7a7a7a",
  };
  const OTHER_COLOUR = "#555555";

  const $ = (id) => document.getElementById(id);
  const el = (tag, text, attrs) => {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    for (const [name, value] of Object.entries(attrs ?? {})) node.setAttribute(name, value);
    return node;
  };
  const day = (iso) => (iso ? iso.slice(0, 10) : "…");

  const state = { agent: null, nodes: new Map(), edges: new Map(), liveDay: 0, requestSeq: 0 };

  const cy = cytoscape({
    container: $("graph"),
    maxZoom: 2.5, // a small graph fitted to the screen stays readable
    style: [
      {
        selector: "node",
        style: {
          "background-color": "data(colour)",
          label: "data(name)",
          color: "#222",
          "font-size": 11,
          "text-valign": "bottom",
          "text-margin-y": 3,
          width: "mapData(mentions, 1, 20, 18, 46)",
          height: "mapData(mentions, 1, 20, 18, 46)",
        },
      },
      {
        selector: "edge",
        style: {
          width: "mapData(weight, 0, 1, 1, 8)",
          "line-color": "#9aa5b1",
          "target-arrow-color": "#9aa5b1",
          "target-arrow-shape": "triangle",
          "curve-style": "bezier",
          label: "data(relation)",
          "font-size": 8,
          color: "#555",
          "text-rotation": "autorotate",
          "text-background-color": "#fff",
          "text-background-opacity": 0.8,
        },
      },
      {
        selector: "edge.closed",
        style: { "line-style": "dashed", "line-color": "#c0c6cc", "target-arrow-color": "#c0c6cc" },
      },
      { selector: ".faded", style: { opacity: 0.15 } },
      { selector: "node.match", style: { "border-width": 3, "border-color": "#111" } },
      {
        selector: ":selected",
        style: {
          "border-width": 4,
          "border-color": "#ffb000",
          "line-color": "#ffb000",
          "target-arrow-color": "#ffb000",
        },
      },
    ],
  });
  // A handle for the browser console (inspect or script the rendered graph).
  window.svcGraphViewer = { cy };

  const setStatus = (text, kind) => {
    const status = $("status");
    status.textContent = text;
    status.className = kind ?? "";
  };

  async function api(path) {
    const key = sessionStorage.getItem(KEY_STORAGE);
    if (!key) throw new Error("Enter an API key first.");
    const res = await fetch(path, {
      headers: { authorization: `Bearer ${key}`, accept: "application/json" },
    });
    const body = await res.json().catch(() => null);
    if (!res.ok)
      throw new Error(
        `${res.status} ${body?.title ?? res.statusText}${body?.detail ? `: ${body.detail}` : ""}`,
      );
    return body;
  }

  function graphUrl(extra) {
    const params = new URLSearchParams({ agent_id: state.agent, limit: "500", ...extra });
    return `/v1/graph/data?${params}`;
  }

  // ---------------------------------------------------------------- key and agents
  function rememberAgent(agent) {
    const agents = JSON.parse(sessionStorage.getItem(AGENTS_STORAGE) ?? "[]").filter(
      (a) => a !== agent,
    );
    agents.unshift(agent);
    sessionStorage.setItem(AGENTS_STORAGE, JSON.stringify(agents.slice(0, 20)));
    showAgents();
  }
  function showAgents() {
    const list = $("agents");
    list.replaceChildren(
      ...JSON.parse(sessionStorage.getItem(AGENTS_STORAGE) ?? "[]").map((a) =>
        el("option", null, { value: a }),
      ),
    );
  }

  $("key-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(KEY_STORAGE, $("key").value.trim());
    $("key").value = "";
    setStatus("Key kept for this browser tab. Enter an agent id and load its graph.");
  });
  $("forget-key").addEventListener("click", () => {
    sessionStorage.removeItem(KEY_STORAGE);
    setStatus("Key forgotten.");
  });

  // ---------------------------------------------------------------- timeline
  // The slider counts days; its last position is "now": the current graph, without as_of.
  function setupTimeline(edges) {
    const days = [];
    for (const e of edges)
      for (const t of [e.valid_at, e.invalid_at, e.observed_at])
        if (t) days.push(Math.floor(Date.parse(t) / DAY));
    const today = Math.floor(Date.now() / DAY);
    state.liveDay = Math.max(today, ...days) + 1;
    const slider = $("as-of");
    slider.min = String(days.length ? Math.min(...days) - 1 : today - 1);
    slider.max = String(state.liveDay);
    slider.value = String(state.liveDay);
    slider.disabled = false;
    $("as-of-label").textContent = "current graph";
  }
  const asOfOf = () => {
    const value = Number($("as-of").value);
    return value >= state.liveDay ? null : new Date(value * DAY).toISOString();
  };

  let sliderTimer = null;
  $("as-of").addEventListener("input", () => {
    const asOf = asOfOf();
    $("as-of-label").textContent = asOf ? `as of ${day(asOf)}` : "current graph";
    clearTimeout(sliderTimer);
    sliderTimer = setTimeout(() => void show().catch(fail), 150);
  });
  $("include-expired").addEventListener("change", () => {
    if (state.agent) void show().catch(fail);
  });

  // ---------------------------------------------------------------- loading and drawing
  const fail = (error) => setStatus(error.message, "error");

  $("agent-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const agent = $("agent").value.trim();
    if (!agent) return;
    state.agent = agent;
    void (async () => {
      setStatus(`Loading ${agent}…`);
      // Every edge either timeline knows, to span the slider.
      const all = await api(graphUrl({ include_expired: "true" }));
      setupTimeline(all.edges);
      rememberAgent(agent);
      await show();
    })().catch(fail);
  });

  async function show() {
    const seq = ++state.requestSeq;
    const asOf = asOfOf();
    const extra = {};
    if (asOf) extra.as_of = asOf;
    if ($("include-expired").checked) extra.include_expired = "true";
    const data = await api(graphUrl(extra));
    if (seq !== state.requestSeq) return; // a newer slider position answered first
    draw(data);
    const when = asOf ? `as of ${day(asOf)}` : "current graph";
    setStatus(
      `${state.agent}: ${data.nodes.length} nodes · ${data.edges.length} edges · ${when}${data.truncated ? " · truncated" : ""}`,
      "ready",
    );
  }

  function draw(data) {
    const before = new Map(cy.nodes().map((n) => [n.id(), { ...n.position() }]));
    state.nodes = new Map(data.nodes.map((n) => [n.id, n]));
    state.edges = new Map(data.edges.map((e) => [e.id, e]));
    cy.elements().remove();
    cy.add([
      ...data.nodes.map((n) => ({
        group: "nodes",
        data: {
          id: n.id,
          name: n.name,
          type: n.memo_type,
          mentions: Math.max(1, n.mention_count),
          colour: TYPE_COLOURS[n.memo_type] ?? OTHER_COLOUR,
        },
      })),
      ...data.edges.map((e) => ({
        group: "edges",
        data: {
          id: e.id,
          source: e.source,
          target: e.target,
          relation: e.relation,
          fact: e.fact,
          weight: e.weight,
        },
        classes: e.invalid_at || e.expired_at ? "closed" : "",
      })),
    ]);
    // Keep the nodes where they were when only the timeline moved; lay out anew otherwise.
    if (cy.nodes().every((n) => before.has(n.id()))) {
      cy.nodes().forEach((n) => n.position(before.get(n.id())));
    } else {
      cy.layout({
        name: "cose",
        animate: false,
        randomize: true,
        nodeRepulsion: () => 400000,
        idealEdgeLength: () => 100,
        nodeOverlap: 20,
        componentSpacing: 60,
      }).run();
    }
    cy.fit(undefined, 30);
    drawLegend(data.nodes);
    applySearch();
  }

  function drawLegend(nodes) {
    const types = [...new Set(nodes.map((n) => n.memo_type))].sort();
    $("legend-list").replaceChildren(
      ...types.map((type) => {
        const item = el("li", type);
        const swatch = el("span", null, { class: "swatch" });
        swatch.style.backgroundColor = TYPE_COLOURS[type] ?? OTHER_COLOUR;
        item.prepend(swatch);
        return item;
      }),
    );
  }

  // ---------------------------------------------------------------- search
  function matches(query) {
    const q = query.trim().toLowerCase();
    if (!q) return cy.collection();
    return cy.nodes().filter((n) => {
      const memo = state.nodes.get(n.id());
      return [memo.name, ...(memo.aliases ?? [])].some((name) => name.toLowerCase().includes(q));
    });
  }
  function applySearch() {
    const found = matches($("search").value);
    cy.elements().removeClass("faded match");
    if (!$("search").value.trim()) return found;
    cy.elements().not(found.closedNeighborhood()).addClass("faded");
    found.addClass("match");
    return found;
  }
  $("search").addEventListener("input", () => {
    applySearch();
    if (!$("search").value.trim()) cy.fit(undefined, 30); // a cleared search shows the whole graph again
  });
  $("search").addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    const found = applySearch();
    if (found.length === 0) return setStatus(`No node named like “${$("search").value}”.`, "error");
    cy.fit(found[0].closedNeighborhood(), 40); // the match and what it touches
    found[0].select();
    showNode(found[0].id());
  });

  // ---------------------------------------------------------------- details and history
  cy.on("tap", "node", (event) => showNode(event.target.id()));
  cy.on("tap", "edge", (event) => showEdge(event.target.id()));

  const validity = (e) =>
    `valid ${day(e.valid_at)} → ${e.invalid_at ? day(e.invalid_at) : "…"}` +
    (e.expired_at ? ` · expired ${day(e.expired_at)} (${e.expired_reason})` : "");

  function factItem(e) {
    const src = state.nodes.get(e.source)?.name ?? e.source;
    const dst = state.nodes.get(e.target)?.name ?? e.target;
    const item = el("li", null, { class: "fact", "data-edge-id": e.id });
    item.append(
      el("q", e.fact),
      el("div", `${src} —${e.relation}→ ${dst}`, { class: "triple" }),
      el(
        "div",
        `${validity(e)} · weight ${e.weight.toFixed(2)} · confidence ${e.confidence.toFixed(2)} · ${e.mention_count} mention(s)`,
        { class: "meta" },
      ),
    );
    return item;
  }

  function sourcesList(sources) {
    const list = el("ul", null, { class: "sources" });
    for (const s of sources) {
      const link = el("a", `${s.memory_id} (v${s.version})`, {
        href: `/v1/memories/${encodeURIComponent(s.memory_id)}/history`,
        "data-memory-id": s.memory_id,
      });
      link.addEventListener("click", (event) => {
        event.preventDefault(); // the link needs the key: fetch it and show it here
        void showHistory(s.memory_id).catch(fail);
      });
      const item = el("li");
      item.append(link);
      list.append(item);
    }
    return list;
  }

  function showNode(id) {
    const memo = state.nodes.get(id);
    if (!memo) return;
    const facts = [...state.edges.values()].filter((e) => e.source === id || e.target === id);
    const details = $("details");
    details.replaceChildren(
      el("h2", memo.name),
      el(
        "p",
        `${memo.memo_type} · ${memo.mention_count} mention(s) · ${memo.origin} · ${memo.id}`,
        { class: "meta" },
      ),
    );
    if (memo.aliases?.length) details.append(el("p", `Also: ${memo.aliases.join(", ")}`));
    if (memo.description) details.append(el("p", memo.description));
    details.append(el("h3", `Facts (${facts.length})`));
    const list = el("ul", null, { class: "facts" });
    list.append(...facts.map(factItem));
    details.append(
      list,
      el("h3", `Grounded in (${memo.source_memories.length})`),
      sourcesList(memo.source_memories),
    );
  }

  function showEdge(id) {
    const e = state.edges.get(id);
    if (!e) return;
    const details = $("details");
    const list = el("ul", null, { class: "facts" });
    list.append(factItem(e));
    details.replaceChildren(
      el("h2", e.relation),
      el(
        "p",
        `${e.origin} · ${e.id}${e.superseded_by ? ` · superseded by ${e.superseded_by}` : ""}`,
        { class: "meta" },
      ),
      list,
      el("h3", `Grounded in (${e.source_memories.length})`),
      sourcesList(e.source_memories),
    );
  }

  async function showHistory(memoryId) {
    const panel = $("history");
    panel.replaceChildren(
      el("h2", `History of ${memoryId}`),
      el("p", "Loading…", { class: "meta" }),
    );
    const body = await api(`/v1/memories/${encodeURIComponent(memoryId)}/history`);
    const list = el("ol", null, { class: "versions" });
    for (const v of body.versions) {
      const item = el("li", null, { class: "version" });
      item.append(
        el(
          "div",
          `v${v.version} · ${day(v.valid_from)} → ${v.valid_to ? day(v.valid_to) : "current"}${v.deleted_at ? " · forgotten" : ""}`,
          { class: "meta" },
        ),
        el("p", v.content),
      );
      list.append(item);
    }
    panel.replaceChildren(el("h2", `History of ${memoryId}`), list);
  }

  showAgents();
  if (sessionStorage.getItem(KEY_STORAGE))
    setStatus("Key kept for this browser tab. Enter an agent id and load its graph.");
})();
