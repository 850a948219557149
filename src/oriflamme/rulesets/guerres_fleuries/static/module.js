/* Oriflamme — Les Guerres Fleuries' browser module: the battle on the 180 × 120 cm table.
 *
 * Loaded by the generic game page (web/static/play.js) from
 * /static/rulesets/guerres-fleuries/module.js; `mount(containers, core, view)` returns the
 * controller documented there. It draws the table seen from above (terrain polygons and lines,
 * the deployment zones, a 10 cm grid), the units as rotated base rectangles (characters as
 * round bases) with their figures, markers and order chits, and the 11 phases of the turn on
 * the phase bar with their citations. Tools: a measuring tape (drag on the table), the selected
 * unit's arcs, its movement preview (the allowance, the distance left and the terrain penalties,
 * the server's ruling on the chosen spot), the fire and charge percentages before any roll, and
 * the orders: chosen in secret, shown face down to the other side until phase 4, with a
 * "pass the screen" cover between the two sides' entries in a hot-seat game. The actions that carry
 * a place or a target are picked on the table too (a spell's target unit or building, the jump of
 * *Vol d'Ehecatl*, a flank march's entry point, a hiding unit's place): the click fills the action,
 * the server's ruling is shown, the player confirms; the list and typed fields stay as a fallback.
 *
 * It computes no rule: what a unit may do comes from `view.options` (the server's options()),
 * every preview is the server's `/explain`, every action committed is built from those options.
 * The view's shape is docs/guerres-fleuries/battle.md's (gf-engine); texts are in English and
 * French (the page's language switch).
 */
const NS = "http://www.w3.org/2000/svg";
const COLOURS = { A: "#a3242b", B: "#1f4f99" };
// the engine's markers (battle/state.py, gf-combat): the seed's red, green and yellow (disorder) counters and the
// states a unit carries from one phase to the next
const MARKERS = { red: "#d62d20", green: "#2e8b3a", disorder: "#f1c40f", yellow: "#f1c40f", counter_charge: "#8e44ad",
  uncontrolled_advance: "#e67e22", rout_continues: "#1b1b1b", routed_in_melee: "#5d4037", stunned: "#7f8c8d", pursuing: "#c0392b" };
const MARGIN = 7;
const GONE = ["removed", "dead", "destroyed", "fled"];

// terrain drawing by kind (matched on the kind's words: the data names them, gf-geom's terrain.toml)
const TERRAIN_STYLE = [
  [/stream|river|ford|water|ruisseau|riviere|gue/, { line: "#3d7fc4", width: 1.6, fill: "#a9c9e8" }],
  [/pont|bridge/, { line: "#7a5230", width: 2.6, fill: "#b89a70" }],
  [/road|route|path/, { line: "#a58b62", width: 2.2, fill: "#d8c7a0" }],
  [/hedge|haie/, { line: "#3f6b2e", width: 1.1, fill: "#b8cf98", dash: "1.2 0.6" }],
  [/wall|mur|cloture|fence/, { line: "#7d7466", width: 1.0, fill: "#d6cdb8" }],
  [/falaise|cliff/, { line: "#5a4a32", width: 1.2, fill: "#9b8a6e" }],
  [/steep|abrupte/, { fill: "#bfa26a", line: "#8a6d3b", width: 0.5, dash: "2 1" }],
  [/hill|colline/, { fill: "#d6c08a", line: "#a08450", width: 0.4, dash: "2 1" }],
  [/jungle/, { fill: "#5f8f4e", line: "#3f6b2e", width: 0.4 }],
  [/wood|forest|bois|foret/, { fill: "#86ad6e", line: "#4f7a3a", width: 0.4 }],
  [/marsh|swamp|marais|marecage|bournier|bog/, { fill: "#a9c2b4", line: "#6d8f80", width: 0.4, dash: "1 1" }],
  [/field|champ|crop/, { fill: "#e8dc98", line: "#b8a85a", width: 0.3 }],
  [/hamlet|village|building|construction|temple|house|hameau|pyramid/, { fill: "#c5a585", line: "#6b4f36", width: 0.5 }],
  [/broussailles|scrub/, { fill: "#c9c08f", line: "#7f7a4e", width: 0.4, dash: "0.5 1" }],
  [/broken|rough|rock|accident|irregulier/, { fill: "#cbbb9a", line: "#8f7f62", width: 0.4, dash: "0.5 1" }],
];
function terrainStyle(kind) {
  const k = String(kind || "").toLowerCase();
  for (const [re, s] of TERRAIN_STYLE) if (re.test(k)) return s;
  return { fill: "#d8ccb0", line: "#8f7f62", width: 0.4 };
}

function svg(tag, attrs, ...kids) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v);
  for (const k of kids) if (k !== null && k !== undefined) e.appendChild(typeof k === "string" ? document.createTextNode(k) : k);
  return e;
}
const pts = (list) => list.map((p) => `${(+p[0]).toFixed(2)},${(+p[1]).toFixed(2)}`).join(" ");
const rad = (deg) => (deg * Math.PI) / 180;
// heading: 0 = facing y = 0 (side B's edge), clockwise (docs/guerres-fleuries/battle.md)
const forward = (h) => [Math.sin(rad(h)), -Math.cos(rad(h))];
const rightOf = (h) => [Math.cos(rad(h)), Math.sin(rad(h))];
const fmtCm = (d) => (Math.round(d * 10) / 10).toFixed(1);

/** The four corners of a base rectangle [front-left, front-right, rear-right, rear-left]. */
export function baseCorners(x, y, heading, width, depth) {
  const f = forward(heading), r = rightOf(heading);
  const hw = width / 2, hd = depth / 2;
  const at = (a, b) => [x + r[0] * a + f[0] * b, y + r[1] * a + f[1] * b];
  return [at(-hw, hd), at(hw, hd), at(hw, -hd), at(-hw, -hd)];
}

