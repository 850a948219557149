/* Oriflamme — the leader-activation battle game's browser module (seed 001 + house rules).
 *
 * Loaded by the generic game page (web/static/play.js) from
 * /static/rulesets/leader-battle/module.js; `mount(containers, core, view)` returns the
 * controller documented there. It draws the hex board (terrain, the river, the bridge, the
 * banner's hexside, the objectives), the units in their stacks with their facing and steps,
 * the leaders, and the phase bar A–E with the seed's lines; a click on a unit lists the actions
 * the server offers for it, a click on a hex keeps those that go there. It computes no rule:
 * every action it commits is one of `view.options.actions`, every preview is `/explain`.
 */
const SIZE = 30;
const SQ3 = Math.sqrt(3);
const NS = "http://www.w3.org/2000/svg";
const COLOURS = ["#a8322d", "#2f4f8f"];
const TERRAIN = { clear: "#e9e0c6", woods: "#9fbf85", village: "#d2b48c" };
const HEXSIDE = { river: ["#3d7fc4", 6], bridge: ["#7a5230", 7], banner: ["#c0392b", 5] };
const ABBR = { infantry: "INF", cavalry: "CAV", light_cavalry: "LC", archers: "ARC", artillery: "ART" };

function axial(label) {
  const col = parseInt(label.slice(0, 2), 10) - 1, row = parseInt(label.slice(2), 10) - 1;
  return [col, row - (col - (col & 1)) / 2];
}
function centre(label) {
  const [q, r] = axial(label);
  return [SIZE * 1.5 * q + SIZE + 4, SQ3 * SIZE * (r + q / 2) + SQ3 * SIZE / 2 + 4];
}
function corners(x, y, s = SIZE) {
  return [0, 1, 2, 3, 4, 5].map((i) => [x + s * Math.cos(Math.PI / 3 * i), y + s * Math.sin(Math.PI / 3 * i)]);
}
function svg(tag, attrs, ...kids) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) e.setAttribute(k, v);
  for (const k of kids) e.appendChild(typeof k === "string" ? document.createTextNode(k) : k);
  return e;
}
// the hexside between two adjacent hexes: the two corners they share
function sharedEdge(a, b) {
  const [ax, ay] = centre(a), [bx, by] = centre(b);
  const pa = corners(ax, ay), pb = corners(bx, by);
  return pa.filter(([x, y]) => pb.some(([u, v]) => Math.hypot(x - u, y - v) < 1));
}
// the point of a hex's side in a direction (0 N, clockwise)
function sidePoint(x, y, dir, k = 0.78) {
  const ang = -Math.PI / 2 + dir * Math.PI / 3;
  return [x + Math.cos(ang) * SIZE * SQ3 / 2 * k, y + Math.sin(ang) * SIZE * SQ3 / 2 * k];
}

