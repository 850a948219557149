/* Oriflamme — Magna Carta's browser module: the hex board, the counters, the cards of the
 * side panel (prompts, fire declarations, the odds preview, "why not?", the selected
 * character) and the clicks that become actions.
 *
 * Loaded by the generic game page (web/static/play.js) with `import()`, from
 * /static/rulesets/magna-carta/module.js; it implements the interface documented there:
 * `mount(containers, core, view)` returns the controller the page calls. The module computes no
 * rule: it highlights what the server's view offers (`options`), previews the server's rulings
 * and asks `/explain` "why not?" for anything else. Every action it commits is one of the
 * offered `action` objects.
 */
import "./board.js";  // defines window.OriflammeBoard (pure drawing)
import { BOARD_TEXTS } from "./board_texts.js";  // the board's own strings (card, tracker, dice)

const { Board, TERRAIN_STYLE, FEATURE_STYLE, featureName, animalSymbol } = window.OriflammeBoard;
const ROLL_SHOWN_MS = 9000;  // how long the die just rolled stays on its target
const STEPS = ["offensive_fire", "movement", "melee", "recovery"];
const PENDING = ["retreat", "advance", "casualty", "place", "set_down", "defensive_fire", "grab", "counter_charge"];

// the board's frame and the panel's cards: the ids and test ids the page had before the split
const BOARD_HTML = `
  <div id="board" class="board" data-testid="board"><p class="muted loading" data-i18n="play.loading"></p></div>
  <div class="zoom-controls" role="group">
    <button type="button" class="btn icon" id="zoom-in" data-testid="zoom-in" data-i18n-title="zoom.in">+</button>
    <button type="button" class="btn icon" id="zoom-out" data-testid="zoom-out" data-i18n-title="zoom.out">−</button>
    <button type="button" class="btn icon" id="zoom-reset" data-testid="zoom-reset" data-i18n-title="zoom.reset">⤢</button>
  </div>
  <details class="legend" id="legend" data-testid="legend">
    <summary data-i18n="legend.title"></summary>
    <div id="legend-body"></div>
  </details>
  <details class="victory-tracker" id="victory" data-testid="victory-tracker" hidden>
    <summary id="victory-summary" data-testid="victory-summary"></summary>
    <div id="victory-body"></div>
  </details>
  <button type="button" class="btn icon board-size" id="board-size" data-testid="board-size" data-i18n-title="board.grow">⇕</button>
  <div class="counter-card" id="counter-card" data-testid="counter-card" role="tooltip" hidden></div>`;
const PANEL_HTML = `
  <section id="prompts" class="card prompts" data-testid="prompts" hidden></section>
  <section id="declarations" class="card prompts" data-testid="declarations" hidden></section>
  <section id="preview" class="card preview" data-testid="preview" hidden></section>
  <section id="whynot" class="card whynot" data-testid="why-not" hidden></section>
  <section id="selection" class="card selection" data-testid="selection" hidden></section>`;

/* the board's stylesheet, beside this module (a <link>: the pages' CSP allows 'self' styles) */
function loadStyle(href) {
  if (document.querySelector(`link[data-board-css]`)) return Promise.resolve();
  return new Promise((resolve) => {
    const l = document.createElement("link");
    l.rel = "stylesheet"; l.href = href; l.dataset.boardCss = "1";
    l.onload = () => resolve(); l.onerror = () => resolve();
    document.head.appendChild(l);
  });
}