export async function mount(containers, core, view) {
  const { el, fr, pct, sideName, citesOf, citeChips } = core;
  const L = (en, frTxt) => (fr() ? frTxt : en);
  const nameOf = (o) => (o ? (fr() ? o.name_fr || o.name : o.name || o.name_fr) : "");
  const st = {
    selected: null,       // a unit id
    tool: "select",       // "select" | "tape"
    tape: null,           // {a: [x, y], b: [x, y]}
    hover: null,          // the pointer on the table, cm
    dest: null,           // the chosen destination of the selected unit: {x, y, heading}
    preview: null,        // the server's ruling shown in the preview card
    draft: {},            // this side's orders being chosen: uid -> {order, target} (a fire order: targets, up to 3)
    firePlan: {},
    ambush: false,        // an encounter battle: the selected unit is being placed in ambush (GF-K3, l.485)
    base: null,           // an encounter battle: the own decoy base being placed (GF-K5), and its chosen spot
    baseDest: null,         // the server's ruling on each drafted fire order: uid -> {key, r} (POST /explain)
    ack: null,            // hot seat: the side that took the screen for the current secret entry
    showArcs: true,
    detail: null,         // the server's percentages for the selected unit: {key, fire, melee} (GET /moves/<unit>)
    // an action with a place or a target picked on the table (clickToPlace): {kind: "cast" | "flank" | "hide",
    // unit, spell, target, x, y, heading, edge, turn}; the server rules on it (POST /explain) before it is committed
    pick: null,
    get view() { return core.state.view; },
  };

  if (!document.getElementById("gf-battle-css")) {
    document.head.appendChild(el("link", { id: "gf-battle-css", rel: "stylesheet", href: "/static/rulesets/guerres-fleuries/battle.css" }));
  }

  /* --- the containers ------------------------------------------------------------------------ */
  containers.board.innerHTML = "";
  const box = el("div", { class: "board gf-board", testid: "board", id: "board" });
  const tools = el("div", { class: "gf-tools", testid: "gf-tools" });
  const stage = el("div", { class: "gf-stage" });
  const cover = el("div", { class: "gf-cover", testid: "gf-cover", hidden: true });
  box.append(tools, stage, cover);
  containers.board.appendChild(box);
  containers.panel.innerHTML = "";
  const unitCard = el("section", { class: "card gf-unit", testid: "gf-unit" });
  const ordersCard = el("section", { class: "card gf-orders", testid: "gf-orders", hidden: true });
  const actionsCard = el("section", { class: "card prompts gf-actions", testid: "gf-actions", hidden: true });
  const previewCard = el("section", { class: "card preview gf-preview", testid: "gf-preview", hidden: true });
  const rosterCard = el("details", { class: "card gf-roster", testid: "gf-roster" });
  containers.panel.append(ordersCard, unitCard, previewCard, actionsCard, rosterCard);

  /* --- what the view says ------------------------------------------------------------------------ */
  const v = () => st.view;
  const opts = () => (v().options || {});
  const unitOpts = (uid) => ((opts().units || {})[uid]) || null;
  const generic = () => (opts().actions || []);
  function labelOf(o) {
    if (o.label) return fr() ? o.label_fr || o.label : o.label;
    const a = o.action, u = a.unit && unitOf(a.unit), n = u ? u.name : a.unit;
    switch (a.type) {
      case "command_test": return L(`Command test: ${n}`, `Test de commandement : ${n}`);
      case "place": return L(`Place ${n} at (${fmtCm(a.x)}, ${fmtCm(a.y)})`, `Placer ${n} en (${fmtCm(a.x)}, ${fmtCm(a.y)})`);
      case "move": return L(`Move ${n} to (${fmtCm(a.x)}, ${fmtCm(a.y)}), ${Math.round(a.heading)}°`, `Déplacer ${n} en (${fmtCm(a.x)}, ${fmtCm(a.y)}), ${Math.round(a.heading)}°`);
      case "end_phase": return phaseId(v()) === "deployment" ? L("Deployment done", "Déploiement terminé") : L("End the phase", "Terminer la phase");
      default: return a.type.replace(/_/g, " ") + (n ? " — " + n : "");
    }
  }
  const mySide = () => (v().seat && v().seat !== "hotseat" ? v().seat : v().to_act);
  const colourOf = (side) => COLOURS[side] || "#555";
  const phaseId = (view) => (view.phase && (view.phase.id || view.phase)) || "";
  // phase 3 of the seed's turn: the secret orders (by its number, or an id naming the orders)
  const isOrders = (view) => (view.phase && view.phase.number === 3) ||
    (/order/.test(String(phaseId(view))) && !/reveal/.test(String(phaseId(view))));
  const orderableUnits = () => Object.entries(opts().units || {}).filter(([, o]) => (o.orders || []).length);
  const positions = () => {
    const f = core.frame();
    const units = (v().units || []).map((u) => ({ ...u }));
    // a replay frame moves the units: their corners are then drawn from the frame's pose
    if (f && Array.isArray(f.units)) for (const p of f.units) {
      const u = units.find((x) => x.id === p.id);
      if (u) { Object.assign(u, p); if (!p.corners) delete u.corners; }
    }
    return units.filter((u) => !GONE.includes(u.status) && u.x !== null && u.x !== undefined);
  };
  const unitOf = (id) => (v().units || []).find((u) => u.id === id);
  const cornersOf = (u) => (Array.isArray(u.corners) && u.corners.length === 4 ? u.corners
    : baseCorners(u.x, u.y, u.heading || 0, u.width || 4, u.depth || 2));
  // an encounter battle's deployment is written on each side's battle plan, unseen (l.491-507, OR-GF100)
  const secretPlan = (view) => !!(view.encounter && phaseId(view) === "deployment");
  const secretStep = (view) => isOrders(view) || !!view.writing_battle_orders || secretPlan(view);
  // hot seat: between the two sides' secret entries, the screen changes hands
  const covered = () => {
    const view = v();
    return !core.state.replay && view.mode === "hotseat" && view.can_act && secretStep(view) && st.ack !== view.to_act;
  };

  /* --- the table --------------------------------------------------------------------------------- */
  function toTable(svgEl, ev) {
    const p = svgEl.createSVGPoint();
    p.x = ev.clientX; p.y = ev.clientY;
    const m = svgEl.getScreenCTM();
    if (!m) return null;
    const q = p.matrixTransform(m.inverse());
    return [q.x, q.y];
  }

  function drawTable() {
    const view = v();
    const T = view.table || { width: 180, height: 120, terrain: [], zones: {} };
    const W = T.width || 180, H = T.height || 120;
    const root = svg("svg", { class: "gf-svg", viewBox: `${-MARGIN} ${-MARGIN} ${W + 2 * MARGIN} ${H + 2 * MARGIN}`,
      "data-testid": "gf-svg", preserveAspectRatio: "xMidYMid meet", role: "img",
      "aria-label": L(`The table, ${W} × ${H} cm`, `La table, ${W} × ${H} cm`) });
    const defs = svg("defs", {},
      svg("pattern", { id: "gf-trees", width: 4, height: 4, patternUnits: "userSpaceOnUse" },
        svg("circle", { cx: 2, cy: 2, r: 1.1, fill: "#4f7a3a", opacity: 0.55 })),
      svg("pattern", { id: "gf-reeds", width: 3, height: 3, patternUnits: "userSpaceOnUse" },
        svg("path", { d: "M0.5,2.5 h2", stroke: "#5d7f70", "stroke-width": 0.3 })));
    root.appendChild(defs);
    root.appendChild(svg("rect", { x: 0, y: 0, width: W, height: H, fill: "#e9e0c6", stroke: "#5a4a32", "stroke-width": 0.6,
      "data-testid": "gf-table" }));
    // the grid: 10 cm squares, labels every 30 cm on the edges
    const grid = svg("g", { class: "gf-grid", "pointer-events": "none" });
    for (let x = 10; x < W; x += 10) grid.appendChild(svg("line", { x1: x, y1: 0, x2: x, y2: H, stroke: "#cdbf9c", "stroke-width": x % 30 ? 0.12 : 0.25 }));
    for (let y = 10; y < H; y += 10) grid.appendChild(svg("line", { x1: 0, y1: y, x2: W, y2: y, stroke: "#cdbf9c", "stroke-width": y % 30 ? 0.12 : 0.25 }));
    for (let x = 0; x <= W; x += 30) grid.appendChild(svg("text", { x, y: -2, "font-size": 2.4, "text-anchor": "middle", fill: "#6d5a3e" }, `${x}`));
    for (let y = 0; y <= H; y += 30) grid.appendChild(svg("text", { x: -2, y: y + 0.8, "font-size": 2.4, "text-anchor": "end", fill: "#6d5a3e" }, `${y}`));
    grid.appendChild(svg("text", { x: W + 1.2, y: -2, "font-size": 2.2, fill: "#6d5a3e" }, "cm"));
    root.appendChild(grid);
    // deployment zones
    for (const [side, poly] of Object.entries(T.zones || {})) {
      if (!Array.isArray(poly) || poly.length < 3) continue;
      root.appendChild(svg("polygon", { points: pts(poly), fill: colourOf(side), opacity: 0.07, stroke: colourOf(side),
        "stroke-width": 0.4, "stroke-dasharray": "2 1.5", "data-testid": "gf-zone-" + side, "pointer-events": "none" },
        svg("title", {}, L(`Deployment zone of ${sideName(side)}`, `Zone de déploiement de ${sideName(side)}`))));
    }
    // terrain: areas first, then lines (streams, roads, hedges) above them
    const terrain = (T.terrain || []).slice().sort((a, b) => (a.shape === "line") - (b.shape === "line"));
    for (const t of terrain) {
      if (!Array.isArray(t.points) || t.points.length < 2) continue;
      const s = terrainStyle(t.kind);
      const title = svg("title", {}, `${nameOf(t) || t.kind}${t.kind && nameOf(t) !== t.kind ? " (" + t.kind + ")" : ""}${t.ref ? " — " + t.ref : ""}`);
      if (t.shape === "line") {
        const g = svg("g", { "data-testid": "gf-terrain", "data-kind": t.kind, "data-id": t.id });
        g.appendChild(svg("polyline", { points: pts(t.points), fill: "none", stroke: s.line, "stroke-width": s.width,
          "stroke-linecap": "round", "stroke-linejoin": "round", "stroke-dasharray": s.dash || null }, title));
        root.appendChild(g);
      } else {
        const g = svg("g", { "data-testid": "gf-terrain", "data-kind": t.kind, "data-id": t.id });
        g.appendChild(svg("polygon", { points: pts(t.points), fill: s.fill, stroke: s.line, "stroke-width": s.width,
          "stroke-dasharray": s.dash || null }, title));
        const k = String(t.kind || "").toLowerCase();
        if (/wood|forest|jungle|bois/.test(k)) g.appendChild(svg("polygon", { points: pts(t.points), fill: "url(#gf-trees)", "pointer-events": "none" }));
        if (/marsh|swamp|marais|marecage|bournier/.test(k)) g.appendChild(svg("polygon", { points: pts(t.points), fill: "url(#gf-reeds)", "pointer-events": "none" }));
        const [cx, cy] = centroid(t.points);
        g.appendChild(svg("text", { x: cx, y: cy, "font-size": 2.3, "text-anchor": "middle", fill: "#3b2d20", opacity: 0.75,
          "pointer-events": "none", "font-style": "italic" }, nameOf(t) || t.kind));
        root.appendChild(g);
      }
    }
    // buildings' state (material, floors, damage, fire; GF seed 003 l.800-816) and dead monsters' bodies (l.889)
    for (const b of T.buildings || []) {
      const t = (T.terrain || []).find((x) => x.id === b.id);
      if (!t) continue;
      const [cx] = centroid(t.points);
      const top = Math.min(...t.points.map((p) => +p[1]));   // written above the roof: an occupant covers the building
      const dmg = b.defence != null ? ` ${b.damage}/${b.defence}` : "";
      const label = `${b.floors}${L("F", "É")}${dmg}${b.burning ? " " + L("burning", "en feu") : ""}${b.destroyed ? " " + L("ruins", "ruines") : ""}`;
      root.appendChild(svg("text", { x: cx, y: top - 0.7, "font-size": 1.8, "text-anchor": "middle", fill: b.burning ? "#b03a2e" : "#3b2d20",
        "data-testid": "gf-building", "data-id": b.id },
        svg("title", {}, L(`${b.material_name}, ${b.floors} floor(s), defence ${b.defence_dice}${dmg ? ", damage" + dmg : ""} — ${b.ref}`,
          `${b.material_name_fr}, ${b.floors} étage(s), défense ${b.defence_dice}${dmg ? ", dégâts" + dmg : ""} — ${b.ref}`)), label));
    }
    for (const k of T.carcasses || []) {
      root.appendChild(svg("polygon", { points: pts(k.points), fill: "#4a2f1d", opacity: 0.8, "data-testid": "gf-carcass" },
        svg("title", {}, L(`The body of ${k.name}: impassable (${k.ref})`, `Le corps de ${k.name} : infranchissable (${k.ref})`))));
    }
    const movesLayer = svg("g", { class: "gf-moves" });
    root.appendChild(movesLayer);
    // an encounter battle's movement bases (GF-K5, OR-GF101): the enemy's are anonymous counters,
    // one's own are outlined (a decoy says so); the server decides what each side sees
    const basesLayer = svg("g", { class: "gf-bases" });
    root.appendChild(basesLayer);
    basesGhost = null;
    if (!covered()) for (const b of (view.bases || [])) basesLayer.appendChild(drawBase(b));
    if (basesGhost) basesLayer.appendChild(basesGhost);
    const unitsLayer = svg("g", { class: "gf-units" });
    root.appendChild(unitsLayer);
    const chitLayer = svg("g", { class: "gf-chits" });     // the order chits, never hidden under a unit
    root.appendChild(chitLayer);
    const ghostLayer = svg("g", { class: "gf-ghosts" });   // the selected unit's destinations, above the units
    root.appendChild(ghostLayer);
    if (!covered()) {
      const units = positions();
      const sel = units.find((u) => u.id === st.selected);
      if (sel && st.showArcs) drawArcs(movesLayer, sel);
      if (sel && st.showArcs) drawFireArc(movesLayer, sel);
      for (const b of v().brigades || []) { const o = drawBrigade(b, units); if (o) unitsLayer.appendChild(o); }
      for (const u of units) if (u !== sel) unitsLayer.appendChild(drawUnit(u));
      if (sel) unitsLayer.appendChild(drawUnit(sel));  // the selected unit last: on top
      for (const u of units) { const c = orderChit(u); if (c) chitLayer.appendChild(c); }
      if (sel && !st.pick) drawMoves(ghostLayer, sel);
      drawPick(ghostLayer);
    }
    const tapeLayer = svg("g", { class: "gf-tape", "pointer-events": "none", "data-testid": "gf-tape-layer" });
    root.appendChild(tapeLayer);
    drawTape(tapeLayer);
    bindTable(root, tapeLayer);
    stage.innerHTML = "";
    stage.appendChild(root);
  }

  let basesGhost = null;   // the chosen spot of the decoy base being placed
  function drawBase(b) {
    const own = "decoy" in b;
    const pick = own && placeableBase(b.id);
    const g = svg("g", { "data-testid": "gf-base-" + b.id, "data-base": b.id, "data-side": b.side,
      "pointer-events": own && !pick ? "none" : null, cursor: pick ? "pointer" : null, class: st.base === b.id ? "gf-base-sel" : null });
    if (pick) g.addEventListener("click", (e) => { e.stopPropagation(); st.base = st.base === b.id ? null : b.id; st.baseDest = null;
      st.selected = null; st.dest = null; st.preview = null; core.render(); });
    const c = Array.isArray(b.corners) && b.corners.length === 4 ? b.corners : baseCorners(b.x, b.y, b.heading || 0, b.width, b.depth);
    if (st.base === b.id && st.baseDest) {
      const ok = !(st.preview && st.preview.legal === false);
      basesGhost = svg("polygon", { points: pts(baseCorners(st.baseDest.x, st.baseDest.y, b.heading || 0, b.width, b.depth)),
        fill: ok ? "#1a7f37" : "#a3242b", "fill-opacity": 0.3, stroke: ok ? "#1a7f37" : "#a3242b", "stroke-width": 0.4,
        "pointer-events": "none", "data-testid": "gf-base-dest" });
    }
    const title = own
      ? (b.decoy ? L(`Decoy base ${b.id}`, `Base leurre ${b.id}`) : L(`Movement base ${b.id}: ${b.unit}`, `Base de mouvement ${b.id} : ${b.unit}`))
      : L(`Movement base of ${sideName(b.side)}: what it carries is hidden`, `Base de mouvement de ${sideName(b.side)} : son contenu est caché`);
    g.appendChild(svg("polygon", { points: pts(c), fill: own ? (pick ? "#fffbe9" : "none") : colourOf(b.side),
      "fill-opacity": own ? (pick ? (st.base === b.id ? 0.9 : 0.5) : null) : 0.35,
      stroke: colourOf(b.side), "stroke-width": 0.5, "stroke-dasharray": "1.2 0.8" }, svg("title", {}, `${title}${b.ref ? " — " + b.ref : ""}`)));
    if (!own || b.decoy) {
      g.appendChild(svg("text", { x: b.x, y: b.y + 0.9, "font-size": 2.4, "text-anchor": "middle", fill: "#222", "pointer-events": "none" },
        own ? L("decoy", "leurre") : "?"));
    }
    return g;
  }

  function centroid(points) {
    let x = 0, y = 0;
    for (const p of points) { x += +p[0]; y += +p[1]; }
    return [x / points.length, y / points.length];
  }

  // a brigade (GF l.440-448): a dashed outline around its units and its character, named after him;
  // the server says who stands in it (the view's brigades), the page draws no rule
  function drawBrigade(b, units) {
    if (core.state.replay || b.dissolved || (b.units || []).length < 2) return null;  // a frame has no brigades
    const members = units.filter((u) => b.units.includes(u.id) || u.id === b.character);
    if (!members.length) return null;
    const pts_ = members.flatMap((u) => u.kind === "character" ? [[u.x, u.y]] : cornersOf(u));
    const xs = pts_.map((p) => +p[0]), ys = pts_.map((p) => +p[1]);
    const x0 = Math.min(...xs) - 1.2, y0 = Math.min(...ys) - 1.2, x1 = Math.max(...xs) + 1.2, y1 = Math.max(...ys) + 1.2;
    const chief = units.find((u) => u.id === b.character);
    const g = svg("g", { class: "gf-brigade", "data-testid": "gf-brigade-" + b.character, "pointer-events": "none" },
      svg("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, fill: "none", stroke: colourOf(b.side),
        "stroke-width": 0.35, "stroke-dasharray": "1.6 0.8", rx: 1 }),
      svg("text", { x: x0 + 0.6, y: y0 - 0.5, "font-size": 1.8, fill: colourOf(b.side), "font-weight": 700 },
        L("Brigade ", "Brigade ") + shortName(chief ? chief.name : b.character)),
      svg("title", {}, L("Brigade of ", "Brigade de ") + (chief ? chief.name : b.character) + " — GF l.440-448"));
    return g;
  }

  function drawUnit(u) {
    const side = u.side;
    const sel = u.id === st.selected;
    const g = svg("g", { class: "gf-unit-g", "data-testid": "gf-unit-" + u.id, "data-unit": u.id, "data-side": side, cursor: "pointer" });
    const fill = colourOf(side);
    const isChar = u.kind === "character";
    if (isChar) {
      const r = Math.max(1.2, Math.max(u.width || 2.5, u.depth || 2.5) / 2);
      g.appendChild(svg("circle", { cx: u.x, cy: u.y, r, fill: "#f4d03f", stroke: fill, "stroke-width": sel ? 0.9 : 0.6 }));
      const f = forward(u.heading || 0);
      g.appendChild(svg("line", { x1: u.x, y1: u.y, x2: u.x + f[0] * r, y2: u.y + f[1] * r, stroke: fill, "stroke-width": 0.5 }));
    } else if (u.inside) {
      // in a building (OR-GF81): the unit fills it; drawn only for its own side while hidden (the view says)
      const c = Array.isArray(u.corners) ? u.corners : cornersOf(u);
      g.appendChild(svg("polygon", { points: pts(c), fill, "fill-opacity": 0.45, stroke: sel ? "#f1c40f" : fill,
        "stroke-width": sel ? 0.8 : 0.5, "stroke-dasharray": u.hidden ? "1.2 0.8" : null, "data-testid": "gf-inside" },
        svg("title", {}, u.hidden ? L("Hidden in the building (GF seed 003 l.784)", "Cachée dans le bâtiment (GF seed 003 l.784)")
          : L("In the building (GF seed 003 l.792)", "Dans le bâtiment (GF seed 003 l.792)"))));
    } else {
      const c = cornersOf(u);
      if (u.altitude) {   // in the air: a shadow on the ground below, farther at flight altitude
        const off = u.altitude === "flight" ? 2.2 : 1.1;
        g.appendChild(svg("polygon", { points: pts(c.map(([x, y]) => [x + off, y + off])), fill: "#000", "fill-opacity": 0.22,
          "data-testid": "gf-shadow", "pointer-events": "none" }));
      }
      g.appendChild(svg("polygon", { points: pts(c), fill, "fill-opacity": u.kind === "monster" || u.kind === "creature" ? 0.75 : 0.9,
        stroke: sel ? "#f1c40f" : "#1b1b1b", "stroke-width": sel ? 0.7 : 0.25,
        "stroke-dasharray": u.disorder ? "1 0.6" : null }));
      // the front edge, drawn light: which way the unit faces
      g.appendChild(svg("line", { x1: c[0][0], y1: c[0][1], x2: c[1][0], y2: c[1][1], stroke: "#fff7d6", "stroke-width": 0.55,
        "stroke-linecap": "round", "data-testid": "gf-front" }));
      // rank lines
      const ranks = Math.max(1, u.ranks || 1);
      for (let i = 1; i < Math.min(ranks, 8); i++) {
        const k = i / ranks;
        const a = [c[0][0] + (c[3][0] - c[0][0]) * k, c[0][1] + (c[3][1] - c[0][1]) * k];
        const b = [c[1][0] + (c[2][0] - c[1][0]) * k, c[1][1] + (c[2][1] - c[1][1]) * k];
        g.appendChild(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#000", "stroke-opacity": 0.25, "stroke-width": 0.12 }));
      }
    }
    // the label: a short name and the figures, kept upright
    const short = isChar ? shortName(u.name).slice(0, 5) : shortName(u.name);
    const fig = u.figures_max && u.figures_max !== u.figures ? `${u.figures}/${u.figures_max}` : `${u.figures ?? ""}`;
    // characters side by side: their names alternate above and below their bases
    const below = isChar && (v().units || []).filter((x) => x.kind === "character").findIndex((x) => x.id === u.id) % 2 === 1;
    const rr = Math.max(u.width || 2.5, u.depth || 2.5) / 2;
    const ty = isChar ? (below ? u.y + rr + 2.2 : u.y - rr - 0.8) : u.y + 0.8;
    g.appendChild(svg("text", { x: u.x, y: ty, "font-size": isChar ? 1.9 : 2.5, "text-anchor": "middle",
      fill: isChar ? "#1b1b1b" : "#fff", "font-weight": 700, "paint-order": "stroke", stroke: isChar ? "#fffbe9" : "rgba(0,0,0,.35)",
      "stroke-width": isChar ? 0.5 : 0.25, "pointer-events": "none", "data-testid": "gf-label" },
      isChar ? short : `${short} ${fig}`));
    // markers: red (failed command), green (moved in phase 1), yellow (disorder), counter-charge
    const marks = (u.markers || []).slice();
    if (u.disorder && !marks.includes("disorder") && !marks.includes("yellow")) marks.push("disorder");
    marks.forEach((m, i) => {
      const c = isChar ? [[u.x + 1.5, u.y - 1.5]] : cornersOf(u);
      const [mx, my] = c[0];
      g.appendChild(svg("circle", { cx: mx + 0.9 + i * 1.7, cy: my - 0.9, r: 0.75, fill: MARKERS[m] || "#777", stroke: "#1b1b1b",
        "stroke-width": 0.15, "data-testid": "gf-marker-" + m }, svg("title", {}, markerName(m))));
    });
    g.appendChild(svg("title", {}, unitTitle(u)));
    g.addEventListener("click", (e) => {
      e.stopPropagation();
      if (st.tool === "tape") return;
      if (st.pick && !core.state.replay) { pickUnit(u, e); return; }
      st.selected = st.selected === u.id ? null : u.id;
      st.dest = null; st.preview = null; st.base = null; st.baseDest = null; st.ambush = false; st.pick = null;
      core.render();
    });
    return g;
  }

  const shortName = (name) => {
    const s = String(name || "");
    const w = s.split(/[ ,]+/).filter(Boolean);
    const t = w.length > 1 && w[0].length < 4 ? w.slice(0, 2).join(" ") : w[0] || s;
    return t.length > 11 ? t.slice(0, 10) + "…" : t;
  };

  function markerName(m) {
    return {
      red: L("red: failed its command test (automatic move in phase 7)", "rouge : test de commandement raté (mouvement automatique en phase 7)"),
      green: L("green: moved in phase 1", "vert : a bougé en phase 1"),
      yellow: L("yellow: in disorder", "jaune : en désordre"),
      disorder: L("yellow: in disorder", "jaune : en désordre"),
      counter_charge: L("counter-charge", "contre-charge"),
      uncontrolled_advance: L("uncontrolled advance", "avance incontrôlée"),
      rout_continues: L("routing: goes on routing", "en déroute : continue de fuir"),
      routed_in_melee: L("routed in melee: cannot be rallied before phase 11 of the next turn", "en déroute après la mêlée : pas de ralliement avant la phase 11 du tour suivant"),
      stunned: L("stunned", "étourdi"),
      pursuing: L("pursuing", "en poursuite"),
    }[m] || m;
  }

  function unitTitle(u) {
    const lines = [`${u.name} — ${sideName(u.side)}`,
      `${kindName(u.kind)}${u.type ? " · " + u.type : ""}${u.class ? " · " + L("class", "classe") + " " + u.class : ""}`,
      `${L("figures", "figurines")} ${u.figures}${u.figures_max ? "/" + u.figures_max : ""} · ${formationName(u.formation)}` +
        (u.frontage ? ` · ${u.frontage} × ${u.ranks}` : ""),
      `(${fmtCm(u.x)}, ${fmtCm(u.y)}) · ${L("heading", "orientation")} ${Math.round(u.heading || 0)}°`];
    if (u.disorder) lines.push(L("in disorder", "en désordre"));
    if (u.altitude) lines.push(altitudeName(u.altitude));
    if (u.order && !u.order_hidden) lines.push(`${L("order", "ordre")}: ${nameOf(u.order)}`);
    else if (u.order_hidden) lines.push(L("order: face down", "ordre : face cachée"));
    return lines.join("\n");
  }

  const altitudeName = (a) => ({ combat: L("combat altitude", "altitude de combat"), flight: L("flight altitude", "altitude de vol") }[a] || a || "");
  const kindName = (k) => ({ troop: L("troop", "troupe"), character: L("character", "personnage"),
    creature: L("creature", "créature"), monster: L("monster", "monstre") }[k] || k || "");
  const formationName = (f) => ({ line: L("line", "ligne"), column: L("column", "colonne"),
    open: L("open order", "ordre ouvert"), open_order: L("open order", "ordre ouvert"), close: L("close order", "ordre serré") }[f] || f || "");

  // the order chit beside the unit's rear: face up for its own side (or after the reveal), face
  // down ("?") for the other side; a draft (chosen, not yet submitted) is dashed
  function orderChit(u) {
    if (core.frame()) return null;   // a replay frame carries no orders
    const draft = st.draft[u.id];
    let label = null, hidden = false, dashed = false, title = "";
    if (u.order_hidden) { hidden = true; title = L("order given, face down until phase 4", "ordre donné, face cachée jusqu'à la phase 4"); }
    else if (u.order) { label = chitText(u.order); title = `${L("order", "ordre")}: ${nameOf(u.order)}${aimedAt(u.order)}`; }
    else if (draft && isOrders(v()) && u.side === mySide()) {
      const o = orderChoices(u.id).find((x) => x.id === draft.order);
      label = chitText(o || { id: draft.order }); dashed = true;
      title = `${L("chosen, not yet given", "choisi, pas encore donné")}: ${nameOf(o) || draft.order}`;
    }
    if (!label && !hidden) return null;
    const c = u.kind === "character" ? [[u.x - 1.5, u.y + 1.5], [u.x + 1.5, u.y + 1.5], [u.x + 1.5, u.y + 1.5], [u.x - 1.5, u.y + 1.5]] : cornersOf(u);
    const b = forward(u.heading || 0);
    const mx = (c[2][0] + c[3][0]) / 2 - b[0] * 2.4, my = (c[2][1] + c[3][1]) / 2 - b[1] * 2.4;
    const g = svg("g", { "data-testid": hidden ? "gf-chit-hidden" : "gf-chit", "data-unit": u.id, class: "gf-chit" });
    g.appendChild(svg("rect", { x: mx - 2.2, y: my - 1.5, width: 4.4, height: 3, rx: 0.4,
      fill: hidden ? "#3b2d20" : "#fffbe9", stroke: hidden ? "#1b1b1b" : colourOf(u.side), "stroke-width": 0.3,
      "stroke-dasharray": dashed ? "0.8 0.5" : null }));
    g.appendChild(svg("text", { x: mx, y: my + 0.8, "font-size": 2.0, "text-anchor": "middle", "font-weight": 700,
      fill: hidden ? "#e0b23c" : "#1b1b1b", "pointer-events": "none" }, hidden ? "?" : label));
    g.appendChild(svg("title", {}, title));
    return g;
  }
  const chitText = (o) => String((fr() ? o.short_fr || o.short : o.short) || nameOf(o) || o.id || "").slice(0, 3).toUpperCase();
  const DIRECTIONS = { left: ["left", "gauche"], right: ["right", "droite"], out: ["out of the building", "hors du bâtiment"] };
  // a target is a unit, a direction, or (casser sa formation) a building of the table
  const buildingOf = (id) => ((v().table || {}).terrain || []).find((x) => x.id === id);
  // an order's target(s): a fire order may announce up to three (l.840)
  const aimedAt = (o) => { const ts = (o.targets && o.targets.length ? o.targets : (o.target ? [o.target] : []));
    return ts.length ? " → " + ts.map(targetName).join(", ") : ""; };
  const targetName = (id) => { const t = unitOf(id); if (t) return t.name; if (DIRECTIONS[id]) return L(...DIRECTIONS[id]);
    const b = buildingOf(id); return b ? nameOf(b) : id; };

  // arcs (OR-GF20, gf-geom's tabletop.arc_of): the footprint's two diagonals, extended, cut the
  // plane into the front, right, rear and left arcs; the front arc is shaded
  function drawArcs(layer, u) {
    if (u.kind === "character") return;
    const c = cornersOf(u), h = u.heading || 0, len = 60;
    const ray = (p) => { const dx = p[0] - u.x, dy = p[1] - u.y, n = Math.hypot(dx, dy) || 1;
      return [u.x + dx / n * len, u.y + dy / n * len]; };
    const far = c.map(ray);
    const g = svg("g", { "data-testid": "gf-arcs", "pointer-events": "none" });
    g.appendChild(svg("polygon", { points: pts([[u.x, u.y], far[0], far[1]]), fill: "#f1c40f", opacity: 0.16 }));
    for (const q of far) g.appendChild(svg("line", { x1: u.x, y1: u.y, x2: q[0], y2: q[1], stroke: "#6d5a3e",
      "stroke-width": 0.2, "stroke-dasharray": "1 1" }));
    const lab = (deg, d, txt) => { const f = forward(deg); return svg("text", { x: u.x + f[0] * d, y: u.y + f[1] * d, "font-size": 2,
      "text-anchor": "middle", fill: "#6d5a3e" }, txt); };
    const half = Math.max(u.width || 4, u.depth || 2) / 2;
    g.append(lab(h, (u.depth || 2) / 2 + 9, L("front", "front")), lab(h + 90, half + 4, L("right", "droite")),
      lab(h - 90, half + 4, L("left", "gauche")), lab(h + 180, (u.depth || 2) / 2 + 6, L("rear", "arrière")));
    g.appendChild(svg("title", {}, L("arcs: the diagonals of the base, extended (OR-GF20)", "arcs : les diagonales du socle, prolongées (OR-GF20)")));
    layer.appendChild(g);
  }

  // the fire arc of a unit with a missile weapon, as the fire code draws it (the server's polygon:
  // 45° outwards from the front corners, to the weapon's longest range; OR-GF50)
  function drawFireArc(layer, u) {
    const fa = st.detail && st.detail.key && st.detail.key.startsWith(u.id + "@") && st.detail.fireArc;
    if (!fa || !Array.isArray(fa.points)) return;
    layer.appendChild(svg("polygon", { points: pts(fa.points), fill: "#c0392b", "fill-opacity": 0.08, stroke: "#c0392b",
      "stroke-width": 0.3, "stroke-dasharray": "2 1", "pointer-events": "none", "data-testid": "gf-fire-arc" },
      svg("title", {}, L(`fire arc: ${fa.half_angle_deg}° outwards, up to ${fa.range_cm} cm (${fa.ref}; ${fa.decision})`,
        `arc de tir : ${fa.half_angle_deg}° vers l'extérieur, jusqu'à ${fa.range_cm} cm (${fa.ref} ; ${fa.decision})`))));
  }

  // movement preview: the allowance around the unit, the sampled destinations (ghosts), the chosen one
  function drawMoves(layer, u) {
    const o = unitOpts(u.id);
    if (!o || core.state.replay || !(o.moves || o.place || (st.ambush && o.ambush))) return;
    const kind = st.ambush && o.ambush ? "ambush" : "place";
    const mv = o.moves || { samples: generic().filter((a) => a.action.type === kind && a.action.unit === u.id)
      .map((a) => [a.action.x, a.action.y, a.action.heading]) };
    const g = svg("g", { "data-testid": "gf-move-preview" });
    if (mv.max_cm) g.appendChild(svg("circle", { cx: u.x, cy: u.y, r: mv.max_cm, fill: colourOf(u.side), "fill-opacity": 0.05,
      stroke: colourOf(u.side), "stroke-width": 0.3, "stroke-dasharray": "1.5 1", "pointer-events": "none" }));
    (mv.samples || []).forEach((s, i) => {
      const [x, y, hd] = s;
      const c = baseCorners(x, y, hd ?? u.heading, u.width || 4, u.depth || 2);
      const chosen = st.dest && Math.abs(st.dest.x - x) < 0.01 && Math.abs(st.dest.y - y) < 0.01 && st.dest.heading === hd;
      const ghost = svg("polygon", { points: pts(c), fill: chosen ? "#1a7f37" : "#fff", "fill-opacity": chosen ? 0.35 : 0.25,
        stroke: chosen ? "#1a7f37" : colourOf(u.side), "stroke-width": 0.3, "stroke-dasharray": "0.8 0.5", cursor: "pointer",
        "data-testid": "gf-move-sample", "data-i": String(i) },
        svg("title", {}, `${L("move to", "aller en")} (${fmtCm(x)}, ${fmtCm(y)}) · ${Math.round(hd ?? u.heading)}° — ` +
          `${fmtCm(Math.hypot(x - u.x, y - u.y))} cm`));
      ghost.addEventListener("click", (e) => { e.stopPropagation(); chooseDest(u, x, y, hd ?? u.heading); });
      g.appendChild(ghost);
    });
    if (st.dest) {
      const c = baseCorners(st.dest.x, st.dest.y, st.dest.heading, u.width || 4, u.depth || 2);
      g.appendChild(svg("line", { x1: u.x, y1: u.y, x2: st.dest.x, y2: st.dest.y, stroke: "#1a7f37", "stroke-width": 0.35,
        "marker-end": null, "pointer-events": "none" }));
      g.appendChild(svg("polygon", { points: pts(c), fill: "#1a7f37", "fill-opacity": 0.35, stroke: "#1a7f37", "stroke-width": 0.4,
        "pointer-events": "none", "data-testid": "gf-dest" }));
    }
    layer.appendChild(g);
  }

  function drawTape(layer) {
    layer.innerHTML = "";
    const sel = st.selected && positions().find((u) => u.id === st.selected);
    const mv = sel && unitOpts(sel.id) && unitOpts(sel.id).moves;
    // the pointer's distance from the selected unit, and what its allowance leaves
    const jp = st.pick && st.pick.kind === "cast" && jumpOf(st.pick) && unitOf(st.pick.target);
    if (st.tool === "select" && jp && st.hover && jp.x !== null && jp.x !== undefined) {
      // the pointer's straight distance from the character who would fly, against the spell's reach (a measure, not a ruling)
      const d = Math.hypot(st.hover[0] - jp.x, st.hover[1] - jp.y), reach = jumpOf(st.pick).jump_cm;
      layer.appendChild(svg("line", { x1: jp.x, y1: jp.y, x2: st.hover[0], y2: st.hover[1], stroke: d <= reach ? "#1a7f37" : "#a3242b",
        "stroke-width": 0.3, "stroke-dasharray": "1 0.6" }));
      layer.appendChild(tapeLabel(st.hover[0], st.hover[1] - 2, `${fmtCm(d)} cm / ${fmtCm(reach)} cm`, "gf-hover-distance"));
    }
    if (st.tool === "select" && sel && mv && mv.max_cm && st.hover && !st.dest && !st.pick) {
      const d = Math.hypot(st.hover[0] - sel.x, st.hover[1] - sel.y);
      const left = mv.max_cm - d;
      layer.appendChild(svg("line", { x1: sel.x, y1: sel.y, x2: st.hover[0], y2: st.hover[1], stroke: left >= 0 ? "#1a7f37" : "#a3242b",
        "stroke-width": 0.3, "stroke-dasharray": "1 0.6" }));
      layer.appendChild(tapeLabel(st.hover[0], st.hover[1] - 2,
        `${fmtCm(d)} cm · ${left >= 0 ? L("left", "reste") + " " + fmtCm(left) : L("over by", "dépasse de") + " " + fmtCm(-left)} cm ${L("before terrain", "hors terrain")}`,
        "gf-hover-distance"));
    }
    if (!st.tape) return;
    const [a, b] = [st.tape.a, st.tape.b];
    const d = Math.hypot(b[0] - a[0], b[1] - a[1]);
    layer.appendChild(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#e0b23c", "stroke-width": 0.8, "stroke-linecap": "round" }));
    layer.appendChild(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#3b2d20", "stroke-width": 0.8,
      "stroke-dasharray": "0.25 4.75" }));  // a tick every 5 cm
    for (const p of [a, b]) layer.appendChild(svg("circle", { cx: p[0], cy: p[1], r: 0.6, fill: "#3b2d20" }));
    layer.appendChild(tapeLabel((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 - 1.8, `${fmtCm(d)} cm`, "gf-tape-label"));
  }

  function tapeLabel(x, y, text, testid) {
    const w = text.length * 1.4 + 1.8;
    return svg("g", { "data-testid": testid },
      svg("rect", { x: x - w / 2, y: y - 2.5, width: w, height: 3.4, rx: 0.6, fill: "#fffbe9", stroke: "#3b2d20", "stroke-width": 0.2 }),
      svg("text", { x, y: y, "font-size": 2.6, "text-anchor": "middle", fill: "#1b1b1b", "font-weight": 600 }, text));
  }

  function bindTable(root, tapeLayer) {
    let dragging = false;
    root.addEventListener("pointerdown", (e) => {
      if (st.tool !== "tape") return;
      const p = toTable(root, e);
      if (!p) return;
      dragging = true;
      st.tape = { a: p, b: p };
      try { root.setPointerCapture(e.pointerId); } catch (err) { /* synthetic events */ }
      drawTape(tapeLayer);
    });
    root.addEventListener("pointermove", (e) => {
      const p = toTable(root, e);
      if (!p) return;
      if (dragging && st.tape) { st.tape.b = p; drawTape(tapeLayer); return; }
      st.hover = p;
      if (st.tool === "select" && st.selected) drawTape(tapeLayer);
    });
    root.addEventListener("pointerup", () => { if (dragging) { dragging = false; renderTools(); } });
    root.addEventListener("pointerleave", () => { st.hover = null; if (!dragging) drawTape(tapeLayer); });
    root.addEventListener("click", (e) => {
      if (st.tool === "select" && st.pick && !core.state.replay) {
        const p = toTable(root, e);
        const b = e.target.closest && e.target.closest("[data-testid=gf-terrain], [data-testid=gf-building]");
        if (p) pickAt(p[0], p[1], b ? b.getAttribute("data-id") : null);
        return;
      }
      if (st.tool === "select" && st.base && !core.state.replay) {
        const p = toTable(root, e);
        if (p) chooseBaseDest(p[0], p[1]);
        return;
      }
      if (st.tool !== "select" || !st.selected) return;
      const u = positions().find((x) => x.id === st.selected);
      if (!u || !canPlace(u.id) || core.state.replay) { st.selected = null; st.dest = null; core.render(); return; }
      const p = toTable(root, e);
      if (p) chooseDest(u, p[0], p[1], st.dest ? st.dest.heading : u.heading || 0);
    });
  }

  // a move (phase 6) or a placement (deployment) of one unit to the chosen spot: the offered
  // action's fields (type, side) with the spot's coordinates (apply checks any legal point)
  function moveAction(uid, d) {
    const o = unitOpts(uid) || {};
    const kind = st.ambush && o.ambush ? "ambush" : o.place ? "place" : "move";
    const proto = (generic().find((o) => o.action.type === kind && o.action.unit === uid) || {}).action;
    const a = { ...(proto || { type: kind, side: v().to_act, unit: uid }), x: round1(d.x), y: round1(d.y), heading: Math.round(d.heading) };
    delete a.path;
    return a;
  }
  const canPlace = (uid) => { const o = unitOpts(uid); return !!(o && (o.moves || o.place || (st.ambush && o.ambush))); };

  // an encounter battle's decoy base (GF-K5, l.493): chosen on the table, placed where the player clicks
  // once the server has ruled on the spot (POST /explain: inside the deployment zone, or refused with the rule)
  // placed in the deployment (place_base), or moved in phase 6 with the hidden units (move_base, OR-GF101)
  const baseMoves = (bid) => ((opts().bases || {})[bid] || {}).max_cm !== undefined;
  function baseAction(bid, d) {
    const kind = baseMoves(bid) ? "move_base" : "place_base";
    const proto = (generic().find((o) => o.action.type === kind && o.action.base === bid) || {}).action;
    const a = { ...(proto || { type: kind, side: v().to_act, base: bid }), x: round1(d.x), y: round1(d.y) };
    if (kind === "move_base") { const b = (v().bases || []).find((x) => x.id === bid); a.heading = b ? b.heading : (a.heading || 0); }
    return a;
  }
  async function chooseBaseDest(x, y) {
    const bid = st.base;
    st.baseDest = { x, y };
    st.preview = { loading: true };
    core.render();
    const r = await core.explain(baseAction(bid, st.baseDest));
    if (st.base !== bid || !st.baseDest) return;
    st.preview = r;
    drawTable();
    renderPanel();
  }
  const placeableBase = (bid) => { const o = (opts().bases || {})[bid] || {};
    return !core.state.replay && v().can_act && !!(o.place || o.max_cm !== undefined); };
  const round1 = (n) => Math.round(n * 10) / 10;

  async function chooseDest(u, x, y, heading) {
    st.dest = { x, y, heading: ((Math.round(heading) % 360) + 360) % 360 };
    st.preview = { loading: true };
    core.render();
    const r = await core.explain(moveAction(u.id, st.dest));
    if (!st.dest) return;
    st.preview = r ? { ...r, isMove: true } : null;
    renderPanel();
  }

  /* --- actions picked on the table (click to place) ------------------------------------------------
   * A spell's target (a unit or, for the spells that may strike one, a building: OR-GF121), the jump of
   * *Vol d'Ehecatl* (x, y, heading: OR-GF123), a flank march's edge and place (GF-K4, OR-GF104), a unit's
   * hiding place (l.497, OR-GF105): a click fills the action, the server rules on it (POST /explain), the
   * player confirms. Every field may also be chosen from a list or typed (the fallback). The page reads
   * no rule: what may be picked is what the server's options offer, every verdict is the server's. */
  const castsOf = (o, spell) => (o.casts || []).filter((c) => c.spell === spell);
  const spellsOf = (o) => { const book = { ...(o.spells || {}) };
    for (const c of o.casts || []) if (!book[c.spell]) book[c.spell] = { name: c.spell };
    return book; };
  const spellOf = (pk) => ((unitOpts(pk.unit) || {}).spells || {})[pk.spell] || {};
  const jumpOf = (pk) => { const sp = spellOf(pk); return sp.jump_cm ? sp : null; };
  const buildingIds = () => ((v().table || {}).buildings || []).filter((b) => !b.destroyed).map((b) => b.id);
  const hasPoint = (pk) => pk.x !== null && pk.x !== undefined && pk.y !== null && pk.y !== undefined;

  function pickAction(pk) {
    const side = v().to_act;
    if (pk.kind === "cast") {
      const proto = castsOf(unitOpts(pk.unit) || {}, pk.spell)[0] || {};
      const a = { type: "cast", side, unit: pk.unit, spell: pk.spell, target: pk.target ?? proto.target ?? null };
      if (jumpOf(pk) && hasPoint(pk)) {
        a.x = round1(pk.x); a.y = round1(pk.y);
        if (pk.heading !== null && pk.heading !== undefined) a.heading = Math.round(pk.heading);
      }
      return a;
    }
    if (pk.kind === "flank") return { type: "flank_march", side, unit: pk.unit, edge: pk.edge, y: round1(pk.y), turn: pk.turn };
    const a = { type: "hide", side, unit: pk.unit };
    if (hasPoint(pk)) { a.x = round1(pk.x); a.y = round1(pk.y); a.heading = Math.round(pk.heading || 0); }
    return a;
  }

  function startPick(kind, u, o, spell) {
    st.dest = null; st.ambush = false; st.base = null; st.baseDest = null;
    if (kind === "cast") {
      const c = castsOf(o, spell)[0] || {};
      // the offered cast first (for a jump, its sampled spot); the heading left out: the character keeps his own
      st.pick = { kind, unit: u.id, spell, target: c.target ?? null, x: c.x ?? null, y: c.y ?? null, heading: null };
    } else if (kind === "flank") {
      const proto = (generic().find((x) => x.action.type === "flank_march" && x.action.unit === u.id) || {}).action || {};
      st.pick = { kind, unit: u.id, edge: proto.edge || "left", y: proto.y ?? u.y, turn: proto.turn ?? 4 };
    } else {
      st.pick = { kind, unit: u.id, x: null, y: null, heading: u.heading || 0 };
    }
    askPick();
  }

  let pickAsk = 0;
  async function askPick() {
    const pk = st.pick;
    if (!pk) return;
    // a hide at no chosen place is only possible where the unit stands in cover already
    if (pk.kind === "hide" && !hasPoint(pk) && !(unitOpts(pk.unit) || {}).hide) { st.preview = null; core.render(); return; }
    const n = ++pickAsk;
    st.preview = { loading: true };
    core.render();
    const r = await core.explain(pickAction(pk));
    if (n !== pickAsk || st.pick !== pk) return;
    st.preview = r;
    drawTable();
    renderPanel();
  }

  // a unit clicked while picking: a spell's target (for the jump: a friendly character flies, any other
  // unit's spot is a destination); for a flank march or a hiding place, the spot under the pointer
  function pickUnit(u, e) {
    const pk = st.pick;
    if (pk.kind === "cast" && (!jumpOf(pk) || (u.side === unitOf(pk.unit).side && u.kind === "character"))) {
      pk.target = u.id;
      askPick();
      return;
    }
    const p = toTable(e.currentTarget.ownerSVGElement || e.currentTarget, e);
    if (p) pickAt(p[0], p[1], null);
  }

  function pickAt(x, y, elId) {
    const pk = st.pick;
    if (pk.kind === "cast") {
      if (elId && spellOf(pk).buildings && buildingIds().includes(elId)) { pk.target = elId; askPick(); return; }
      if (!jumpOf(pk)) return;   // a spell at a unit or a building: a click elsewhere picks nothing
      pk.x = x; pk.y = y;
    } else if (pk.kind === "flank") {
      const W = (v().table || {}).width || 180;
      pk.edge = x < W / 2 ? "left" : "right"; pk.y = y;   // the nearer side edge, at the clicked height
    } else {
      pk.x = x; pk.y = y;
    }
    askPick();
  }

  function renderPickers(u, o) {
    const spells = spellsOf(o);
    const hide = o.hide || o.hide_at;
    if (!Object.keys(spells).length && !o.flank_march && !hide) return;
    const mode = (kind, spell) => st.pick && st.pick.unit === u.id && st.pick.kind === kind && (!spell || st.pick.spell === spell);
    const btn = (kind, spell, label, testid) => el("button", { type: "button", class: "btn" + (mode(kind, spell) ? " on" : ""), testid,
      "aria-pressed": mode(kind, spell) ? "true" : "false",
      onclick: () => { if (mode(kind, spell)) { st.pick = null; st.preview = null; core.render(); } else startPick(kind, u, o, spell); } }, label);
    unitCard.append(el("h3", {}, L("On the table", "Sur la table")),
      el("div", { class: "card-actions gf-pickers", testid: "gf-pickers" },
        Object.entries(spells).map(([id, sp]) => btn("cast", id, "✦ " + nameOf(sp), "gf-pick-cast-" + id)),
        o.flank_march ? btn("flank", null, L("Flank march…", "Marche de flanc…"), "gf-pick-flank") : null,
        hide ? btn("hide", null, L("Hide…", "Cacher…"), "gf-pick-hide") : null));
    if (st.pick && st.pick.unit === u.id) renderPickCard(u, o);
  }

  function renderPickCard(u, o) {
    const pk = st.pick;
    const box = el("div", { class: "gf-pick", testid: "gf-pick" });
    const num = (key, label, testid, step) => el("label", { class: "gf-num" }, label + " ",
      el("input", { type: "number", step: step || "0.1", testid, value: pk[key] === null || pk[key] === undefined ? "" : String(key === "turn" ? pk[key] : round1(pk[key])),
        style: "width:5.5em", onchange: (e) => { const n = parseFloat(e.target.value);
          pk[key] = Number.isFinite(n) ? (key === "turn" ? Math.round(n) : n) : null; askPick(); } }));
    if (pk.kind === "cast") {
      const sp = spellOf(pk), jump = jumpOf(pk);
      box.append(el("p", { class: "help", testid: "gf-pick-help" }, jump
        ? L(`Click a friendly character to choose who flies, then a spot on the table: at most ${fmtCm(jump.jump_cm)} cm from him, not within 5 cm of an enemy, not in a building. `,
            `Cliquez un personnage ami pour choisir qui s'envole, puis un point de la table : à ${fmtCm(jump.jump_cm)} cm de lui au plus, pas à moins de 5 cm d'un ennemi, pas dans un bâtiment. `)
        : sp.buildings ? L("Click a unit or a building on the table: it becomes the spell's target. ", "Cliquez une unité ou un bâtiment de la table : il devient la cible du sort. ")
          : L("Click a unit on the table: it becomes the spell's target. ", "Cliquez une unité de la table : elle devient la cible du sort. "),
        citeChips([sp.ref, sp.decision, sp.buildings ? "OR-GF121" : null].filter(Boolean).join("; "))));
      // the fallback: the offered targets, the table's units and (for these spells) its standing buildings
      const ids = [...new Set([...castsOf(o, pk.spell).map((c) => c.target),
        ...positions().filter((x) => !jump || (x.side === u.side && x.kind === "character")).map((x) => x.id),
        ...(sp.buildings ? buildingIds() : [])].filter(Boolean))];
      box.append(el("label", {}, L("target ", "cible "), el("select", { testid: "gf-pick-target", "aria-label": L("target", "cible"),
        onchange: (e) => { pk.target = e.target.value || null; askPick(); } },
        ids.map((id) => el("option", { value: id, selected: pk.target === id ? true : null },
          targetName(id) + (buildingIds().includes(id) ? " — " + L("building", "bâtiment") : ""))))));
      if (jump) {
        box.append(el("div", { class: "gf-fields" }, num("x", "x", "gf-pick-x"), num("y", "y", "gf-pick-y"), num("heading", L("heading", "orientation"), "gf-pick-heading", "1")));
        const t = unitOf(pk.target);
        if (t && hasPoint(pk)) box.append(el("p", { testid: "gf-pick-distance" },
          L(`${fmtCm(Math.hypot(pk.x - t.x, pk.y - t.y))} cm from ${t.name} (the spell: ${fmtCm(jump.jump_cm)} cm at most)`,
            `${fmtCm(Math.hypot(pk.x - t.x, pk.y - t.y))} cm de ${t.name} (le sort : ${fmtCm(jump.jump_cm)} cm au plus)`)));
      } else if (pk.target) {
        const t = unitOf(pk.target), b = buildingOf(pk.target), me = unitOf(pk.unit);
        const at = t ? [t.x, t.y] : b ? centroid(b.points) : null;
        if (at && me) box.append(el("p", { testid: "gf-pick-distance" },
          L(`${fmtCm(Math.hypot(at[0] - me.x, at[1] - me.y))} cm from the caster, centre to centre${sp.range_cm ? ` (the spell's range: ${sp.range_cm} cm, measured by the referee)` : ""}`,
            `${fmtCm(Math.hypot(at[0] - me.x, at[1] - me.y))} cm du lanceur, de centre à centre${sp.range_cm ? ` (portée du sort : ${sp.range_cm} cm, mesurée par l'arbitre)` : ""}`)));
      }
    } else if (pk.kind === "flank") {
      box.append(el("p", { class: "help", testid: "gf-pick-help" },
        L("Click near the left or right edge of the table: the force will enter by that edge at that height, written on your battle plan (unseen by the enemy). ",
          "Cliquez près du bord gauche ou droit de la table : la force entrera par ce bord à cette hauteur, écrite sur votre plan de bataille (invisible pour l'ennemi). "),
        citeChips("GF seed 003 l.505-511; GF-K4, OR-GF104")),
        el("div", { class: "gf-fields" },
          el("label", {}, L("edge ", "bord "), el("select", { testid: "gf-pick-edge", onchange: (e) => { pk.edge = e.target.value; askPick(); } },
            [["left", L("left", "gauche")], ["right", L("right", "droit")]].map(([id, txt]) => el("option", { value: id, selected: pk.edge === id ? true : null }, txt)))),
          num("y", "y", "gf-pick-y"), num("turn", L("from turn", "dès le tour"), "gf-pick-turn", "1")));
    } else {
      box.append(el("p", { class: "help", testid: "gf-pick-help" }, o.hide_at
        ? L("Click a spot of your zone in a house, a building, jungle or a wood (or against a building): the unit stays off the table there, its place written on your battle plan. ",
            "Cliquez un point de votre zone dans une maison, un bâtiment, la jungle ou un bois (ou contre un bâtiment) : l'unité y reste hors de la table, sa position écrite sur votre plan de bataille. ")
        : o.hide_behind
          ? L(`The unit hides behind the building it stands against (within ${o.hide_behind.within_cm} cm): it leaves the table; the enemy sees it go and nothing more, until it is spotted, moves, fires or fights. `,
              `L'unité se cache derrière le bâtiment contre lequel elle se tient (à ${o.hide_behind.within_cm} cm au plus) : elle quitte la table ; l'ennemi la voit partir et rien de plus, jusqu'à ce qu'elle soit repérée, bouge, tire ou combatte. `)
          : L("The unit hides where it stands, its place written on your battle plan. ", "L'unité se cache là où elle se tient, sa position écrite sur votre plan de bataille. "),
        citeChips([o.hide_at, o.hide_behind, o.hide_here].filter(Boolean).slice(0, 1)
          .map((r) => [r.ref, r.decision].filter(Boolean).join("; ")).join(""))));
      if (o.hide_at) box.append(el("div", { class: "gf-fields" }, num("x", "x", "gf-pick-x"), num("y", "y", "gf-pick-y")));
      if (hasPoint(pk)) box.append(el("p", { testid: "gf-pick-distance" },
        L(`${fmtCm(Math.hypot(pk.x - u.x, pk.y - u.y))} cm from where it stands`, `${fmtCm(Math.hypot(pk.x - u.x, pk.y - u.y))} cm de sa position`)));
    }
    const ready = pk.kind !== "hide" || hasPoint(pk) || o.hide;
    box.append(el("div", { class: "card-actions" },
      el("button", { type: "button", class: "btn primary", testid: "gf-pick-commit",
        disabled: !ready || !st.preview || st.preview.loading || st.preview.legal === false ? true : null,
        onclick: () => { const a = pickAction(pk); st.pick = null; st.preview = null; core.commit(a); } },
        pk.kind === "cast" ? L("Cast", "Lancer") : pk.kind === "flank" ? L("March by the flank", "Marcher par le flanc") : L("Hide", "Cacher")),
      el("button", { type: "button", class: "btn", testid: "gf-pick-cancel", onclick: () => { st.pick = null; st.preview = null; core.render(); } },
        L("Cancel", "Annuler"))));
    unitCard.append(box);
  }

  // what is being picked, drawn on the table: the target outlined, the jump's reach and destination, the
  // entry point on the edge, the hiding place; red once the server refuses it
  function drawPick(layer) {
    if (core.state.replay) return;
    // this side's own flank marches already written on its plan (only its own view holds them, GF-K4)
    const TW = (v().table || {}).width || 180;
    for (const f of Object.values(((v().encounter || {}).flank_marches) || {})) {
      const x = f.edge === "right" ? TW : 0, s = f.edge === "right" ? -1 : 1;
      layer.appendChild(svg("polygon", { points: pts([[x, f.y - 2], [x + s * 3.5, f.y], [x, f.y + 2]]), fill: colourOf(f.side),
        "fill-opacity": 0.5, "pointer-events": "none", "data-testid": "gf-flank-written" },
        svg("title", {}, L(`Your flank march enters here (${f.edge} edge, y = ${fmtCm(f.y)} cm, from turn ${f.first_try_turn})`,
          `Votre marche de flanc entre ici (bord ${f.edge === "right" ? "droit" : "gauche"}, y = ${fmtCm(f.y)} cm, dès le tour ${f.first_try_turn})`))));
    }
    const pk = st.pick;
    if (!pk) return;
    const ok = !(st.preview && st.preview.legal === false);
    const colour = ok ? "#1a7f37" : "#a3242b";
    const g = svg("g", { "data-testid": "gf-pick-layer", "pointer-events": "none" });
    const me = unitOf(pk.unit);
    if (pk.kind === "cast") {
      const t = unitOf(pk.target), b = buildingOf(pk.target);
      if (t && t.x !== null && t.x !== undefined) g.appendChild(svg("polygon", { points: pts(cornersOf(t).map(([x, y]) => [x, y])), fill: "none",
        stroke: "#e0b23c", "stroke-width": 0.7, "stroke-dasharray": "1 0.5", "data-testid": "gf-pick-target-mark", "data-id": t.id }));
      else if (b) g.appendChild(svg("polygon", { points: pts(b.points), fill: "#e0b23c", "fill-opacity": 0.25, stroke: "#e0b23c",
        "stroke-width": 0.7, "data-testid": "gf-pick-target-mark", "data-id": b.id }));
      const jump = jumpOf(pk);
      if (jump && t) {
        g.appendChild(svg("circle", { cx: t.x, cy: t.y, r: jump.jump_cm, fill: colourOf(t.side), "fill-opacity": 0.04,
          stroke: colourOf(t.side), "stroke-width": 0.3, "stroke-dasharray": "1.5 1", "data-testid": "gf-pick-reach" }));
        if (hasPoint(pk)) {
          g.appendChild(svg("line", { x1: t.x, y1: t.y, x2: pk.x, y2: pk.y, stroke: colour, "stroke-width": 0.35 }));
          g.appendChild(svg("polygon", { points: pts(baseCorners(pk.x, pk.y, pk.heading ?? t.heading ?? 0, t.width || 2.5, t.depth || 2.5)),
            fill: colour, "fill-opacity": 0.35, stroke: colour, "stroke-width": 0.4, "data-testid": "gf-pick-dest" }));
          g.appendChild(tapeLabel((t.x + pk.x) / 2, (t.y + pk.y) / 2 - 1.8, `${fmtCm(Math.hypot(pk.x - t.x, pk.y - t.y))} cm`, "gf-pick-label"));
        }
      }
    } else if (pk.kind === "flank" && pk.y !== null && pk.y !== undefined) {
      const W = (v().table || {}).width || 180, x = pk.edge === "right" ? W : 0, s = pk.edge === "right" ? -1 : 1;
      g.appendChild(svg("polygon", { points: pts([[x, pk.y - 3], [x + s * 5, pk.y], [x, pk.y + 3]]), fill: colour, "fill-opacity": 0.6,
        stroke: colour, "stroke-width": 0.3, "data-testid": "gf-pick-dest" }));
      g.appendChild(tapeLabel(x + s * 14, pk.y - 3.5, `y = ${fmtCm(pk.y)} cm`, "gf-pick-label"));
    } else if (pk.kind === "hide" && hasPoint(pk) && me) {
      g.appendChild(svg("polygon", { points: pts(baseCorners(pk.x, pk.y, pk.heading || 0, me.width || 4, me.depth || 2)),
        fill: colour, "fill-opacity": 0.3, stroke: colour, "stroke-width": 0.4, "stroke-dasharray": "1.2 0.8", "data-testid": "gf-pick-dest" }));
    }
    layer.appendChild(g);
  }

  /* --- the tools bar ---------------------------------------------------------------------------- */
  function renderTools() {
    tools.innerHTML = "";
    const tool = (id, label, title) => el("button", { type: "button", class: "btn gf-tool" + (st.tool === id ? " on" : ""),
      testid: "gf-tool-" + id, title, "aria-pressed": st.tool === id ? "true" : "false",
      onclick: () => { st.tool = id; if (id === "select") st.tape = null; core.render(); } }, label);
    tools.append(
      tool("select", "☝ " + L("Select", "Choisir"), L("select a unit, then a spot to move it", "choisir une unité, puis un point où la déplacer")),
      tool("tape", "↔ " + L("Tape", "Mètre"), L("measuring tape: drag on the table (cm)", "mètre ruban : faire glisser sur la table (cm)")),
      el("label", { class: "gf-check" }, el("input", { type: "checkbox", testid: "gf-arcs-toggle", checked: st.showArcs ? true : null,
        onchange: (e) => { st.showArcs = e.target.checked; core.render(); } }), " " + L("arcs", "arcs")),
      el("span", { class: "gf-scale muted small" }, L("grid 10 cm · table ", "quadrillage 10 cm · table ") +
        `${(v().table || {}).width || 180} × ${(v().table || {}).height || 120} cm`));
    if (st.tape) {
      const d = Math.hypot(st.tape.b[0] - st.tape.a[0], st.tape.b[1] - st.tape.a[1]);
      tools.append(el("span", { class: "gf-tape-read", testid: "gf-tape-read" }, `↔ ${fmtCm(d)} cm`));
    }
  }

  /* --- the hot-seat cover ------------------------------------------------------------------------- */
  function renderCover() {
    const on = covered();
    cover.hidden = !on;
    box.classList.toggle("covered", on);
    cover.innerHTML = "";
    if (!on) return;
    const side = v().to_act;
    const other = (v().sides || []).map((s) => s.id).find((s) => s !== side);
    const done = (v().orders_submitted || {})[other];
    cover.append(el("div", { class: "gf-cover-box", style: `--side:${colourOf(side)}` },
      el("h2", {}, L("Pass the screen", "Passez l'écran")),
      secretPlan(v()) ? el("p", {}, L(`${sideName(side)} deploys on its battle plan, in secret: ${sideName(other)} looks away.`,
        `${sideName(side)} se déploie sur son plan de bataille, en secret : ${sideName(other)} détourne le regard.`), " ",
        citeChips("GF seed 003 l.491-507; OR-GF100")) : el("p", {}, done
        ? L(`${sideName(other)} has given its orders, face down. ${sideName(side)} now gives its own, in secret.`,
            `${sideName(other)} a donné ses ordres, face cachée. ${sideName(side)} donne maintenant les siens, en secret.`)
        : L(`${sideName(side)} gives its orders in secret: ${sideName(other)} looks away.`,
            `${sideName(side)} donne ses ordres en secret : ${sideName(other)} détourne le regard.`)),
      secretPlan(v()) ? el("p", { class: "muted small" }, L("The other side will see your movement bases as anonymous counters, never what they carry.",
        "L'autre camp verra vos bases de mouvement comme des pions anonymes, jamais ce qu'elles portent."))
        : el("p", { class: "muted small" }, L("Orders are revealed together in phase 4 (GF Le tour de jeu, phases 3–4).",
          "Les ordres sont révélés ensemble en phase 4 (GF Le tour de jeu, phases 3–4).")),
      el("button", { type: "button", class: "btn primary", testid: "gf-take-screen",
        onclick: () => { st.ack = side; st.draft = {}; core.render(); } },
        L(`I play ${sideName(side)}: show my table`, `Je joue ${sideName(side)} : montrer ma table`))));
  }

  /* --- the panel ------------------------------------------------------------------------------------ */
  function renderPanel() {
    const view = v();
    const hide = covered();
    for (const c of [unitCard, ordersCard, actionsCard, previewCard, rosterCard]) c.hidden = hide;
    if (hide) return;
    renderOrders();
    renderUnit();
    renderPreview();
    renderActions();
    renderRoster();
    if (view.over) ordersCard.hidden = true;
  }

  function orderChoices(uid) { const o = unitOpts(uid); return (o && o.orders) || []; }

  function renderOrders() {
    const view = v();
    ordersCard.innerHTML = "";
    const open = isOrders(view) && view.can_act && !core.state.replay;
    const list = open ? orderableUnits() : [];
    // the card as long as the side owes its orders action, even when none of its units may receive one
    const owed = open && (list.length || generic().some((o) => o.action.type === "orders"));
    ordersCard.hidden = !owed;
    if (!owed) return;
    const side = view.to_act;
    ordersCard.append(el("h3", {}, L(`Orders of ${sideName(side)} — face down`, `Ordres de ${sideName(side)} — face cachée`)),
      el("p", { class: "help" }, list.length
        ? L("Choose an order for each unit; they stay hidden from the other side until phase 4. A unit without an order does nothing.",
            "Choisissez un ordre pour chaque unité ; l'adversaire ne les voit qu'en phase 4. Une unité sans ordre ne fait rien.")
        : L("None of your units may receive an order this turn (failed command tests, units in combat, moved in phase 1): give the empty list.",
            "Aucune de vos unités ne peut recevoir d'ordre ce tour (tests de commandement ratés, unités au combat, mouvement en phase 1) : donnez la liste vide.")));
    const table = el("table", { class: "gf-order-table", testid: "gf-order-table" });
    for (const [uid, o] of list) {
      const u = unitOf(uid) || { name: uid };
      const d = st.draft[uid] || {};
      const sel = el("select", { testid: "gf-order-" + uid, "aria-label": u.name,
        onchange: (e) => { st.draft[uid] = { order: e.target.value || undefined, target: null };
                           if (!e.target.value) delete st.draft[uid]; core.render(); } },
        el("option", { value: "" }, L("— no order —", "— pas d'ordre —")),
        (o.orders || []).map((x) => el("option", { value: x.id, selected: d.order === x.id ? true : null,
          title: x.ref || null }, nameOf(x))));
      const chosen = (o.orders || []).find((x) => x.id === d.order);
      let target = null;
      if (chosen && chosen.max_targets) target = fireTargets(uid, u, chosen, d);
      else if (chosen && chosen.needs_target) {
        const targets = (chosen.targets || (o.charge || []).map((c) => c.target) || []);
        const enemies = targets.length ? targets : (view.units || []).filter((x) => x.side !== u.side).map((x) => x.id);
        target = el("select", { testid: "gf-target-" + uid, "aria-label": L("target", "cible"),
          onchange: (e) => { st.draft[uid] = { ...st.draft[uid], target: e.target.value || null }; core.render(); } },
          el("option", { value: "" }, L("— target —", "— cible —")),
          enemies.map((t) => el("option", { value: t, selected: d.target === t ? true : null }, targetName(t) + chargeNote(o, t))));
      }
      table.appendChild(el("tr", { class: uid === st.selected ? "sel" : null, dataset: { unit: uid } },
        el("td", {}, el("a", { href: "#", onclick: (e) => { e.preventDefault(); st.selected = uid; st.dest = null; core.render(); } }, u.name)),
        el("td", {}, sel, target)));
      if (chosen && chosen.max_targets) table.appendChild(el("tr", { class: "gf-fire-row" }, el("td", { colspan: 2 }, firePlanCard(uid))));
    }
    ordersCard.append(table);
    const n = Object.keys(st.draft).length;
    const missing = list.filter(([uid]) => { const o = orderChoices(uid).find((x) => x.id === (st.draft[uid] || {}).order);
      return o && o.needs_target && !st.draft[uid].target; });
    ordersCard.append(el("div", { class: "card-actions" },
      el("button", { type: "button", class: "btn primary", testid: "gf-submit-orders", disabled: missing.length ? true : null,
        onclick: submitOrders }, L(`Give ${n} order${n === 1 ? "" : "s"}, face down`, `Donner ${n} ordre${n > 1 ? "s" : ""}, face cachée`)),
      missing.length ? el("span", { class: "refusal" }, L("an order still needs its target or direction", "un ordre attend encore sa cible ou sa direction")) : null));
  }

  // a fire order announces up to `max_targets` different enemy units (GF seed 003 l.830, l.840): one
  // select per target, the next offered once the previous is chosen; the figures are shared between
  // them by the server (battle/volleys.py, OR-GF110), whose ruling is shown before the orders are given
  const draftTarget = (d) => { const ts = (d.targets || []).filter(Boolean);
    return ts.length > 1 ? ts : (ts[0] || d.target || null); };
  function fireTargets(uid, u, chosen, d) {
    const ts = (d.targets || []).filter(Boolean);
    const odds = Object.fromEntries(((unitOpts(uid) || {}).fire || []).map((f) => [f.target, f.percent]));
    const enemies = (v().units || []).filter((x) => x.side !== u.side && !GONE.includes(x.status) && x.x !== null && x.x !== undefined);
    const box = el("span", { class: "gf-fire-targets", testid: "gf-fire-targets-" + uid });
    const n = Math.min(chosen.max_targets, ts.length + 1);
    for (let i = 0; i < n; i++) {
      const taken = new Set(ts.filter((_, j) => j !== i));
      box.append(el("select", { testid: `gf-target-${uid}-${i + 1}`, "aria-label": L(`target ${i + 1}`, `cible ${i + 1}`),
        onchange: (e) => {
          const next = ts.slice();
          if (e.target.value) next[i] = e.target.value; else next.splice(i);   // emptying a target drops the ones after it
          st.draft[uid] = { ...st.draft[uid], targets: next.filter(Boolean), target: null };
          core.render();
        } },
        el("option", { value: "" }, i ? L("— another target —", "— autre cible —") : L("— the priorities choose —", "— les priorités choisissent —")),
        enemies.filter((x) => !taken.has(x.id)).map((x) => el("option", { value: x.id, selected: ts[i] === x.id ? true : null },
          targetName(x.id) + (odds[x.id] !== undefined && odds[x.id] !== null ? ` — ${L("alone", "seule")} ${odds[x.id]} %` : "")))));
    }
    box.append(el("span", { class: "muted small" }, " " + L(`up to ${chosen.max_targets} targets, the figures shared between them `,
      `jusqu'à ${chosen.max_targets} cibles, les figurines réparties entre elles `), citeChips(chosen.targets_ref || chosen.ref)));
    return box;
  }

  // the server's ruling on this fire order alone (POST /explain of an orders action): the volleys it
  // would fire now, each target's files, figures and percentage before the roll, with their citations
  function firePlanCard(uid) {
    const d = st.draft[uid] || {};
    const key = JSON.stringify([v().version, draftTarget(d)]);
    const box = el("div", { class: "gf-fire-plan", testid: "gf-fire-plan-" + uid });
    const cur = st.firePlan[uid];
    if (!cur || cur.key !== key) {
      st.firePlan[uid] = { key, r: null };
      const side = v().to_act;
      const proto = (generic().find((o) => o.action.type === "orders") || {}).action || { type: "orders", side };
      core.explain({ ...proto, orders: { [uid]: { order: d.order, target: draftTarget(d) } } }).then((r) => {
        if (!st.firePlan[uid] || st.firePlan[uid].key !== key) return;
        st.firePlan[uid] = { key, r: r || { legal: false, reason: L("no answer", "pas de réponse") } };
        renderPanel();
      });
      box.append(el("p", { class: "muted small" }, L("asking the referee…", "l'arbitre examine…")));
      return box;
    }
    const r = cur.r;
    if (!r) { box.append(el("p", { class: "muted small" }, L("asking the referee…", "l'arbitre examine…"))); return box; }
    if (r.legal === false) {
      box.append(el("p", { class: "refusal", testid: "gf-fire-refusal" }, r.reason || L("not allowed", "interdit"), " ", citeChips(r.ref || "")));
      return box;
    }
    const plan = (r.fire || {})[uid] || { volleys: [] };
    box.append(el("p", { class: "small" }, el("strong", {}, L("Fire — chance before the roll, on the table as it stands now", "Tir — chance avant le jet, la table telle qu'elle est maintenant")),
      " ", el("span", { class: "muted" }, L("(read again in phase 8, after the moves)", "(relu en phase 8, après les mouvements)"))));
    if (!plan.volleys.length) {
      box.append(el("p", { class: "muted small", testid: "gf-fire-none" }, ((fr() && plan.explanation_fr) || plan.explanation || []).join("; ")));
    } else {
      box.append(el("ul", { class: "gf-odds", testid: "gf-fire-volleys" }, plan.volleys.map((x) => {
        const label = `${targetName(x.target)} — ${x.files ? `${x.files} ${L("file(s)", "colonne(s)")}, ` : ""}${x.firing_figures} ${L("figure(s) firing", "figurine(s) tirent")} —`;
        const li = oddsItem(label, x.percent, (fr() && x.explanation_fr) || x.explanation, null, x);
        li.dataset.target = x.target;
        li.setAttribute("data-testid", "gf-volley");
        (li.querySelector("details") || li).append(el("p", { class: "ev-ref" }, citeChips((x.citations || []).join("; "))));
        return li;
      })));
    }
    return box;
  }

  function chargeNote(o, t) {
    const c = (o.charge || []).find((x) => x.target === t);
    if (!c) return "";
    return ` — ${fmtCm(c.distance_cm)} cm` + (c.percent !== undefined && c.percent !== null ? ` · ${c.percent} %` : "");
  }

  async function submitOrders() {
    const orders = {};
    for (const [uid, d] of Object.entries(st.draft)) if (d && d.order) orders[uid] = { order: d.order, target: draftTarget(d) };
    const side = v().to_act;
    const proto = (generic().find((o) => o.action.type === "orders") || {}).action || { type: "orders", side };
    await core.commit({ ...proto, orders });
    // the screen changes hands (hot seat): the next side must take it before anything is drawn
    if (v().to_act !== side) st.draft = {};
  }

  // the percentages before the roll of the selected unit of the side to act: the server's previews
  // (Ruleset.option_detail), fetched once per unit and version
  function fetchDetail() {
    const view = v();
    const u = st.selected && unitOf(st.selected);
    if (!u || core.state.replay || !view.can_act || u.side !== view.to_act || covered()) { st.detail = null; return; }
    const key = `${u.id}@${view.version}`;
    if (st.detail && st.detail.key === key) return;
    st.detail = { key, loading: true };
    core.get("/moves/" + encodeURIComponent(u.id)).then((d) => {
      if (!st.detail || st.detail.key !== key) return;
      st.detail = { key, fire: d.fire || [], melee: d.melee || [], fireArc: d.fire_arc || null };
      drawTable();
      renderPanel();
    }).catch(() => { if (st.detail && st.detail.key === key) st.detail = { key, fire: [], melee: [] }; });
  }

  function renderUnit() {
    const view = v();
    unitCard.innerHTML = "";
    if (st.base && placeableBase(st.base)) { renderBaseCard(); return; }
    st.base = null;
    const u = st.selected && positions().find((x) => x.id === st.selected);
    if (!u) {
      unitCard.append(el("h3", {}, L("The table", "La table")),
        el("p", { class: "help", testid: "gf-hint" }, L("Click a unit to see its arcs, its moves and its fire and charge odds; the tape measures any distance.",
          "Cliquez une unité pour voir ses arcs, ses mouvements et ses chances de tir et de charge ; le mètre mesure toute distance.")),
        lossesList());
      return;
    }
    const head = el("h3", { testid: "gf-unit-name" }, el("span", { class: "side-chip", style: `--side:${colourOf(u.side)}` }, sideName(u.side)), " ", u.name);
    const facts = el("dl", { class: "gf-facts" },
      el("dt", {}, L("Kind", "Nature")), el("dd", {}, `${kindName(u.kind)}${u.type ? " · " + u.type : ""}${u.class ? " · " + L("class", "classe") + " " + u.class : ""}`),
      el("dt", {}, L("Figures", "Figurines")), el("dd", { testid: "gf-unit-figures" }, `${u.figures}${u.figures_max ? " / " + u.figures_max : ""}`),
      el("dt", {}, L("Formation", "Formation")), el("dd", {}, `${formationName(u.formation)}${u.frontage ? ` · ${u.frontage} ${L("front", "de front")} × ${u.ranks} ${L("ranks", "rangs")}` : ""}`),
      el("dt", {}, L("Base", "Socle")), el("dd", {}, `${fmtCm(u.width || 0)} × ${fmtCm(u.depth || 0)} cm · ${Math.round(u.heading || 0)}°`),
      el("dt", {}, L("Position", "Position")), el("dd", {}, `(${fmtCm(u.x)}, ${fmtCm(u.y)}) cm` + (u.altitude ? ` · ${altitudeName(u.altitude)}` : "")),
      el("dt", {}, L("Order", "Ordre")), el("dd", { testid: "gf-unit-order" }, u.order_hidden ? L("face down", "face cachée")
        : u.order ? nameOf(u.order) + aimedAt(u.order) : "—"));
    const status = [];
    if (u.disorder) status.push(L("in disorder", "en désordre"));
    for (const m of u.markers || []) if (!(m === "disorder" && u.disorder)) status.push(markerName(m));
    if (u.status && u.status !== "ok" && u.status !== "active") status.push(u.status);
    if (u.led_by) status.push(L("led by ", "mené par ") + targetName(u.led_by));
    if (u.brigade) status.push(L("in the brigade of ", "dans la brigade de ") + targetName(u.brigade));
    unitCard.append(head, facts);
    // the written battle order the unit carries out (only a side's own: the server sends no other)
    const bo = u.battle_order || (((v().battle_orders || {})[u.id] || {}).order);
    const pend = ((v().battle_orders || {})[u.id] || {}).pending;
    if (bo || pend) {
      unitCard.append(el("p", { class: "help", testid: "gf-battle-order" },
        L("Battle order (secret): ", "Ordre de bataille (secret) : ") + (bo ? nameOf(bo) + (bo.target_name ? " → " + bo.target_name : "") : "—") + " ",
        bo && bo.ref ? citeChips(bo.ref) : null,
        pend ? L(` · next turn: ${nameOf(pend)}`, ` · au prochain tour : ${nameOf(pend)}`) : ""));
    }
    if (status.length) unitCard.append(el("p", { class: "help" }, status.join(" · ")));
    const o = unitOpts(u.id);
    if (o && o.place && !core.state.replay) {
      unitCard.append(el("h3", {}, L("Deployment", "Déploiement")),
        el("p", { class: "help", testid: "gf-place-help" }, L("Click a ghost base or a spot in your deployment zone to place the unit there; the server checks the zone and the room.",
          "Cliquez un socle fantôme ou un point de votre zone de déploiement pour y placer l'unité ; le serveur vérifie la zone et la place.")));
    }
    if (o && o.moves && !core.state.replay) {
      const mv = o.moves;
      unitCard.append(el("h3", {}, L("Movement", "Mouvement")),
        el("p", { testid: "gf-move-allowance" }, `${L("allowance", "potentiel")} ${fmtCm(mv.max_cm || 0)} cm` +
          (st.dest ? ` · ${L("to the chosen spot", "jusqu'au point choisi")} ${fmtCm(Math.hypot(st.dest.x - u.x, st.dest.y - u.y))} cm` : "")),
        (mv.steps || []).length ? el("ul", { class: "gf-penalties", testid: "gf-allowance-steps" }, mv.steps.map((x) =>
          el("li", {}, (fr() ? x.text_fr || x.text : x.text) + " ", x.ref ? citeChips(x.ref) : null, x.decision ? citeChips(x.decision) : null))) : "",
        penaltyList(mv.penalties),
        el("p", { class: "help" }, L("Click a ghost base or any spot on the table; the server rules on the path before you commit.",
          "Cliquez un socle fantôme ou un point de la table ; le serveur juge le trajet avant que vous ne validiez.")));
    }
    if (o && o.ambush && !core.state.replay) {
      unitCard.append(el("h3", {}, L("Ambush", "Embuscade")),
        el("p", { class: "help", testid: "gf-ambush-help" }, st.ambush
          ? L("Click a spot out of the enemy's zone and out of its sight; the server rules on it before you commit. ",
              "Cliquez un point hors de la zone ennemie et hors de sa vue ; le serveur le juge avant que vous ne validiez. ")
          : L("Your side discovered its enemy: one unit may stand in ambush anywhere out of the enemy's zone and sight. ",
              "Votre camp a découvert l'ennemi : une unité peut se placer en embuscade n'importe où hors de la zone et de la vue ennemies. "),
          citeChips("GF seed 003 l.485; GF-K3")),
        el("div", { class: "card-actions" }, el("button", { type: "button", class: "btn" + (st.ambush ? " on" : ""), testid: "gf-ambush-mode",
          "aria-pressed": st.ambush ? "true" : "false",
          onclick: () => { st.ambush = !st.ambush; st.dest = null; st.preview = null; core.render(); } },
          st.ambush ? L("Cancel the ambush", "Annuler l'embuscade") : L("Place in ambush", "Placer en embuscade"))));
    }
    if (o && !core.state.replay && v().can_act) renderPickers(u, o);
    if (o && (o.moves || o.place || (st.ambush && o.ambush)) && !core.state.replay && !st.pick) {
      if (st.dest) {
        const turn = (d) => el("button", { type: "button", class: "btn icon", title: L(`turn ${d}°`, `tourner de ${d}°`),
          onclick: () => chooseDest(u, st.dest.x, st.dest.y, st.dest.heading + d) }, d > 0 ? "↻" : "↺");
        unitCard.append(el("div", { class: "card-actions" },
          turn(-45), el("span", { class: "muted" }, `${st.dest.heading}°`), turn(45),
          el("button", { type: "button", class: "btn primary", testid: "gf-move-commit",
            disabled: st.preview && st.preview.legal === false ? true : null,
            onclick: () => { const a = moveAction(u.id, st.dest); st.ambush = false; core.commit(a); } },
            st.ambush && o.ambush ? L("Ambush here", "Embuscade ici") : o.place ? L("Place here", "Placer ici") : L("Move here", "Aller ici")),
          el("button", { type: "button", class: "btn", onclick: () => { st.dest = null; st.preview = null; core.render(); } }, L("Cancel", "Annuler"))));
      }
    }
    const fire = (o && o.fire && o.fire.length ? o.fire : (st.detail && st.detail.fire) || []);
    if (fire.length) {
      unitCard.append(el("h3", {}, L("Fire — chance before the roll", "Tir — chance avant le jet")));
      unitCard.append(el("ul", { class: "gf-odds", testid: "gf-fire-odds" }, fire.map((f) => oddsItem(targetName(f.target), f.percent, f.steps, f.ref, f))));
    }
    const melee = (st.detail && st.detail.melee) || [];
    if (melee.length) {
      unitCard.append(el("h3", {}, L("Melee — chances before the rolls", "Mêlée — chances avant les jets")));
      unitCard.append(el("ul", { class: "gf-odds", testid: "gf-melee-odds" }, melee.map((m) =>
        oddsItem(`${targetName(m.target)} (${L("they", "eux")}: ${m.enemy_percent ?? "—"} %) —`, m.percent, m.steps, m.ref, m))));
    }
    if (o && (o.charge || []).length) {
      unitCard.append(el("h3", {}, L("Charge", "Charge")));
      unitCard.append(el("ul", { class: "gf-odds", testid: "gf-charge-odds" }, o.charge.map((c) =>
        oddsItem(`${targetName(c.target)} — ${fmtCm(c.distance_cm)} cm`, c.percent, c.steps, c.ref, c))));
    }
  }

  // the own decoy base being placed (GF-K5): where the player clicked, the server's ruling (renderPreview)
  function renderBaseCard() {
    const b = (v().bases || []).find((x) => x.id === st.base) || { id: st.base };
    const mv = (opts().bases || {})[st.base] || {};
    unitCard.append(el("h3", { testid: "gf-base-name" }, L(`Decoy base ${b.id}`, `Base leurre ${b.id}`)),
      el("p", { class: "help", testid: "gf-base-help" }, baseMoves(st.base)
        ? L(`Click a spot up to ${fmtCm(mv.max_cm)} cm away, straight (the normal move of your fastest unit on a base), with your hidden units. `,
            `Cliquez un point à ${fmtCm(mv.max_cm)} cm au plus, en ligne droite (le mouvement normal de votre unité la plus rapide sur une base), avec vos unités cachées. `)
        : L("Click a spot in your deployment zone: the enemy will see an anonymous base there, as it sees your units' bases. ",
            "Cliquez un point de votre zone de déploiement : l'ennemi y verra une base anonyme, comme celles de vos unités. "),
        citeChips(mv.ref || b.ref || "GF seed 003 l.491-495; GF-K5, OR-GF101")));
    if (st.baseDest) {
      unitCard.append(el("div", { class: "card-actions" },
        el("span", { class: "muted" }, `(${fmtCm(st.baseDest.x)}, ${fmtCm(st.baseDest.y)}) cm`),
        el("button", { type: "button", class: "btn primary", testid: "gf-base-commit",
          disabled: !st.preview || st.preview.loading || st.preview.legal === false ? true : null,
          onclick: () => { const a = baseAction(st.base, st.baseDest); st.base = null; st.baseDest = null; st.preview = null; core.commit(a); } },
          baseMoves(st.base) ? L("Move the decoy here", "Déplacer le leurre ici") : L("Place the decoy here", "Placer le leurre ici")),
        el("button", { type: "button", class: "btn", onclick: () => { st.base = null; st.baseDest = null; st.preview = null; core.render(); } },
          L("Cancel", "Annuler"))));
    }
  }

  // where each army stands against the victory conditions (the view's losses; OR-GF33)
  function lossesList() {
    const view = v(), losses = view.losses || {}, vic = view.victory || {};
    const sides = (view.sides || []).filter((sd) => losses[sd.id]);
    if (!sides.length) return "";
    const share = vic.broken_share !== undefined ? Math.round(vic.broken_share * 100) : null;
    return el("div", { testid: "gf-losses" },
      el("h3", {}, L("Losses", "Pertes")),
      el("ul", { class: "gf-penalties" }, sides.map((sd) => {
        const x = losses[sd.id];
        const pf = x.figures_start ? Math.round(100 * x.figures_lost / x.figures_start) : 0;
        return el("li", { testid: "gf-losses-" + sd.id }, el("span", { class: "side-chip", style: `--side:${colourOf(sd.id)}` }, sideName(sd.id)),
          ` ${x.figures_lost}/${x.figures_start} ${L("figures", "figurines")} (${pf} %) · ${fmtCm(x.points_lost).replace(/\.0$/, "")}/${x.points_start} pts` +
          (x.broken ? " · " + L("broken", "brisée") : ""));
      })),
      el("p", { class: "muted small" }, (share !== null ? L(`An army that loses more than ${share} % of its figures is broken; after turn ${vic.turn_limit}, the larger share of enemy points destroyed wins. `,
        `Une armée qui perd plus de ${share} % de ses figurines est brisée ; après le tour ${vic.turn_limit}, la plus grande part de points ennemis détruits l'emporte. `) : ""),
        citeChips([vic.ref, vic.decision].filter(Boolean).join("; "))));
  }

  function penaltyList(list) {
    if (!list || !list.length) return el("p", { class: "muted small", testid: "gf-penalties" }, L("terrain penalties: shown for the chosen spot", "pénalités de terrain : indiquées pour le point choisi"));
    return el("ul", { class: "gf-penalties", testid: "gf-penalties" }, list.map((p) => el("li", {},
      `${nameOf(p) || nameOf(((v().table || {}).terrain || []).find((t) => t.id === p.element)) || p.element || p.kind}: ${penaltyText(p)}` +
        (p.cost_cm !== undefined ? ` = ${fmtCm(p.cost_cm)} cm ` : " "), p.ref ? citeChips(p.ref) : null)));
  }
  function penaltyText(p) {
    if (p.fraction !== undefined && p.fraction !== null) {
      const f = typeof p.fraction === "number" ? `${Math.round(p.fraction * 100)} %` : String(p.fraction) === "1" ? L("all", "tout") : String(p.fraction);
      return (p.shape === "line" || /hedge|wall|stream|ford|haie|mur|cloture|ruisseau|riviere|gue|pont/.test(String(p.kind)))
        ? L(`costs ${f} of the movement left`, `coûte ${f} du mouvement restant`)
        : L(`${f} of the movement lost inside`, `${f} du mouvement perdu à l'intérieur`);
    }
    if (p.cm !== undefined) return `−${fmtCm(p.cm)} cm`;
    return p.text || "";
  }

  function oddsItem(label, percent, steps, ref, raw) {
    const li = el("li", { testid: "gf-odds-item" },
      el("span", {}, label + " "),
      el("strong", { class: "gf-pct", testid: "gf-pct" }, percent === null || percent === undefined ? "—" : `${percent} %`),
      ref ? el("span", { class: "ev-ref" }, " ", citeChips(ref)) : null);
    if (steps && steps.length) {
      li.appendChild(el("details", { class: "ev-ruling" }, el("summary", {}, L("how", "comment")),
        el("ol", { class: "explanation" }, steps.map((s) => el("li", {}, typeof s === "string" ? s : (fr() ? s.text_fr || s.text : s.text) || "")))));
    }
    return li;
  }

  function renderPreview() {
    const r = st.preview;
    previewCard.hidden = !r;
    previewCard.innerHTML = "";
    if (!r) return;
    if (r.loading) { previewCard.append(el("p", { class: "muted" }, L("asking the referee…", "l'arbitre examine…"))); return; }
    previewCard.append(el("h3", {}, r.isMove ? L("The move, ruled", "Le mouvement, arbitré") : L("Ruling", "Arbitrage")));
    if (r.legal === false) {
      previewCard.append(el("p", { class: "refusal", testid: "gf-refusal" }, r.reason || L("not allowed", "interdit")), citesOf((r.citations || []).filter(Boolean).length ? r.citations : (r.ref ? [r.ref] : [])));
      return;
    }
    const m = r.move || {};
    const allowed = r.allowed_cm ?? m.allowance_cm, spent = r.spent_cm ?? m.cost_cm;
    const left = r.left_cm ?? (allowed !== undefined && spent !== undefined ? allowed - spent : undefined);
    if (allowed !== undefined) {
      previewCard.append(el("p", { testid: "gf-move-ruling" },
        `${L("allowance", "potentiel")} ${fmtCm(allowed)} cm · ${L("spent", "dépensé")} ${fmtCm(spent || 0)} cm` +
        (m.path_cm !== undefined ? ` (${L("path", "trajet")} ${fmtCm(m.path_cm)} + ${L("wheel", "pivot")} ${fmtCm(m.wheel_cm || 0)} + ${L("terrain", "terrain")} ${fmtCm(m.terrain_cm || 0)})` : "") +
        ` · ${L("left", "reste")} ${fmtCm(left || 0)} cm`));
    }
    const pens = r.penalties || m.penalties || (Array.isArray(m.terrain) && m.terrain.length ? m.terrain : null);
    if (pens) previewCard.append(penaltyList(pens));
    else if (Array.isArray(m.terrain)) previewCard.append(el("p", { class: "muted small", testid: "gf-penalties" }, L("no terrain on this path", "aucun terrain sur ce trajet")));
    const steps = (fr() && r.steps_fr) || r.steps || [];
    previewCard.append(el("ol", { class: "explanation", testid: "gf-preview-steps" }, steps.map((s) => el("li", {}, typeof s === "string" ? s : (fr() ? s.text_fr || s.text : s.text) || ""))));
    if (r.percent !== undefined && r.percent !== null) previewCard.append(el("p", { testid: "gf-preview-pct" }, el("strong", {}, `${r.percent} %`)));
    if (r.outcomes) previewCard.append(el("ul", { testid: "odds" }, r.outcomes.map((o) =>
      el("li", {}, `${o.result}${o.label ? " — " + (fr() ? o.label_fr || o.label : o.label) : ""}: ${pct(o.p)}`))));
    previewCard.append(citesOf(r.citations));
  }

  // every other offered action (reactions, morale choices, end of phase…) as a button, with "?"
  function renderActions() {
    actionsCard.innerHTML = "";
    const view = v();
    if (core.state.replay || !view.can_act) { actionsCard.hidden = true; return; }
    let list = generic().filter((o) => !["orders", "end_phase", "end_step", "move", "place"].includes(o.action.type));
    if (st.selected) list = list.filter((o) => !o.action.unit || o.action.unit === st.selected);
    actionsCard.hidden = !list.length;
    if (!list.length) return;
    actionsCard.append(el("h3", {}, L("Actions", "Actions")));
    const ul = el("ul", { class: "choices" });
    for (const o of list.slice(0, 40)) {
      ul.appendChild(el("li", {},
        el("button", { type: "button", class: "btn", testid: "gf-action", onclick: () => core.commit(o.action) }, labelOf(o)),
        el("button", { type: "button", class: "btn icon", title: L("the ruling and its odds before rolling", "l'arbitrage et ses chances avant le jet"),
          testid: "gf-explain", onclick: async () => { const r = await core.explain(o.action); st.preview = r; renderPreview(); } }, "?")));
    }
    actionsCard.append(ul);
    if (list.length > 40) actionsCard.append(el("p", { class: "muted" }, L("select a unit to narrow the list", "choisissez une unité pour réduire la liste")));
  }

  function renderRoster() {
    rosterCard.innerHTML = "";
    const units = positions();
    rosterCard.append(el("summary", {}, L(`Units on the table (${units.length})`, `Unités sur la table (${units.length})`)));
    for (const side of (v().sides || []).map((s) => s.id)) {
      const mine = units.filter((u) => u.side === side);
      rosterCard.append(el("h3", {}, el("span", { class: "side-chip", style: `--side:${colourOf(side)}` }, sideName(side)),
        ` ${mine.reduce((n, u) => n + (u.figures || 0), 0)} ${L("figures", "figurines")}`));
      rosterCard.append(el("ul", { class: "gf-roster-list" }, mine.map((u) => el("li", { testid: "gf-roster-" + u.id },
        el("a", { href: "#", onclick: (e) => { e.preventDefault(); st.selected = u.id; st.dest = null; core.render(); } }, u.name),
        ` — ${u.figures}${u.figures_max ? "/" + u.figures_max : ""} · ${formationName(u.formation)}` +
          (u.disorder ? " · " + L("disorder", "désordre") : "") + (u.order_hidden ? " · ▣" : u.order ? " · " + nameOf(u.order) : "")))));
    }
  }

  /* --- the phase bar ------------------------------------------------------------------------------- */
  function phase(view, f) {
    const phases = view.phases || [];
    const fp = f && f.phase !== undefined && f.phase !== null ? f.phase : null;
    const cur = fp === null ? phaseId(view)
      : typeof fp === "object" ? fp.id : ((phases.find((p) => p.number === fp) || {}).id || (fp === 0 ? "deployment" : fp));
    const sub = view.orders_submitted || {};
    let note = "";
    if (isOrders(view) && !f) note = (view.sides || []).map((s) => `${sideName(s.id)} ${sub[s.id] ? "▣" : "…"}`).join(" · ");
    return {
      steps: phases.map((p) => ({ id: p.id, label: `${shortPhase(p)}`, title: `${p.number}. ${nameOf(p)} — ${p.ref || ""}` })),
      current: cur, note: note ? L("orders given: ", "ordres donnés : ") + note : "", pending: null,
    };
  }
  const shortPhase = (p) => { const n = nameOf(p); return n.length > 16 ? n.slice(0, 15) + "…" : n; };

  function help(view) {
    const p = (view.phases || []).find((x) => x.id === phaseId(view)) || view.phase || {};
    const name = `${p.number ? p.number + ". " : ""}${nameOf(p)}${p.ref ? " (" + p.ref + ")" : ""}`;
    if (isOrders(view)) return name + " — " + L("choose your orders in secret, then give them face down.", "choisissez vos ordres en secret, puis donnez-les face cachée.");
    return name;
  }

  function endStep(view) {
    const o = ((view.options && view.options.actions) || []).find((x) => ["end_phase", "end_step", "next_phase"].includes(x.action.type));
    return o ? o.action : null;
  }

  return {
    state: st,
    render() {
      fetchDetail();
      renderTools();
      renderCover();
      drawTable();
      renderPanel();
    },
    update(old, view) {
      if (old && phaseId(old) !== phaseId(view)) { st.dest = null; st.preview = null; st.pick = null; }
      if (st.pick && !(view.can_act && unitOf(st.pick.unit))) { st.pick = null; st.preview = null; }
      if (!secretStep(view)) st.ack = null;
      if (old && old.to_act !== view.to_act && isOrders(view)) st.draft = {};
      if (st.selected && !unitOf(st.selected)) st.selected = null;
    },
    clear() { st.dest = null; st.preview = null; st.base = null; st.baseDest = null; st.ambush = false; st.pick = null; },
    phase, help, endStep,
    stepName: (s) => { const p = (v().phases || []).find((x) => x.id === s); return p ? nameOf(p) : s === "deployment" ? L("Deployment", "Déploiement") : String(s || ""); },
    colourOf,
    onLanguage() { st.preview = null; },
    onKey(e) {
      if (e.key === "Escape") { st.selected = null; st.dest = null; st.preview = null; st.tape = null; st.tool = "select";
        st.base = null; st.baseDest = null; st.ambush = false; st.pick = null; core.render(); return true; }
      if (e.key === "m" || e.key === "M") { st.tool = st.tool === "tape" ? "select" : "tape"; core.render(); return true; }
      return false;
    },
  };
}

/* The home page's scenario briefing (web/static/lobby.js; docs/api.md § Lobby): the same table,
 * drawn read-only from the opening position a spectator sees (no options, no orders: nothing to
 * act on; the tools stay for measuring). */
export async function preview(container, briefing) {
  const fr = () => window.I18N && window.I18N.lang() === "fr";
  const view = Object.assign({ sides: briefing.sides, seat: null }, briefing.view);
  const sideName = (id) => {
    const s = briefing.sides.find((x) => x.id === id);
    return s ? (fr() ? s.name_fr || s.name : s.name) : id;
  };
  const none = () => document.createTextNode("");
  const core = {
    el: window.DOM.el, fr, pct: (p) => `${Math.round(p * 100)} %`, sideName, citesOf: none, citeChips: none,
    $: (id) => document.getElementById(id), state: { view, replay: null, busy: false },
    frame: () => null, render: () => {}, commit: () => {}, explain: async () => ({}), get: async () => ({}),
    t: (k) => k, toast: () => {}, handleError: () => {},
  };
  container.innerHTML = "";
  const ctl = await mount({ board: container, panel: document.createElement("div") }, core, view);
  ctl.render();
  return ctl;
}