export async function mount(containers, core, view) {
  const { el, fr, pct, $, sideName, citesOf } = core;
  const st = { selected: null, hex: null, preview: null,
               get view() { return core.state.view; } };
  const L = (en, frTxt) => (fr() ? frTxt : en);

  containers.board.innerHTML = "";
  const box = el("div", { class: "board", testid: "board", id: "board" });
  containers.board.appendChild(box);
  containers.panel.innerHTML = "";
  const house = el("section", { class: "card", testid: "house-rules" });
  const actions = el("section", { class: "card prompts", testid: "lb-actions" });
  const preview = el("section", { class: "card preview", testid: "preview", hidden: true });
  containers.panel.append(house, actions, preview);

  const colourOf = (side) => COLOURS[Math.max(0, st.view.sides.findIndex((s) => s.id === side))] || "#555";
  const offered = () => ((st.view.options && st.view.options.actions) || []);
  const unitOf = (id) => st.view.units.find((u) => u.id === id);
  const destOf = (a) => a.to || a.hex || (a.target && unitOf(a.target) && unitOf(a.target).hex) || null;

  function positions() {
    const f = core.frame();
    const units = st.view.units.map((u) => ({ ...u }));
    const leaders = st.view.leaders.map((l) => ({ ...l }));
    if (f && f.units) {
      for (const p of f.units) Object.assign(units.find((u) => u.id === p.id) || {}, p);
      for (const p of f.leaders) Object.assign(leaders.find((l) => l.id === p.id) || {}, p);
    }
    return { units: units.filter((u) => u.hex), leaders: leaders.filter((l) => !l.lost) };
  }

  function drawBoard() {
    const v = st.view, m = v.map;
    const W = SIZE * 1.5 * m.cols + SIZE + 8, H = SQ3 * SIZE * (m.rows + 0.5) + 8;
    const root = svg("svg", { class: "board-svg", viewBox: `0 0 ${W} ${H}`, "data-testid": "lb-svg" });
    const { units, leaders } = positions();
    const mine = offered().filter((o) => o.action.unit === st.selected).map((o) => destOf(o.action));
    for (let c = 1; c <= m.cols; c++) for (let r = 1; r <= m.rows; r++) {
      const lab = String(c).padStart(2, "0") + String(r).padStart(2, "0");
      const [x, y] = centre(lab);
      const mark = mine.includes(lab);
      const hexEl = svg("polygon", { class: "hex", points: corners(x, y).map((p) => p.join(",")).join(" "),
        fill: TERRAIN[m.terrain[lab] || "clear"], "data-hex": lab, "data-testid": "hex-" + lab,
        stroke: mark ? "#1a7f37" : null, "stroke-width": mark ? 3 : null });
      hexEl.addEventListener("click", () => { st.hex = mark ? lab : null; renderPanel(); });
      root.appendChild(hexEl);
      root.appendChild(svg("text", { x, y: y + SIZE * 0.78, "font-size": 7, "text-anchor": "middle", fill: "#7a6f55",
        "pointer-events": "none" }, lab));
      if (m.objectives.includes(lab)) root.appendChild(svg("circle", { cx: x, cy: y, r: SIZE * 0.8, fill: "none",
        stroke: "#b8860b", "stroke-width": 2, "stroke-dasharray": "4 3", "pointer-events": "none", "data-testid": "objective" }));
    }
    for (const s of m.hexsides) {
      const [p, q] = sharedEdge(s.a, s.b);
      if (!p || !q) continue;
      const [colour, w] = HEXSIDE[s.kind] || ["#000", 3];
      root.appendChild(svg("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], stroke: colour, "stroke-width": w,
        "stroke-linecap": "round", "data-testid": "hexside-" + s.kind, "pointer-events": "none" },
        svg("title", {}, s.kind)));
      if (s.kind === "banner") {
        const mx = (p[0] + q[0]) / 2, my = (p[1] + q[1]) / 2;
        root.appendChild(svg("path", { d: `M${mx},${my} v-16 l10,4 l-10,4`, fill: "#c0392b", stroke: "#3b1d12",
          "data-testid": "lb-banner", "pointer-events": "none" },
          svg("title", {}, fr() ? m.banner.name_fr || m.banner.name : m.banner.name)));
      }
    }
    const stacks = {};
    for (const u of units) (stacks[u.hex] = stacks[u.hex] || []).push(u);
    for (const [lab, us] of Object.entries(stacks)) us.forEach((u, i) => root.appendChild(counter(u, lab, i, us.length)));
    for (const l of leaders) {
      const [x, y] = centre(l.hex);
      root.appendChild(svg("g", { "data-testid": "leader-" + l.id },
        svg("circle", { cx: x + SIZE * 0.55, cy: y - SIZE * 0.5, r: 7, fill: "#f4d03f", stroke: colourOf(l.side), "stroke-width": 2.5 }),
        svg("text", { x: x + SIZE * 0.55, y: y - SIZE * 0.5 + 3, "font-size": 8, "text-anchor": "middle", "font-weight": 700 },
          l.name.split(" ").pop()[0]),
        svg("title", {}, `${l.name} — ${L("command range", "rayon de commandement")} ${l.command_range}`)));
    }
    box.innerHTML = "";
    box.appendChild(root);
  }

  function counter(u, lab, i, n) {
    const [cx, cy] = centre(lab);
    // a stack: its counters side by side, each one clickable
    const w = n > 1 ? 26 : 30, h = n > 1 ? 22 : 24;
    const x = n > 1 ? cx - 27 + i * 28 : cx - 15, y = cy - h / 2;
    const sel = u.id === st.selected;
    const g = svg("g", { class: "counter", "data-testid": "unit-" + u.id, "data-unit": u.id, cursor: "pointer",
      opacity: u.in_command === false ? 0.75 : 1 });
    g.appendChild(svg("rect", { x, y, width: w, height: h, rx: 3, fill: colourOf(u.side),
      stroke: sel ? "#f1c40f" : "#1b1b1b", "stroke-width": sel ? 3 : 1, "stroke-dasharray": u.disordered ? "3 2" : null }));
    const [fx, fy] = sidePoint(x + w / 2, y + h / 2, u.facing, 0.5);
    g.appendChild(svg("line", { x1: x + w / 2, y1: y + h / 2, x2: fx, y2: fy, stroke: "#fff", "stroke-width": 2.5 }));
    g.appendChild(svg("text", { x: x + w / 2, y: y + h / 2 - 2, "font-size": 8, "text-anchor": "middle", fill: "#fff", "font-weight": 700 },
      ABBR[u.kind] || u.kind));
    g.appendChild(svg("text", { x: x + w / 2, y: y + h - 3, "font-size": 8, "text-anchor": "middle", fill: "#fff" }, `${u.steps}/${u.max_steps}`));
    g.appendChild(svg("title", {}, `${u.name} — ${fr() ? u.kind_name_fr : u.kind_name} (${sideName(u.side)})\n` +
      `${L("steps", "pas")} ${u.steps}/${u.max_steps} · ${L("movement", "mouvement")} ${u.movement}` +
      (u.fire ? ` · ${L("range", "portée")} ${u.range}` : "") + (u.disordered ? ` · ${L("disordered", "désorganisée")}` : "") +
      (u.in_command === false ? ` · ${L("out of command", "hors commandement")}` : "")));
    g.addEventListener("click", (e) => {
      e.stopPropagation();
      const mark = st.selected && offered().some((o) => o.action.unit === st.selected && destOf(o.action) === lab);
      if (mark && (u.id !== st.selected || st.hex !== lab)) st.hex = lab;  // narrow to this hex (a turn in place)
      else { st.selected = st.selected === u.id ? null : u.id; st.hex = null; }
      st.preview = null;
      core.render();
    });
    return g;
  }

  function renderHouse() {
    const v = st.view;
    house.innerHTML = "";
    house.append(el("p", { class: "help" }, el("strong", {}, fr() ? v.house_rules_fr : v.house_rules)));
    const b = v.broken || {};
    house.append(el("p", { class: "muted" }, v.sides.map((s) =>
      `${sideName(s.id)}: ${L("broken", "brisées")} ${b[s.id] || 0}/${v.break_points[s.id]}`).join(" · ")));
  }

  async function showPreview(action) {
    const r = await core.explain(action);
    if (!r) return;
    st.preview = r;
    renderPreview();
  }

  function renderPreview() {
    const r = st.preview;
    preview.hidden = !r;
    preview.innerHTML = "";
    if (!r) return;
    if (r.legal === false) {
      preview.append(el("p", { class: "refusal" }, r.reason), citesOf(r.citations));
      return;
    }
    preview.append(el("h3", {}, L("Ruling", "Arbitrage") + (r.column ? ` — ${L("column", "colonne")} ${r.column}` : "")),
      el("ol", { class: "explanation" }, (r.steps || []).map((s) => el("li", {}, s))));
    if (r.outcomes) preview.append(el("ul", { testid: "odds" }, r.outcomes.map((o) =>
      el("li", {}, `${o.result}${o.label ? " — " + (fr() ? o.label_fr || o.label : o.label) : ""}: ${pct(o.p)}`))));
    preview.append(citesOf(r.citations));
  }

  function renderPanel() {
    renderHouse();
    actions.innerHTML = "";
    const v = st.view;
    if (core.state.replay || !v.can_act) { actions.hidden = true; renderPreview(); return; }
    actions.hidden = false;
    let list = offered().filter((o) => o.action.type !== "end_step");
    const general = list.filter((o) => !o.action.unit);
    if (st.selected) list = list.filter((o) => o.action.unit === st.selected);
    if (st.hex) list = list.filter((o) => destOf(o.action) === st.hex);
    const shown = st.selected ? list : general;
    const sel = st.selected && unitOf(st.selected);
    actions.append(el("h3", {}, sel ? sel.name : L("Actions", "Actions")));
    if (!st.selected && !general.length) actions.append(el("p", { class: "help" },
      L("Select a unit (or its leader) to see what it may do.", "Choisissez une unité (ou son chef) pour voir ce qu'elle peut faire.")));
    const ul = el("ul", { class: "choices" });
    for (const o of shown.slice(0, 60)) {
      ul.appendChild(el("li", {},
        el("button", { type: "button", class: "btn", testid: "lb-action", onclick: () => core.commit(o.action) }, o.label),
        ["fire", "melee", "initiative", "rally"].includes(o.action.type)
          ? el("button", { type: "button", class: "btn icon", title: L("odds", "chances"), onclick: () => showPreview(o.action) }, "?")
          : null));
    }
    actions.append(ul);
    if (shown.length > 60) actions.append(el("p", { class: "muted" }, L("click a marked hex to narrow the list", "cliquez un hex marqué pour réduire la liste")));
    // the activated leader moves too (D1): his moves are listed under his name
    const ld = v.active_leader && v.leaders.find((l) => l.id === v.active_leader);
    if (ld && !st.selected && offered().some((o) => o.action.unit === ld.id)) {
      actions.append(el("button", { type: "button", class: "btn", testid: "select-leader",
        onclick: () => { st.selected = ld.id; core.render(); } }, L("Move ", "Déplacer ") + ld.name));
    }
    renderPreview();
  }

  function phase(v, f) {
    const step = f ? f.step : v.step;
    let note = fr() ? "Règles maison (hors séquence et tirs)" : "House rules (beyond sequence and fire)";
    if (!f && v.step === "B" && v.b_index !== null && v.b_order[v.b_index]) {
      const o = v.b_order[v.b_index];
      note = `B: ${sideName(o.side)} — ${o.category} (${o.ref})`;
    } else if (!f && v.active_leader) {
      const ld = v.leaders.find((l) => l.id === v.active_leader);
      note = `${L("Activated", "Activé")}: ${ld ? ld.name : v.active_leader}` +
        (v.combat ? ` · ${L("combat", "combat")} ${v.combat} (${v.combat_stage})` : "");
    }
    return {
      steps: v.steps.map((s) => ({ id: s.id, label: `${s.id} · ${(s.ref.match(/l\.[\d-]+/) || [""])[0]}`, title: `${fr() ? s.title_fr : s.title} — ${s.ref}${s.house ? "; " + s.house : ""}` })),
      current: step, note, pending: null,
    };
  }

  function endStep(v) {
    const o = ((v.options && v.options.actions) || []).find((x) => x.action.type === "end_step");
    return o ? o.action : null;
  }

  function help(v) {
    const s = v.steps.find((x) => x.id === v.step);
    return s ? `${fr() ? s.title_fr : s.title} (${s.ref})` : "";
  }

  return {
    state: st,
    render() { drawBoard(); renderPanel(); },
    update(old, v) {
      if (st.selected && !offered().some((o) => o.action.unit === st.selected) && !unitOf(st.selected)) st.selected = null;
    },
    clear() { st.hex = null; st.preview = null; },
    reset() { st.selected = null; st.hex = null; st.preview = null; },
    // the units (and leaders) the offered actions still name, besides ending the step
    stillToAct(v) {
      const ids = [...new Set(offered().filter((o) => o.action.type !== "end_step" && o.action.unit).map((o) => o.action.unit))];
      return ids.map((id) => { const u = unitOf(id); const ld = (v.leaders || []).find((l) => l.id === id); return u ? u.name : ld ? ld.name : id; });
    },
    phase, help, endStep,
    stepName: (s) => s,
    colourOf: (side) => colourOf(side),
    onLanguage() { st.preview = null; },
    onKey(e) {
      if (e.key === "Escape") { st.selected = null; st.hex = null; st.preview = null; core.render(); return true; }
      return false;
    },
  };
}

/* The home page's scenario briefing (web/static/lobby.js; docs/api.md § Lobby): the same board,
 * drawn read-only from the opening position a spectator sees (no options: nothing to click for). */
export async function preview(container, briefing) {
  const fr = () => window.I18N && window.I18N.lang() === "fr";
  const view = Object.assign({ sides: briefing.sides }, briefing.view);  // as the game page's view has them
  const sideName = (id) => {
    const s = briefing.sides.find((x) => x.id === id);
    return s ? (fr() ? s.name_fr || s.name : s.name) : id;
  };
  const core = {
    el: window.DOM.el, fr, pct: (p) => `${Math.round(p * 100)} %`, $: (id) => document.getElementById(id), sideName,
    citesOf: () => document.createTextNode(""), state: { view, replay: null, busy: false },
    frame: () => null, render: () => {}, commit: () => {}, get: async () => ({}),
  };
  container.innerHTML = "";
  const ctl = await mount({ board: container, panel: document.createElement("div") }, core, view);
  ctl.render();
  return ctl;
}