export async function mount(containers, core, view) {
  const { t, el, fr, pct, human, $, sideName, citeChips, citesOf, handleError } = core;
  const commit = (action) => core.commit(action);
  const render = () => core.render();
  const frame = () => core.frame();

  // the module's own state; the position, the replay and the busy flag are the page's
  const st = {
    map: null, board: null,
    selected: null,       // id of the selected character
    preview: null,        // {kind: "fire"|"attack", option}
    groupChoice: null,    // attack groups offered for a clicked defender
    facingChoice: null,   // a rider's moves ending on the clicked hex, one per facing (§4.4.1)
    movesCache: {},       // "version/char" -> a rider's move list (GET /moves/{char})
    movesLoading: {},     // "version/char" -> the pending fetch
    why: null,            // {title, ruling, note, action}
    hover: null,
    get view() { return core.state.view; },
    get replay() { return core.state.replay; },
    get busy() { return core.state.busy; },
  };

  function chars() { return st.view ? st.view.characters : []; }
  function charById(id) { return chars().find((c) => c.id === id); }
  function charName(id) { const c = charById(id); return c ? c.name : id; }
  function names(ids) { return ids.map(charName).join(fr() ? " et " : " & "); }
  // a character's type and weapon in the page's language (the view's display names, else the id)
  function typeName(c) { return (fr() ? c.type_name_fr : c.type_name) || human(c.type); }
  function weaponName(c) { return (fr() ? c.weapon_name_fr : c.weapon_name) || human(c.weapon); }

  function hasOptions(id) {
    const o = st.view.options;
    if (!o) return false;
    return reachOf(id).length > 0 || o.fires.some((f) => f.action.shooter === id) ||
      o.attacks.some((a) => a.action.attackers.includes(id)) ||
      (o.horse_targets || []).some((h) => h.action.shooter === id || (h.action.attackers || []).includes(id)) ||
      (o.extras || []).some((h) => h.action.char === id);
  }

  /* --- moves ----------------------------------------------------------------------------------
   * The view gives every mover's reachable hexes with their cheapest cost (options.reach) and the
   * full move lists of characters on foot (options.moves). A rider's list (one move per hex and
   * facing, hundreds) is fetched when he is selected: GET /moves/{char}, cached per version. */
  function reachOf(id) {
    const o = st.view && st.view.options;
    return o && o.reach && o.reach[id] ? Object.keys(o.reach[id]) : [];
  }

  function movesOf(id) {  // the list if known now, else null (and a fetch is started)
    const o = st.view && st.view.options;
    if (!o) return [];
    if (o.moves[id]) return o.moves[id];
    if (!reachOf(id).length) return [];
    const key = st.view.version + "/" + id;
    if (st.movesCache[key]) return st.movesCache[key];
    if (!st.movesLoading[key]) {
      st.movesLoading[key] = core.get("/moves/" + encodeURIComponent(id)).then((r) => {
        st.movesCache = { [key]: r.moves };  // keep only the latest
        delete st.movesLoading[key];
        if (st.view && st.view.version + "/" + id === key) { renderBoardMarks(); if (st.hover) onHover(st.hover); }
        return r.moves;
      }).catch((e) => { delete st.movesLoading[key]; handleError(e); return []; });
    }
    return null;
  }

  async function movesNow(id) {  // the list, waiting for the fetch if needed
    const m = movesOf(id);
    if (m !== null) return m;
    return (await st.movesLoading[st.view.version + "/" + id]) || [];
  }

  async function whyNot(action, title, note) {
    const r = await core.explain(action);
    if (!r) return;
    st.why = { title, ruling: r, note, action };
    st.preview = null;
    renderPanel();
    renderBoardMarks();
    reveal($("whynot"));
  }

  function renderPanel() {
    renderPrompts();
    renderDeclarations();
    renderPreview();
    renderWhy();
    renderSelection();
  }

  /* --- board interaction ------------------------------------------------------------------------- */
  function actingSide() { return st.view && st.view.options ? st.view.to_act : null; }

  function onCounter(id, hex) {
    if (!st.view) return;
    const c = charById(id);
    if (!c) return;
    const o = st.view.options;
    if (st.replay || !o || (o.prompts && o.prompts.length)) {
      if (o && o.prompts && o.prompts.length) {
        const dest = o.prompts.find((p) => p.action.path && p.action.path[p.action.path.length - 1] === hex);
        if (dest) return commit(dest.action);
      }
      st.selected = id; st.why = null; render(); return;
    }
    const sel = st.selected && charById(st.selected);
    const mine = c.side === actingSide();
    if (sel && sel.side === actingSide() && !mine) {
      // a target for the selected character
      if (st.view.step === "offensive_fire") return onTarget(sel, c);
      if (st.view.step === "melee") return onTarget(sel, c);
      if (st.view.step === "movement") return onHex(hex);
    }
    if (sel && sel.id === id) { st.selected = null; st.why = null; render(); return; }
    st.selected = id;
    st.why = null; st.preview = null; st.groupChoice = null; st.facingChoice = null;
    render();
  }

  function onTarget(sel, target) {
    const o = st.view.options;
    if (st.view.step === "offensive_fire") {
      const opt = o.fires.find((f) => f.action.shooter === sel.id && f.action.target === target.id);
      if (opt) { openPreview("fire", opt); return; }
      return whyNot({ type: "fire", shooter: sel.id, target: target.id }, t("preview.fire", { shooter: sel.name, target: target.name }));
    }
    const groups = o.attacks.filter((a) => a.action.attackers.includes(sel.id) && a.action.defenders.includes(target.id));
    if (groups.length === 1) { openPreview("attack", groups[0]); return; }
    if (groups.length > 1) { st.groupChoice = groups; st.preview = null; st.why = null; render(); return; }
    return whyNot({ type: "attack", attackers: [sel.id], defenders: [target.id] },
                  t("preview.attack", { attackers: sel.name, defenders: target.name }));
  }

  async function onHex(label) {
    if (!st.view || st.replay) return;
    const o = st.view.options;
    if (!o) { st.selected = null; render(); return; }
    if (o.prompts && o.prompts.length) {
      const p = o.prompts.find((x) => (x.action.path && x.action.path[x.action.path.length - 1] === label) ||
                                      (x.action.type === "place" && x.action.hex === label));
      if (p) commit(p.action);
      return;
    }
    const sel = st.selected && charById(st.selected);
    if (!sel) return;
    if (st.view.step === "movement" && sel.side === actingSide()) {
      const mvs = (await movesNow(sel.id)).filter((m) => m.to === label);
      if (mvs.length === 1) return commit(mvs[0].action);
      if (mvs.length > 1) {  // a rider: choose the facing he ends with
        st.facingChoice = mvs.slice().sort((a, b) => (a.cost - b.cost) || (a.facing - b.facing));
        st.why = null; st.preview = null;
        render();
        return;
      }
      if (label === sel.hex) { st.selected = null; st.why = null; render(); return; }
      const adjacent = st.board.hexDistance(sel.hex, label) === 1;
      const path = adjacent ? [label] : st.board.straightLine(sel.hex, label);
      return whyNot({ type: "move", char: sel.id, path }, `${sel.name} → ${label}`, adjacent ? null : t("why.line_note"));
    }
    // clicking empty ground elsewhere drops the selection
    st.selected = null; st.why = null; st.preview = null; st.groupChoice = null; st.facingChoice = null;
    render();
  }

  function onHover(label) {
    st.hover = label;
    if (!st.view || st.replay || !st.board) return;
    const o = st.view.options;
    if (!o) return;
    if (o.prompts && o.prompts.length) {
      const p = o.prompts.find((x) => x.action.path && x.action.path[x.action.path.length - 1] === label);
      if (p) st.board.setPath(charById(p.action.char).hex, p.action.path, "prompt");
      else st.board.setPath(null, []);
      return;
    }
    if (st.view.step !== "movement" || !st.selected) return;
    const sel = charById(st.selected);
    const mv = label && (movesOf(st.selected) || []).find((m) => m.to === label);
    if (mv) st.board.setPath(sel.hex, mv.path);
    else st.board.setPath(null, []);
  }

  /* Bring a panel card into sight without hiding the board: inside the side panel when it
   * scrolls by itself (wide screens); on stacked layouts only when the card is off screen. */
  function reveal(card) {
    const panel = $("side-panel");
    if (panel.scrollHeight > panel.clientHeight + 2 && getComputedStyle(panel).overflowY !== "visible") {
      const pr = panel.getBoundingClientRect(), cr = card.getBoundingClientRect();
      if (cr.top < pr.top || cr.top > pr.bottom - 60) panel.scrollTop += cr.top - pr.top - 8;
      return;
    }
    const r = card.getBoundingClientRect();
    if (r.top > window.innerHeight - 80 || r.bottom < 0) window.scrollBy({ top: r.top - window.innerHeight * 0.45, behavior: "smooth" });
  }

  function openPreview(kind, option) {
    st.preview = { kind, option };
    st.why = null;
    st.groupChoice = null; st.facingChoice = null;
    renderPanel();
    renderBoardMarks();
    const p = $("preview");
    reveal(p);
    const b = p.querySelector("[data-testid=commit]");
    if (b) b.focus({ preventScroll: true });
  }

  function displayedCharacters() {
    const f = frame();
    if (!f) return chars();
    const base = new Map(chars().map((c) => [c.id, c]));
    return f.characters.map((fc) => {
      const c = base.get(fc.id) || { id: fc.id, name: fc.id, side: "?", attack: "", defence: "", movement: "" };
      const out = Object.assign({}, c, { hex: fc.hex, status: fc.status, points_left: undefined,
                                         mounted: fc.mounted, rear: fc.rear, facing: fc.facing,
                                         mount: fc.mount || c.mount, kneeling: fc.kneeling });
      // frames carry no attack/defence/movement: the current values are shown only while the
      // status is the same as now (they depend on it); otherwise they are left blank
      if (fc.status !== c.status) Object.assign(out, { attack: "–", defence: "–", movement: "–" });
      return out;
    });
  }

  function renderBoardMarks() {
    const b = st.board;
    if (!b || !st.view) return;
    const v = st.view, o = st.replay ? null : v.options;
    const marks = { selected: st.selected, actors: new Set(), targets: new Set(), groups: new Set() };
    const hl = [];
    let line = null;
    b.setPath(null, []);
    if (o) {
      const prompts = o.prompts || [];
      if (prompts.length) {
        prompts.forEach((p, i) => {
          const a = p.action;
          if (a.path && a.path.length) hl.push({ hex: a.path[a.path.length - 1], cls: "hl-prompt", testid: "prompt-dest-" + a.path[a.path.length - 1], text: String(i + 1) });
          if (a.type === "place") hl.push({ hex: a.hex, cls: "hl-prompt", testid: "prompt-dest-" + a.hex, text: String(i + 1) });
          if (a.char) marks.targets.add(a.char);
        });
      } else {
        for (const id of Object.keys(o.reach || {})) if (reachOf(id).length) marks.actors.add(id);
        o.fires.forEach((f) => marks.actors.add(f.action.shooter));
        o.attacks.forEach((a) => a.action.attackers.forEach((x) => marks.actors.add(x)));
        (o.horse_targets || []).forEach((h) => (h.action.attackers || [h.action.shooter]).forEach((x) => marks.actors.add(x)));
        const sel = st.selected;
        if (sel && v.step === "movement") {
          movesOf(sel);  // a rider's list: fetched now, before he clicks
          for (const [to, cost] of Object.entries((o.reach || {})[sel] || {})) hl.push({ hex: to, cls: "hl-move", text: cost === null || cost === undefined ? "" : String(cost), testid: "reach-" + to });
          if (st.facingChoice) st.facingChoice.forEach((m) => hl.push({ hex: m.to, cls: "hl-prompt", testid: "facing-dest" }));
        }
        if (sel && v.step === "offensive_fire") {
          o.fires.filter((f) => f.action.shooter === sel).forEach((f) => { marks.targets.add(f.action.target); });
        }
        if (sel && v.step === "melee") {
          o.attacks.filter((a) => a.action.attackers.includes(sel)).forEach((a) => {
            a.action.defenders.forEach((d) => marks.targets.add(d));
            a.action.attackers.forEach((x) => marks.groups.add(x));
          });
        }
        if (st.preview) {
          const a = st.preview.option.action;
          marks.targets = new Set(a.target ? [a.target] : a.defenders);
          if (a.attackers) marks.groups = new Set(a.attackers);
          if (st.preview.kind === "fire") line = st.preview.option.ruling.line;
        }
        if (st.groupChoice) {
          marks.targets = new Set(st.groupChoice.flatMap((g) => g.action.defenders));
        }
      }
    }
    if (st.why && st.why.action) {
      const a = st.why.action;
      if (a.type === "move") b.setPath(charById(a.char) ? charById(a.char).hex : null, a.path, "refused");
      if (st.why.ruling && st.why.ruling.line) line = st.why.ruling.line;
    }
    const selC = st.selected && charById(st.selected);
    if (selC && selC.hex) hl.push({ hex: selC.hex, cls: "hl-selected" });
    b.setHighlights(hl);
    b.setLine(line);
    const f = frame();
    b.setCarts((f ? f.carts : v.carts) || []);  // carts (§4.5), drawn with the horses, under them
    b.setHorses((f ? f.horses : v.horses) || []);
    b.setCharacters(displayedCharacters(), marks, (f || st.view || {}).carcasses || []);
    b.setObjectives(objectives());
    renderVictory();
    document.body.classList.toggle("cards-open", !!(st.preview || st.why || st.selected || st.groupChoice ||
      (o && o.prompts && o.prompts.length)));
  }

  /* --- objectives and the victory tracker (view.victory: engine/victory.py) -------------------- */
  function objectives() {
    const vic = st.view && st.view.victory;
    if (!vic || !vic.objectives) return [];
    const held = new Set(vic.held || []);
    // in a replay, who stands on the hex in the frame shown (alive, not stunned: engine/victory.py)
    const f = frame();
    return vic.objectives.map((hex) => {
      if (!f) return { hex, holder: held.has(hex) ? vic.objective_side : null };
      const on = displayedCharacters().find((c) => (c.hex === hex || c.rear === hex) && c.side === vic.objective_side &&
        (c.status === "healthy" || c.status === "wounded"));
      return { hex, holder: on ? vic.objective_side : null };
    });
  }

  function renderVictory() {
    const box = $("victory");
    const vic = st.view && st.view.victory;
    if (!box || !vic) { if (box) box.hidden = true; return; }
    box.hidden = false;
    const objs = objectives();
    const nHeld = objs.filter((o) => o.holder).length;
    const sides = st.view.sides.map((x) => x.id);
    const loss = (sd) => vic.losses[sd] || { lost: 0, total: 0, rout_at: null };
    const sum = $("victory-summary");
    sum.innerHTML = "";
    sum.append(el("span", { class: "vt-title" }, "⚑ " + t("victory.title")));
    if (vic.objective_side) {
      sum.append(el("span", { class: "vt-chip", testid: "victory-held", style: `--side:${st.board.colourOf(vic.objective_side)}` },
        t("victory.short_obj", { held: nHeld, need: vic.objective_count })));
    }
    for (const sd of sides) {
      const l = loss(sd);
      sum.append(el("span", { class: "vt-chip loss", testid: "victory-loss-" + sd, style: `--side:${st.board.colourOf(sd)}`,
                              title: sideName(sd) + " — " + t("victory.loss_row", { lost: l.lost, total: l.total, at: l.rout_at === null ? "–" : l.rout_at }) },
        `✝ ${l.lost}/${l.rout_at === null ? "–" : l.rout_at}`));
    }
    const body = $("victory-body");
    body.innerHTML = "";
    const text = fr() ? vic.text_fr || vic.text : vic.text;
    if (text) body.appendChild(el("p", { class: "vt-text", testid: "victory-text" }, text));
    if (vic.objective_side) {
      body.appendChild(el("p", { class: "vt-line" }, t("victory.objectives", { side: sideName(vic.objective_side), held: nHeld, need: vic.objective_count }),
        " — ", t("victory.by_turn", { turn: st.view.last_turn })));
      const ul = el("ul", { class: "vt-hexes" });
      objs.forEach((o) => ul.appendChild(el("li", { class: o.holder ? "held" : "", testid: "victory-hex-" + o.hex },
        el("strong", {}, o.hex), " ", o.holder ? t("victory.held_by", { side: sideName(o.holder) }) : t("victory.not_held"))));
      body.appendChild(ul);
    }
    body.appendChild(el("h4", {}, t("victory.losses")));
    const ul2 = el("ul", { class: "vt-losses" });
    for (const sd of sides) {
      const l = loss(sd);
      ul2.appendChild(el("li", {}, el("span", { class: "side-chip", style: `--side:${st.board.colourOf(sd)}` }, sideName(sd)), " ",
        t("victory.loss_row", { lost: l.lost, total: l.total, at: l.rout_at === null ? "–" : l.rout_at })));
    }
    body.appendChild(ul2);
    if (vic.otherwise) body.appendChild(el("p", { class: "small muted" },
      vic.otherwise === "draw" ? t("victory.otherwise_draw") : t("victory.otherwise", { side: sideName(vic.otherwise) })));
  }

  /* --- the die on the target: the rolls of the events just logged ------------------------------ */
  function rollsOf(events, v) {
    const hexOfChar = (id) => { const c = (v.characters || []).find((x) => x.id === id); return c && c.hex; };
    const hexOfAnimal = (id) => { const h = (v.horses || []).find((x) => x.id === id); return h && h.hexes[0]; };
    const out = [];
    for (const e of events) {
      const r = e.ruling;
      if (!r || r.die === undefined || r.die === null) continue;
      const ids = [r.target, r.victim, e.target, (r.defenders || [])[0], (e.defenders || [])[0], e.char, r.char, r.shooter, e.shooter]
        .filter((x) => typeof x === "string");
      let hex = r.hex || e.hex || null;
      if (!hex && r.line && r.line.length) hex = r.line[r.line.length - 1];
      for (const id of ids) { if (!hex) hex = hexOfChar(id); }
      if (!hex && (r.horse || e.horse)) hex = hexOfAnimal(r.horse || e.horse);
      if (!hex) continue;
      const mod = r.modified_die !== undefined && r.modified_die !== null && r.modified_die !== r.die
        ? ` (${r.modified_die - r.die > 0 ? "+" : ""}${r.modified_die - r.die} = ${r.modified_die})` : "";
      out.push({ hex, die: r.die, modified: r.modified_die, result: r.result, n: e.n,
                 title: t("die.title", { die: r.die, mod, result: r.result === undefined ? "" : r.result }) + " — " + (e.text || "") });
    }
    return out;
  }

  function renderDeclarations() {
    // fire frequency declarations (§5.1): optional, beside the step's actions
    const box = $("declarations");
    if (!box) return;
    const o = st.view.options;
    const decl = (!st.replay && o && !(o.prompts && o.prompts.length) && o.declarations) || [];
    box.hidden = !decl.length;
    box.innerHTML = "";
    if (!decl.length) return;
    box.appendChild(el("h2", { class: "card-title" }, t("declare.title")));
    box.appendChild(el("p", { class: "help" }, t("declare.help")));
    const list = el("div", { class: "prompt-list" });
    decl.forEach((p, i) => {
      const a = p.action;
      list.appendChild(el("button", { type: "button", class: "btn prompt-btn", testid: "declare-" + i, onclick: () => commit(a) },
        t("prompt.declare", { char: charName(a.char), fire: t("fire." + a.fire) })));
    });
    box.appendChild(list);
  }

  function renderPrompts() {
    const box = $("prompts");
    const o = st.view.options;
    const prompts = (!st.replay && o && o.prompts) || [];
    box.hidden = !prompts.length;
    box.innerHTML = "";
    if (!prompts.length) return;
    box.appendChild(el("h2", { class: "card-title" }, t("prompt.title")));
    if (st.view.pending && st.view.pending.length) {
      const p = st.view.pending[0];
      const key = PENDING.includes(p.kind) ? "pending." + p.kind : "pending.other";
      box.appendChild(el("p", {}, t(key, { side: sideName(p.side), chars: names(p.chars), kind: p.kind })));
    }
    if (prompts.some((p) => p.action.path)) box.appendChild(el("p", { class: "help" }, t("prompt.hint")));
    const list = el("div", { class: "prompt-list" });
    prompts.forEach((p, i) => {
      const a = p.action;
      let label;
      if (a.type === "retreat" || a.type === "advance") {
        label = t("prompt." + a.type, { char: charName(a.char), to: a.path[a.path.length - 1] }) + (a.path.length > 1 ? ` (${a.path.join(" → ")})` : "");
      } else if (a.type === "casualty") label = t("prompt.casualty", { char: charName(a.char) });
      else if (a.type === "place") label = t("prompt.place", { char: charName(a.char), to: a.hex });
      else if (a.type === "decline") {
        const pk = st.view.pending && st.view.pending.length ? st.view.pending[0].kind : "";
        label = t(pk === "defensive_fire" ? "prompt.pass" : pk === "grab" ? "prompt.ride_on"
          : pk === "counter_charge" ? "prompt.no_counter_charge" : "prompt.decline");
      }
      // cavalry charges (MC §7.6.1, §7.6.2), in an edition's announcements step (Croisades)
      else if (a.type === "announce_charge") label = t("prompt.announce_charge", { char: charName(a.char), target: charName(a.target), n: a.path.length });
      else if (a.type === "counter_charge") label = t("prompt.counter_charge", { char: charName(a.char), to: a.path[a.path.length - 1] });
      else if (a.type === "grab") label = t("prompt.grab", { char: charName(a.char), horse: a.horse });
      else if (a.type === "set_down") label = t("prompt.set_down", { char: charName(a.char), to: a.hex });
      else if (a.type === "carry") label = t("prompt.carry", { char: charName(a.char), friend: charName(a.friend), to: a.path[a.path.length - 1] });
      else if (a.type === "clear_bodies") {
        label = t("prompt.clear_bodies", { chars: a.chars.map(charName).join(", "), kind: t("body." + a.kind), from: a.hex, to: a.to });
      }
      else if (a.type === "designate") {
        const pr = (p.ruling && p.ruling.probabilities) || {};
        const odds = Object.keys(pr).map((k) => `${k} ${Math.round(100 * Number(pr[k]))}%`).join(", ");
        label = t("prompt.designate", { char: charName(a.shooter) }) + (odds ? ` (${odds})` : "");
      }
      else if (a.type === "volley") label = t("prompt.volley");
      else if (a.type === "declare") label = t("prompt.declare", { char: charName(a.char), fire: t("fire." + a.fire) });
      else label = JSON.stringify(a);
      const btn = el("button", { type: "button", class: "btn prompt-btn" + (a.type === "decline" ? "" : " primary"), testid: "prompt-" + i,
                                 dataset: { type: a.type }, onclick: () => commit(a) },
        a.path ? el("span", { class: "prompt-no" }, String(i + 1)) : null, label);
      if (a.path) {
        btn.addEventListener("mouseenter", () => st.board.setPath(charById(a.char).hex, a.path, "prompt"));
        btn.addEventListener("mouseleave", () => st.board.setPath(null, []));
      }
      list.appendChild(btn);
    });
    box.appendChild(list);
  }

  function probChart(ruling) {
    const probs = ruling.probabilities || {};
    const letters = Object.keys(probs).sort((a, b) => (a === "-" ? -1 : b === "-" ? 1 : a.localeCompare(b)));
    const meanings = ruling.outcomes || {};  // from the rules data, sent by the server
    const chart = el("div", { class: "prob-chart", testid: "prob-chart", role: "table" });
    const max = Math.max(...letters.map((l) => probs[l]), 0.0001);
    for (const l of letters) {
      const p = probs[l];
      const m = meanings[l];
      const meaning = (m && (m[I18N.lang()] || m.fr)) || t("result.unknown");
      chart.appendChild(el("div", { class: "prob-row", testid: "prob", dataset: { letter: l, p: String(p) }, role: "row", title: meaning },
        el("span", { class: "prob-letter res-" + (l === "-" ? "miss" : l) }, l),
        el("span", { class: "prob-bar-wrap" }, el("span", { class: "prob-bar res-" + (l === "-" ? "miss" : l), style: `width:${(p / max) * 100}%` })),
        el("span", { class: "prob-pct", testid: "prob-pct" }, pct(p)),
        el("span", { class: "prob-meaning" }, meaning)));
    }
    return chart;
  }

  function fact(label, value, testid) {
    return [el("dt", {}, label), el("dd", { testid }, value === undefined || value === null ? "—" : String(value))];
  }

  function renderPreview() {
    const box = $("preview");
    box.innerHTML = "";
    box.hidden = !st.preview;
    if (!st.preview) return;
    const { kind, option } = st.preview;
    const r = option.ruling, a = option.action;
    const title = a.type === "fire_at_horse" ? t("preview.fire_horse", { shooter: charName(a.shooter), horse: a.horse })
      : a.type === "attack_horse" ? t("preview.attack_horse", { attackers: names(a.attackers), horse: a.horse })
      : kind === "fire"
      ? t("preview.fire", { shooter: charName(a.shooter), target: charName(a.target) })
      : t("preview.attack", { attackers: names(a.attackers), defenders: names(a.defenders) });
    box.appendChild(el("h2", { class: "card-title", testid: "preview-title" }, title));
    const dl = el("dl", { class: "facts" });
    if (kind === "fire") {
      dl.append(...fact(t("preview.band"), r.band ? t("band." + r.band) : "—", "preview-band"));
      dl.append(...fact(t("preview.distance"), r.distance, "preview-distance"));
      dl.append(...fact(t("preview.cover"), r.cover ? t("cover." + r.cover) : "—", "preview-cover"));
      dl.append(...fact(t("preview.die_modifier"), signed(r.die_modifier), "preview-modifier"));
      if (r.two_step) {  // an edition's fire in two steps (Cry Havoc): to hit, then damage
        dl.append(...fact(t("preview.p_hit"), Math.round(r.p_hit * 100) + " %", "preview-p-hit"));
        dl.append(...fact(t("preview.damage_modifier"), signed(r.damage_modifier), "preview-damage-modifier"));
      }
      if (r.weapon) dl.append(...fact(t("char.weapon"), human(r.weapon)));
    } else {
      dl.append(...fact(t("preview.odds"), r.odds, "preview-odds"));
      dl.append(...fact(t("preview.column"), r.column, "preview-column"));
      if (r.shift) dl.append(...fact(t("preview.shift"), signed(r.shift)));
      dl.append(...fact(t("preview.die_modifier"), signed(r.die_modifier), "preview-modifier"));
    }
    if (r.table) dl.append(...fact(t("preview.table"), t("table." + r.table).startsWith("table.") ? human(r.table) : t("table." + r.table)));
    box.appendChild(dl);
    if (kind === "fire" && r.line) box.appendChild(el("p", { class: "small muted" }, "▭ " + t("preview.line") + ` (${r.line.length})`));
    box.appendChild(el("h3", {}, t("preview.probabilities")));
    box.appendChild(probChart(r));
    box.appendChild(el("details", { class: "explain", open: true },
      el("summary", {}, t("preview.explanation")),
      el("ol", { class: "explanation", testid: "preview-explanation" }, (r.explanation || []).map((x) => el("li", {}, x))),
      citesOf(r.citations)));
    box.appendChild(el("div", { class: "actions roll-actions", testid: "roll-actions" },  // sticky: never below the fold
      el("button", { type: "button", class: "btn primary", testid: "commit", onclick: () => commit(a) }, t("preview.commit")),
      el("button", { type: "button", class: "btn", testid: "cancel", onclick: () => { st.preview = null; renderPanel(); renderBoardMarks(); } }, t("preview.cancel"))));
  }
  function signed(n) { return n === undefined || n === null ? "—" : (n > 0 ? "+" + n : String(n)); }

  function renderWhy() {
    const box = $("whynot");
    box.innerHTML = "";
    box.hidden = !st.why;
    if (!st.why) return;
    const r = st.why.ruling;
    box.appendChild(el("h2", { class: "card-title" }, t("why.title") + " ", el("span", { class: "muted" }, st.why.title)));
    if (r.legal) {
      box.appendChild(el("p", { testid: "why-legal" }, t("why.legal")));
      box.appendChild(el("ol", { class: "explanation" }, (r.explanation || []).map((x) => el("li", {}, x))));
    } else {
      box.appendChild(el("p", { class: "refusal", testid: "why-reason" }, "⛔ " + (r.reason || "")));
    }
    if (st.why.note) box.appendChild(el("p", { class: "small muted" }, st.why.note));
    box.appendChild(citesOf(r.citations));
    box.appendChild(el("div", { class: "actions" },
      el("button", { type: "button", class: "btn", testid: "why-close", onclick: () => { st.why = null; renderPanel(); renderBoardMarks(); } }, t("why.close"))));
  }

  const ARROWS = ["↑", "↗", "↘", "↓", "↙", "↖"];

  function renderSelection() {
    const box = $("selection");
    box.innerHTML = "";
    const c = st.selected && charById(st.selected);
    box.hidden = !c && !st.groupChoice;
    if (!c && !st.groupChoice) return;
    const v = st.view, o = st.replay ? null : v.options;
    if (c) {
      const dc = displayedCharacters().find((x) => x.id === c.id) || c;
      box.appendChild(el("h2", { class: "card-title" },
        el("span", { class: "swatch", style: `background:${st.board.colourOf(c.side)}` }), " ", c.name, " ",
        el("span", { class: "muted small" }, `${typeName(c)} · ${sideName(c.side)}`)));
      const dl = el("dl", { class: "facts compact", testid: "selected-info" });
      dl.append(...fact(t("char.hex"), dc.hex || "—"));
      dl.append(...fact(t("char.status"), t("status." + dc.status)));
      dl.append(...fact(`${t("char.attack")} / ${t("char.defence")} / ${t("char.movement")}`, `${c.attack} / ${c.defence}${c.armour ? " (" + t("char.armour") + ")" : ""} / ${c.movement}`));
      if (c.weapon) dl.append(...fact(t("char.weapon"), weaponName(c)));
      if (c.mounted) dl.append(...fact(t("char.mounted"), "✓"));
      if (c.points_left !== undefined && !st.replay) dl.append(...fact(t("char.points_left"), c.points_left, "points-left"));
      box.appendChild(dl);
    }
    if (!o || (o.prompts && o.prompts.length)) return;
    if (c && c.side !== v.to_act) {
      box.appendChild(el("p", { class: "help" }, t("panel.not_yours", { name: c.name, side: sideName(c.side) })));
    } else if (c && v.step === "movement") {
      const n = reachOf(c.id).length;
      box.appendChild(el("p", { class: "help", testid: "selection-help" }, n ? t("panel.moves", { n }) : t("panel.no_moves", { name: c.name })));
      if (st.facingChoice && st.facingChoice.length) {
        box.appendChild(el("p", { class: "help" }, t("panel.facing", { hex: st.facingChoice[0].to })));
        const list = el("div", { class: "group-list", testid: "facing-choice" });
        st.facingChoice.forEach((m, i) => {
          list.appendChild(el("button", { type: "button", class: "btn group-btn", testid: "facing-" + i,
                                          onclick: () => commit(m.action) },
            `${ARROWS[m.facing]} ${t("dir." + m.facing)}`, " ", el("span", { class: "badge" }, `${m.cost} PM`)));
        });
        box.appendChild(list);
      }
      // dismount, mount (§4.4.2), carry a stunned friend (§4.2.4), clear the dead (§4.2.3)
      const hx = (o.extras || []).filter((h) => h.action.char === c.id || (h.action.chars && h.action.chars.includes(c.id)));
      if (hx.length) {
        const list = el("div", { class: "group-list", testid: "extra-actions" });
        hx.forEach((h, i) => {
          const a = h.action;
          let label;
          if (a.type === "dismount") label = t("horse.dismount", { hex: a.hex });
          else if (a.type === "mount") label = t("horse.mount", { horse: a.horse });
          else if (a.type === "lead") label = t("horse.lead", { horse: a.horse });
          else if (a.type === "kneel" || a.type === "rise")  // §4.6.4 camels kneeling (cost: the engine's ruling)
            label = a.animal === a.char ? t("camel." + a.type + "_own", { cost: h.ruling.cost })
              : t("camel." + a.type, { horse: a.animal, cost: h.ruling.cost });
          else if (a.type === "enter_litter") label = t("camel.enter_litter", { horse: a.horse, cost: h.ruling.cost });
          else if (a.type === "leave_litter") label = t("camel.leave_litter", { hex: a.hex, cost: h.ruling.cost });
          else if (a.type === "carry") label = t("prompt.carry", { char: charName(a.char), friend: charName(a.friend), to: a.path[a.path.length - 1] });
          else if (a.type === "stand") label = t("prompt.stand", { char: charName(a.char) });
          else if (a.type === "drive_cart") {  // carts (§4.5.1, §4.5.4)
            const cost = (h.ruling && h.ruling.cost) || "?";
            const to = a.path[a.path.length - 1];
            const chain = (h.ruling && h.ruling.chain) || [];
            const at = chain.length >= 2 ? `${chain[chain.length - 2]}-${chain[chain.length - 1]}` : "?";
            label = a.helpers && a.helpers.length
              ? t("cart.pull", { cart: a.cart, helpers: names(a.helpers), to, cost, at })
              : t("cart.drive", { cart: a.cart, to, cost, at });
          }
          else if (a.type === "harness") label = t("cart.harness", { animal: a.animal, cart: a.cart });
          else if (a.type === "unharness") label = t("cart.unharness", { cart: a.cart });
          else label = t("prompt.clear_bodies", { chars: a.chars.map(charName).join(", "), kind: t("body." + a.kind), from: a.hex, to: a.to });
          list.appendChild(el("button", { type: "button", class: "btn group-btn", testid: "extra-" + i, onclick: () => commit(a) }, label));
        });
        box.appendChild(list);
      }
    } else if (c && v.step === "offensive_fire") {
      const n = o.fires.filter((f) => f.action.shooter === c.id).length;
      box.appendChild(el("p", { class: "help", testid: "selection-help" }, n ? t("panel.fires", { n }) : t("panel.no_fires", { name: c.name })));
    }
    // fire and attacks at riderless horses (§6.8): a button each, previewed with the odds
    const ht = c && c.side === v.to_act ? (o.horse_targets || []).filter((h) => h.action.shooter === c.id ||
      (h.action.attackers && h.action.attackers.includes(c.id))) : [];
    if (ht.length) {
      const list = el("div", { class: "group-list", testid: "horse-targets" });
      ht.forEach((h, i) => {
        const a = h.action;
        const fire = a.type === "fire_at_horse";
        const label = fire ? t("horse.fire", { horse: a.horse }) : t("horse.attack", { attackers: names(a.attackers), horse: a.horse });
        list.appendChild(el("button", { type: "button", class: "btn group-btn", testid: "horse-target-" + i,
                                        onclick: () => openPreview(fire ? "fire" : "attack", h) },
          label, " ", el("span", { class: "badge" }, fire ? (h.ruling.band ? t("band." + h.ruling.band) : "") : (h.ruling.odds || ""))));
      });
      box.appendChild(list);
    }
    if (v.step === "melee") {
      const groups = st.groupChoice || (c ? o.attacks.filter((a) => a.action.attackers.includes(c.id)) : []);
      if (!groups.length && c) {
        box.appendChild(el("p", { class: "help", testid: "selection-help" }, t("panel.no_attacks", { name: c.name })));
      } else if (groups.length) {
        box.appendChild(el("p", { class: "help" }, t("panel.attacks", { name: c ? c.name : "" })));
        const list = el("div", { class: "group-list", testid: "attack-groups" });
        groups.forEach((g, i) => {
          const a = g.action;
          list.appendChild(el("button", { type: "button", class: "btn group-btn", testid: "attack-group-" + i,
                                          onclick: () => openPreview("attack", g) },
            `${names(a.attackers)} → ${names(a.defenders)}`, " ", el("span", { class: "badge" }, g.ruling.odds || "")));
        });
        box.appendChild(list);
      }
    }
    if (c) box.appendChild(el("div", { class: "actions" },
      el("button", { type: "button", class: "btn small", testid: "deselect", onclick: () => { st.selected = null; st.groupChoice = null; st.facingChoice = null; st.why = null; render(); } }, t("panel.deselect"))));
  }

  /* --- legend --------------------------------------------------------------------------------------------- */
  function renderLegend() {
    const body = $("legend-body");
    body.innerHTML = "";
    const m = st.map;
    const used = [...new Set(m.hexes.map((h) => h.terrain))];
    const ids = Object.keys(m.terrain).filter((x) => used.includes(x)).concat(used.filter((x) => !m.terrain[x]));
    const NS = "http://www.w3.org/2000/svg";
    const ul = el("ul", { class: "legend-list" });
    for (const id of ids) {
      const tr = m.terrain[id] || { foot: "?", foot_armoured: "?", mounted: "?", cover: "?" };
      const style = TERRAIN_STYLE[id] || { fill: "#ddd" };
      const sw = document.createElementNS(NS, "svg");
      sw.setAttribute("viewBox", "-34 -30 68 60");
      sw.setAttribute("class", "legend-swatch");
      const poly = document.createElementNS(NS, "polygon");
      const pts = []; for (let i = 0; i < 6; i++) { const a = Math.PI / 3 * i; pts.push(`${32 * Math.cos(a)},${32 * Math.sin(a)}`); }
      poly.setAttribute("points", pts.join(" ")); poly.setAttribute("fill", style.fill); poly.setAttribute("stroke", "#8a8270");
      sw.appendChild(poly);
      if (style.sym) { const u = document.createElementNS(NS, "use"); u.setAttribute("href", "#sym-" + style.sym); u.setAttribute("y", "2"); sw.appendChild(u); }
      const cost = (x) => (x === "impassable" ? t("legend.impassable") : x);
      const bits = [t("legend.cost", { foot: cost(tr.foot) })];
      if (tr.foot_armoured !== tr.foot) bits.push(t("legend.cost_armoured", { n: cost(tr.foot_armoured) }));
      if (tr.mounted !== tr.foot) bits.push(t("legend.cost_mounted", { n: cost(tr.mounted) }));
      bits.push(t("legend.cover", { c: t("cover." + tr.cover) }));
      if (tr.blocks_los) bits.push(t("legend.blocks"));
      ul.appendChild(el("li", { testid: "legend-" + id, title: tr.ref || null },
        sw, el("span", { class: "legend-name" }, featureName(m.terrain, id)), el("span", { class: "legend-info" }, bits.join(" · "))));
    }
    body.appendChild(ul);
    const feats = el("ul", { class: "legend-list features" });
    const usedFeatures = new Set(m.hexsides.map((x) => x.feature));
    for (const [id, f] of Object.entries(m.hexside_features || {})) {
      if (!usedFeatures.has(id)) continue;
      const s = FEATURE_STYLE[id] || { stroke: "#d00", width: 5 };
      const sw = document.createElementNS(NS, "svg");
      sw.setAttribute("viewBox", "0 0 40 14"); sw.setAttribute("class", "legend-swatch line");
      const ln = document.createElementNS(NS, "line");
      ln.setAttribute("x1", "3"); ln.setAttribute("y1", "7"); ln.setAttribute("x2", "37"); ln.setAttribute("y2", "7");
      ln.setAttribute("stroke", s.stroke); ln.setAttribute("stroke-width", String(s.width)); ln.setAttribute("stroke-linecap", "round");
      if (s.dash) ln.setAttribute("stroke-dasharray", s.dash);
      if (id === "low_wall") ln.setAttribute("stroke-dasharray", "7 1.5");
      sw.appendChild(ln);
      const bits = [];
      if (f.crossing !== undefined && f.crossing !== null) bits.push(`+${f.crossing}`.replace("+impassable", t("legend.impassable")));
      if (f.cover) bits.push(t("legend.cover", { c: t("cover." + f.cover) }));
      feats.appendChild(el("li", { testid: "legend-" + id, title: f.ref || null }, sw, el("span", { class: "legend-name" }, featureName(m.hexside_features, id)), el("span", { class: "legend-info" }, bits.join(" · "))));
    }
    if (feats.childElementCount) body.append(el("h4", {}, t("legend.features")), feats);
    body.append(
      el("p", { class: "small" }, el("span", { class: "elev-sample" }, "▲1"), " ", t("legend.elevation")),
      el("p", { class: "small", testid: "legend-counter" }, t("legend.counter2")));
    // the animals, the cart, the objective flag and the die (the board's symbols)
    const syms = el("ul", { class: "legend-list symbols" });
    const pic = (id, cls) => {
      const sw = document.createElementNS(NS, "svg");
      sw.setAttribute("viewBox", "-18 -16 36 30"); sw.setAttribute("class", "legend-swatch pictogram-swatch " + (cls || ""));
      const u = document.createElementNS(NS, "use"); u.setAttribute("href", "#sym-" + id); sw.appendChild(u);
      return sw;
    };
    const kinds = [["horse", "animal.horse"], ["draught_horse", "animal.draught_horse"], ["ox", "animal.ox"], ["cart", "animal.cart"],
                   ["camel", "animal.camel"], ["camel_kneeling", "animal.camel", "card.kneeling"], ["pack_camel", "animal.pack_camel"],
                   ["litter_camel", "animal.litter_camel"]];
    for (const [id, key, extra] of kinds) {
      syms.appendChild(el("li", { testid: "legend-sym-" + id }, pic(id), el("span", { class: "legend-name" }, t(key) + (extra ? " (" + t(extra) + ")" : ""))));
    }
    syms.appendChild(el("li", { testid: "legend-sym-flag" }, pic("flag", "flag"), el("span", { class: "legend-info" }, t("legend.objective"))));
    body.append(el("h4", {}, t("legend.symbols")), syms);
  }

  /* --- the counter's card: hover (mouse) or long press (touch) ------------------------------------ */
  function animalById(id) { const v = st.view; return v && (v.horses || []).find((h) => h.id === id); }
  function cartById(id) { const v = st.view; return v && (v.carts || []).find((x) => x.id === id); }

  function showCard(info) {
    const card = $("counter-card");
    if (!card) return;
    if (!info || !st.view) { card.hidden = true; card.innerHTML = ""; return; }
    card.innerHTML = "";
    const animal = info.animal && animalById(info.animal), cart = info.cart && cartById(info.cart);
    const c = !animal && !cart && info.char && (displayedCharacters().find((x) => x.id === info.char) || charById(info.char));
    const line = (txt, cls) => el("div", { class: "cc-line " + (cls || "") }, txt);
    if (c) {
      const full = charById(c.id) || c;
      card.dataset.kind = "character"; card.dataset.id = c.id;
      card.append(el("div", { class: "cc-head" }, el("span", { class: "swatch", style: `background:${st.board.colourOf(c.side)}` }),
        el("strong", { testid: "card-name" }, c.name)));
      card.append(line(t("card.profile", { type: typeName(full), side: sideName(c.side) }), "muted"));
      card.append(line(t("card.stats", { a: c.attack, d: c.defence, m: c.movement }), "cc-stats"));
      card.append(line(t("card.status", { s: t("status." + c.status) }) + " · " + (full.armour ? t("card.armour") : t("card.no_armour"))));
      if (full.weapon) card.append(line(t("card.weapon", { w: weaponName(full) })));
      if (c.mounted) card.append(line(t("card.riding", { mount: t("animal." + (c.mount || "horse")) }) + (c.kneeling ? " (" + t("card.kneeling") + ")" : "")));
      card.append(line(c.rear ? t("card.at2", { front: c.hex, rear: c.rear }) : t("card.at", { hex: c.hex || "—" }), "muted"));
      if (c.points_left !== undefined && !st.replay) card.append(line(t("card.points_left", { n: c.points_left })));
    } else if (animal) {
      card.dataset.kind = "animal"; card.dataset.id = animal.id;
      const kind = animal.kind || "horse";
      const sw = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      sw.setAttribute("viewBox", "-18 -16 36 30"); sw.setAttribute("class", "cc-pic");
      const u = document.createElementNS("http://www.w3.org/2000/svg", "use"); u.setAttribute("href", "#sym-" + animalSymbol(kind, animal.kneeling)); sw.appendChild(u);
      card.append(el("div", { class: "cc-head" }, sw, el("strong", { testid: "card-name" }, t("animal." + kind)), " ", el("span", { class: "muted" }, animal.id)));
      const bits = [animal.side ? sideName(animal.side) : t("card.no_side")];
      if (!animal.alive) bits.push(t("card.dead"));
      else if (kind.endsWith("camel")) bits.push(animal.kneeling ? t("card.kneeling") : t("card.standing"));
      card.append(line(bits.join(" · "), "muted"));
      if (animal.passenger) card.append(line(t("card.passenger", { name: charName(animal.passenger) })));
      if (animal.led_by) card.append(line(t("card.led_by", { name: charName(animal.led_by) })));
      if (animal.harnessed_to) card.append(line(t("card.harnessed", { cart: animal.harnessed_to })));
      card.append(line(t("card.at2", { front: animal.hexes[0], rear: animal.hexes[1] }), "muted"));
    } else if (cart) {
      card.dataset.kind = "cart"; card.dataset.id = cart.id;
      card.append(el("div", { class: "cc-head" }, el("strong", { testid: "card-name" }, t("animal.cart")), " ", el("span", { class: "muted" }, cart.id)));
      card.append(line(cart.moving ? t("card.cart_moving") : t("card.cart_still")));
      if (cart.animal) card.append(line(t("card.cart_animal", { animal: t("animal." + ((animalById(cart.animal) || {}).kind || "horse")) })));
      card.append(line(t("card.at2", { front: cart.hexes[0], rear: cart.hexes[1] }), "muted"));
    } else { card.hidden = true; return; }
    card.hidden = false;
    // beside the counter, inside the board's frame
    const frameBox = containers.board.getBoundingClientRect(), r = info.rect;
    const cw = card.offsetWidth, ch = card.offsetHeight;
    const W = frameBox.width, H = frameBox.height, left = r.left - frameBox.left, top = r.top - frameBox.top;
    let x = left + r.width + 10, y = top;
    if (x + cw > W - 6) x = left - cw - 10;                      // right of the counter, else left
    if (x < 6) {                                                 // neither: under it (or over it)
      x = Math.max(6, Math.min(W - cw - 6, left + r.width / 2 - cw / 2));
      y = top + r.height + 8;
      if (y + ch > H - 6) y = top - ch - 8;
    }
    y = Math.max(6, Math.min(H - ch - 6, y));
    card.style.left = x + "px"; card.style.top = y + "px";
  }

  /* --- the position changed (setView): drop or re-attach what no longer fits ------------------- */
  function update(old, v) {
    if (old && st.board && v.log && old.log && v.log.length > old.log.length) {
      const rolls = rollsOf(v.log.slice(old.log.length), v);
      if (rolls.length) st.board.showRolls(rolls, ROLL_SHOWN_MS);
    }
    if (!old || old.version !== v.version || old.to_act !== v.to_act || old.step !== v.step) {
      st.preview = null;
      st.groupChoice = null; st.facingChoice = null;
      if (old && old.version !== v.version) st.why = null;
    } else if (v.options) {
      // same position (e.g. the language changed): re-attach the open preview to the new options
      const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
      const pool = (kind) => (kind === "fire" ? v.options.fires : v.options.attacks).concat(v.options.horse_targets || []);
      if (st.preview) {
        const o = pool(st.preview.kind).find((x) => same(x.action, st.preview.option.action));
        st.preview = o ? { kind: st.preview.kind, option: o } : null;
      }
      if (st.groupChoice) {
        st.groupChoice = st.groupChoice.map((g) => v.options.attacks.find((x) => same(x.action, g.action))).filter(Boolean);
        if (!st.groupChoice.length) st.groupChoice = null; st.facingChoice = null;
      }
    }
    // keep the selection only while it can still do something now (or is just being looked at)
    if (st.selected) {
      const c = charById(st.selected);
      if (!c || c.status === "dead") st.selected = null;
      else if (v.options && c.side === v.to_act && !hasOptions(c.id) && old && old.version !== v.version) st.selected = null;
    }
  }

  /* --- the phase bar: the sequence of play (§3), the weather, what the game waits for --------- */
  function pendingText(v) {
    const p = v.pending[0];
    const key = PENDING.includes(p.kind) ? "pending." + p.kind : "pending.other";
    return t(key, { side: sideName(p.side), chars: names(p.chars), kind: p.kind });
  }
  function phase(v, f) {
    const step = f ? f.step : v.step;
    const wl = t("weather." + v.weather);
    // an edition (Cry Havoc, Croisades) names its own steps: the titles of its sequence.toml, in the view
    const fr = I18N.lang() === "fr";
    const edition = v.ruleset && v.ruleset !== "magna-carta" && v.sequence && v.sequence.steps;
    const steps = edition
      ? v.sequence.steps.map((s) => {
          const id = s.id === "stunned_recovery" ? "recovery" : s.id;
          return { id, label: fr ? s.title_fr : s.title_en, title: s.players ? null : t("step.recovery.title") };
        })
      : STEPS.map((s) => ({ id: s, label: t("step." + s), title: s === "recovery" ? t("step.recovery.title") : null }));
    return {
      steps,
      current: step,
      note: v.weather ? (wl.startsWith("weather.") ? human(v.weather) : wl) : null,
      pending: !f && v.pending && v.pending.length ? pendingText(v) : null,
    };
  }

  function help(v) {
    const o = v.options;
    return t(o.prompts && o.prompts.length ? "panel.help.prompt" :
      v.step === "offensive_fire" ? "panel.help.fire" : v.step === "movement" ? "panel.help.move" : "panel.help.melee");
  }

  function endStep(v) {
    const o = v.options;
    return o && o.end_step && !(o.prompts && o.prompts.length) ? o.end_step : null;
  }

  /* --- mounting ----------------------------------------------------------------------------------- */
  for (const l of Object.keys(BOARD_TEXTS)) Object.assign(I18N.STR[l], BOARD_TEXTS[l]);
  await loadStyle(new URL("./board.css", import.meta.url).href);
  containers.board.innerHTML = BOARD_HTML;
  containers.panel.innerHTML = PANEL_HTML;
  I18N.apply();
  st.map = await core.get("/map");
  $("board").innerHTML = "";
  // the map is fitted between the victory tracker (top) and the legend (bottom), which cover it otherwise
  st.board = new Board($("board"), st.map, { onHex, onCounter, onHover, onCard: showCard, insetTop: 46, insetBottom: 46 });
  st.board.setSides(view.sides.map((s) => s.id));
  for (const s of view.sides) document.documentElement.style.setProperty("--side-" + s.id, st.board.colourOf(s.id));
  renderLegend();
  $("zoom-in").addEventListener("click", () => st.board.zoomBy(1.25));
  $("zoom-out").addEventListener("click", () => st.board.zoomBy(0.8));
  $("zoom-reset").addEventListener("click", () => st.board.fit());
  // stacked layouts (phones, tablets upright): the board or the cards get the larger share
  $("board-size").addEventListener("click", () => {
    const big = document.body.classList.toggle("board-big");
    $("board-size").dataset.i18nTitle = big ? "board.shrink" : "board.grow";
    I18N.apply($("board-area"));
  });

  return {
    state: st,
    update,
    render() { renderBoardMarks(); renderPanel(); },
    clear() {
      st.preview = null; st.why = null; st.groupChoice = null; st.facingChoice = null;
      st.board.setPath(null, []);
    },
    reset() {  // after an undo: the selection goes too (issue 15: a stale selection swallowed the next click)
      st.selected = null; st.hover = null;
      st.preview = null; st.why = null; st.groupChoice = null; st.facingChoice = null;
      st.board.setPath(null, []);
    },
    // the side's characters who can still act in this step (moved ones count as done in movement)
    stillToAct(v) {
      if (!v.options || (v.options.prompts && v.options.prompts.length)) return [];
      return chars().filter((c) => c.side === v.to_act && c.status !== "dead" && hasOptions(c.id) &&
        !(v.step === "movement" && c.points_left !== undefined && c.points_left < c.movement)).map((c) => c.name);
    },
    phase, help, endStep,
    stepName: (s) => t("step." + s),
    colourOf: (side) => st.board.colourOf(side),
    onLanguage() {
      st.why = null;
      showCard(null);
      renderLegend();
      st.board.retitle();
    },
    onKey(e) {
      if (e.key === "Escape") {
        showCard(null);
        if (st.preview || st.why || st.groupChoice) { st.preview = null; st.why = null; st.groupChoice = null; st.facingChoice = null; }
        else st.selected = null;
        render();
        return true;
      }
      if (e.key === "+" || e.key === "=") { st.board.zoomBy(1.25); return true; }
      if (e.key === "-") { st.board.zoomBy(0.8); return true; }
      return false;
    },
  };
}

/* The home page's scenario briefing (web/static/lobby.js; docs/api.md § Lobby): the map and the
 * opening position as a spectator sees it, drawn read-only by the same board. */
export async function preview(container, briefing) {
  for (const l of Object.keys(BOARD_TEXTS)) Object.assign(I18N.STR[l], BOARD_TEXTS[l]);
  await loadStyle(new URL("./board.css", import.meta.url).href);
  container.innerHTML = "";
  const b = new Board(container, briefing.board, {});
  b.readOnly = true;
  b.setSides(briefing.sides.map((s) => s.id));
  b.setHorses(briefing.view.horses || []);
  b.setCharacters(briefing.view.characters || [], {}, briefing.view.carcasses || []);
  return b;
}
