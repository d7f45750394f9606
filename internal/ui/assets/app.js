// ragraf ui: the little script the pages use. It highlights code by
// building text nodes (indexed code is never parsed as HTML), draws the graph
// views with Cytoscape.js from the positions the server computed, and wires
// the keyboard. Every page works without it; it only adds.
"use strict";

(function () {
  // "/" focuses the search box, as on many sites.
  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && !/^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName)) {
      var q = document.getElementById("q") || document.getElementById("q-top");
      if (q) { e.preventDefault(); q.focus(); q.select(); }
    }
  });

  // --- highlighting -------------------------------------------------------
  var KEYWORDS = new Set(("abstract and array as break callable case catch class clone const continue declare default do echo else elseif " +
    "empty enddeclare endfor endforeach endif endswitch endwhile enum extends final finally fn for foreach function global goto if " +
    "implements include include_once instanceof insteadof interface isset list match namespace new or print private protected public " +
    "readonly require require_once return static switch throw trait try unset use var while xor yield null true false self parent").split(" "));
  var TOKEN = /(\/\*[\s\S]*?(?:\*\/|$)|\/\/[^\n]*|#(?!\[)[^\n]*|'(?:[^'\\\n]|\\.)*'?|"(?:[^"\\\n]|\\.)*"?|\$[A-Za-z_][A-Za-z0-9_]*|\b\d+(?:\.\d+)?\b|\b[A-Za-z_][A-Za-z0-9_]*\b)/g;

  function classOf(tok) {
    var c = tok.charAt(0);
    if (tok.startsWith("/*") || tok.startsWith("//") || c === "#") return "tk-c";
    if (c === "'" || c === "\"") return "tk-s";
    if (c === "$") return "tk-v";
    if (/[0-9]/.test(c)) return "tk-n";
    if (KEYWORDS.has(tok.toLowerCase())) return "tk-k";
    return "";
  }

  // paint replaces el's text with spans; state.block says a /* comment is
  // open from an earlier line. Only textContent is read and written.
  function paint(el, state) {
    var text = el.textContent;
    var frag = document.createDocumentFragment();
    var pos = 0;
    if (state.block) {
      var end = text.indexOf("*/");
      var stop = end < 0 ? text.length : end + 2;
      span(frag, text.slice(0, stop), "tk-c");
      pos = stop;
      state.block = end < 0;
    }
    TOKEN.lastIndex = pos;
    var m;
    while ((m = TOKEN.exec(text)) !== null) {
      if (m.index > pos) frag.appendChild(document.createTextNode(text.slice(pos, m.index)));
      span(frag, m[0], classOf(m[0]));
      if (m[0].startsWith("/*") && !m[0].endsWith("*/")) state.block = true;
      pos = m.index + m[0].length;
      if (m[0].length === 0) TOKEN.lastIndex++;
    }
    if (pos < text.length) frag.appendChild(document.createTextNode(text.slice(pos)));
    el.textContent = "";
    el.appendChild(frag);
  }

  function span(frag, text, cls) {
    if (!cls) { frag.appendChild(document.createTextNode(text)); return; }
    var s = document.createElement("span");
    s.className = cls;
    s.textContent = text;
    frag.appendChild(s);
  }

  document.querySelectorAll("pre.code[data-lang=php]").forEach(function (pre) {
    var lines = pre.querySelectorAll(".line .src");
    var state = { block: false };
    if (lines.length) {
      lines.forEach(function (l) { paint(l, state); });
    } else {
      paint(pre.querySelector("code") || pre, state);
    }
  });

  // --- graphs -------------------------------------------------------------
  var host = document.getElementById("graph");
  if (!host || typeof cytoscape !== "function") return;
  var started = performance.now();
  var data = JSON.parse(host.dataset.graph);
  var api = host.dataset.api;
  var status = document.createElement("p");
  status.setAttribute("role", "status");
  status.className = "envbar";
  var grid = host.closest(".graphgrid") || host;
  grid.parentNode.insertBefore(status, grid);

  // elements are the nodes drawn (a group's members are drawn as the
  // group) and the edges between them, one per pair and provenance, with
  // how many edges it stands for.
  function elements(g, dx, dy, withBoxes) {
    var out = [];
    var groupOf = {};
    g.nodes.forEach(function (n) { if (n.group) groupOf[n.id] = n.group; });
    g.nodes.forEach(function (n) {
      if (n.box && !withBoxes) return;
      if (n.group) return;
      var d = { id: n.id, label: n.label, kind: n.kind, url: n.url, qname: n.qname, level: n.level, w: Math.max(24, n.label.length * 6.4 + 12) };
      if (n.parent && withBoxes) d.parent = n.parent;
      var el = { group: "nodes", data: d, classes: [] };
      if (n.box) el.classes.push("box");
      else el.position = { x: n.x + dx, y: n.y + dy };
      if (n.id === g.center) el.classes.push("center");
      if (n.stale) el.classes.push("stale");
      el.classes.push("k-" + n.kind);
      el.classes = el.classes.join(" ");
      out.push(el);
    });
    var edges = {};
    g.edges.forEach(function (e) {
      var s = groupOf[e.source] || e.source, t = groupOf[e.target] || e.target;
      if (s === t) return;
      var id = s + ">" + t + ":" + e.kind + ":" + e.provenance;
      if (edges[id]) { edges[id].data.n++; edges[id].data.lbl = String(edges[id].data.n); return; }
      edges[id] = { group: "edges", data: { id: id, source: s, target: t, kind: e.kind, prov: e.provenance, n: 1, lbl: "" },
        classes: e.provenance === "stated" ? "stated" : "derived" };
      out.push(edges[id]);
    });
    return out;
  }

  var cy = cytoscape({
    container: host,
    elements: elements(data, 0, 0, true),
    layout: { name: "preset", fit: true, padding: 20 },
    wheelSensitivity: 0.3,
    minZoom: 0.05,
    maxZoom: 3,
    textureOnViewport: true,
    style: [
      { selector: "node", style: { "label": "data(label)", "font-size": 11, "shape": "round-rectangle", "width": "data(w)", "height": 20,
        "padding": "4px", "text-valign": "center", "text-halign": "center", "background-color": "#e7f0fb", "border-width": 1,
        "border-color": "#5b7da6", "color": "#102a43" } },
      { selector: "node.box", style: { "background-color": "#f1f4f8", "background-opacity": 0.7, "border-color": "#c3ccd6", "label": "data(label)",
        "text-valign": "top", "text-halign": "center", "font-size": 10, "color": "#4a5360", "padding": "8px", "shape": "round-rectangle" } },
      { selector: "node.center", style: { "border-width": 3, "border-color": "#102a43", "font-weight": "bold", "background-color": "#ffe8a3" } },
      { selector: "node.k-group", style: { "background-color": "#fff4e0", "border-color": "#8a5a00", "border-width": 2 } },
      { selector: "node.k-table", style: { "background-color": "#e3f4e8", "border-color": "#2f7a47" } },
      { selector: "node.k-class, node.k-interface, node.k-trait, node.k-enum", style: { "background-color": "#efe6fb", "border-color": "#6b46c1" } },
      { selector: "node.stale", style: { "border-color": "#8a1c1c", "border-width": 2, "border-style": "dashed" } },
      { selector: "node:selected", style: { "border-color": "#ff8c00", "border-width": 3 } },
      { selector: "edge", style: { "width": 1.4, "curve-style": "straight", "target-arrow-shape": "triangle", "arrow-scale": 0.8 } },
      { selector: "edge[lbl != \"\"]", style: { "label": "data(lbl)", "font-size": 9, "color": "#4a5360", "text-background-color": "#fff", "text-background-opacity": 1 } },
      { selector: "edge.stated", style: { "line-color": "#1a5fb4", "target-arrow-color": "#1a5fb4" } },
      { selector: "edge.derived", style: { "line-color": "#b54708", "target-arrow-color": "#b54708", "line-style": "dashed" } },
      { selector: ".hidden", style: { "display": "none" } }
    ]
  });

  window.ragrafCy = cy; // for the browser tests and the console

  // filters: node kinds and edge provenance
  var filters = document.getElementById("filters");
  function addFilter(label, selector) {
    var l = document.createElement("label");
    var c = document.createElement("input");
    c.type = "checkbox";
    c.checked = true;
    c.addEventListener("change", function () {
      var els = cy.$(selector);
      if (c.checked) els.removeClass("hidden"); else els.addClass("hidden");
    });
    l.appendChild(c);
    l.appendChild(document.createTextNode(" " + label));
    filters.appendChild(l);
  }
  function buildFilters() {
    filters.textContent = "";
    var kinds = {};
    cy.nodes().not(".box").forEach(function (n) { kinds[n.data("kind")] = true; });
    Object.keys(kinds).sort().forEach(function (k) { addFilter(k, "node.k-" + k.replace(/[^A-Za-z0-9_-]/g, "")); });
    addFilter("stated edges", "edge.stated");
    addFilter("derived edges", "edge.derived");
  }
  if (filters) buildFilters();

  function selectInList(id) {
    document.querySelectorAll("#nodelist li.sel").forEach(function (li) { li.classList.remove("sel"); });
    var li = document.querySelector("#nodelist li[data-node=\"" + CSS.escape(id) + "\"]");
    if (li) { li.classList.add("sel"); li.scrollIntoView({ block: "nearest" }); }
  }

  var expanded = {};
  function expand(node) {
    var id = node.id();
    if (node.hasClass("k-group")) { window.location.href = node.data("url"); return; }
    if (!api || expanded[id] || node.hasClass("box")) return;
    expanded[id] = true;
    status.textContent = "Expanding " + node.data("qname") + "…";
    fetch(api + "?id=" + encodeURIComponent(id) + "&depth=1", { credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (g) {
        if (g.error) { status.textContent = "Cannot expand: " + g.error.message; return; }
        var p = node.position();
        var fresh = elements(g, p.x, p.y + 17, false).filter(function (el) {
          return cy.getElementById(el.data.id).empty();
        });
        cy.add(fresh);
        status.textContent = "Added " + fresh.filter(function (e) { return e.group === "nodes"; }).length + " nodes from " + node.data("qname") + ".";
        if (filters) buildFilters();
      })
      .catch(function (err) { status.textContent = "Cannot expand: " + err; });
  }

  cy.on("tap", "node", function (e) { selectInList(e.target.id()); expand(e.target); });
  cy.on("dbltap", "node", function (e) { var u = e.target.data("url"); if (u) window.location.href = u; });
  document.querySelectorAll("#nodelist li[data-node] a").forEach(function (a) {
    a.addEventListener("focus", function () {
      var n = cy.getElementById(a.parentNode.dataset.node);
      if (n.nonempty()) { cy.$(":selected").unselect(); n.select(); cy.animate({ center: { eles: n } }, { duration: 150 }); }
    });
  });

  cy.ready(function () {
    requestAnimationFrame(function () {
      var ms = performance.now() - started;
      document.body.dataset.graphReady = String(Math.round(performance.now()));
      status.textContent = cy.nodes().not(".box").length + " nodes, " + cy.edges().length + " edges, drawn in " + Math.round(ms) + " ms.";
    });
  });
})();
