/* Oriflamme — the game page, the same for every ruleset.
 *
 * The page loads the view, keeps it live (WebSocket), shows the phase bar, the banner, the
 * log, the dice commitment, undo, the replay, the downloads and the language switch, and posts
 * actions. What a ruleset draws (its board, its cards) and how clicks become actions live in
 * the ruleset's browser module, named by the view's `web_module` and imported from
 * `/static/rulesets/<web_module>/module.js` (served from the ruleset package's `static/`
 * folder, `Ruleset.static_dir()`). A ruleset without a module gets a generic list of its legal
 * actions (`options.actions`, the `Ruleset.options()` default) as buttons.
 *
 * The module interface. The module exports
 *
 *   async mount(containers, core, view) -> controller
 *
 * `containers` = {board, panel}: the elements it draws into (the board area; the side panel
 * under the banner). `view` is the first view. `core` is the page's API:
 *   core.state        the page's state (read only): view, replay, busy, id, token
 *   core.get(path)    GET /api/games/{id}{path} (seat and language added); rejects on error
 *   core.commit(a)    post an offered action; the page then calls controller.clear(), update()
 *   core.explain(a)   the server's ruling on any action (null on error, already shown)
 *   core.render()     re-render the whole page;  core.frame(): the replay frame shown, or null
 *   helpers: t, el, fr, pct, human, $, sideName, citeChips, citesOf, toast, handleError
 * The controller (every member but render is optional):
 *   render()              draw the board and the cards for core.state.view / core.frame()
 *   update(old, view)     a new view arrived: drop what no longer fits (before render)
 *   clear()               forget the transient choices (after a commit)
 *   phase(view, frame)    {steps: [{id, label, title}], current, note, pending} for the phase bar
 *   help(view)            the line under "your turn";  endStep(view): the end-step action or null
 *   stepName(step)        a step's name (replay label);  colourOf(side): a side's colour
 *   onLanguage()          the language changed (relabel);  onKey(event) -> true when handled
 *   reset()               forget every choice, the selection included (after an undo); else clear()
 *   stillToAct(view)      the names of the pieces that can still act in this step (the page asks
 *                         before ending the step while any can)
 *   casualties(view)      {side: [names]} lost so far (the end screen); the page otherwise reads
 *                         the view's dead `characters`, eliminated `units` and lost `leaders`
 *
 * The browser computes no rule: it shows what the server's view offers.
 */
(function () {
  "use strict";
  const { t } = window.I18N;
  const $ = (id) => document.getElementById(id);

  const st = {
    id: null, token: null,
    view: null, sections: {}, scenario: null,
    ctl: null,            // the ruleset module's controller
    replay: null,         // {frames, idx}
    fresh: new Set(), open: new Set(), userOpen: new Set(), autoOpen: [],
    ws: null, wsDelay: 500, wsClosedForGood: false,
    busy: false, loading: null, reloadAgain: false,
    lastLogLen: -1,
    seedCheck: null,      // {seed, ok}: the published seed checked against the commitment
    confirmEnd: null,     // {names, action, version}: "these can still act: end the step anyway?"
    endGuardUntil: 0,     // the End-step button sleeps this long after a phase change (no double fire)
    endDismissed: false,  // the end screen was closed (the board stays to be looked at)
  };

  /* --- small helpers ------------------------------------------------------------------------- */
  const { el } = window.DOM;  // static/dom.js
  const fr = () => I18N.lang() === "fr";
  const pct = (p) => {
    const v = Math.round(p * 1000) / 10;
    return (fr() ? String(v).replace(".", ",") + " %" : v + "%");
  };
  const human = (s) => String(s || "").replace(/_/g, " ");

  function toast(msg, kind, ref) {
    const box = $("toasts");
    const tt = el("div", { class: "toast " + (kind || "error"), testid: "toast", role: kind === "info" ? "status" : "alert" },
      el("span", { class: "toast-msg" }, msg),
      ref && !String(msg).includes(ref) ? el("span", { class: "toast-ref" }, " ", citeChips(ref)) : null,
      el("button", { type: "button", class: "toast-close", "aria-label": "×", onclick: () => tt.remove() }, "×"));
    box.appendChild(tt);
    setTimeout(() => tt.remove(), kind === "info" ? 3500 : 9000);
  }

  class ApiError extends Error {
    constructor(status, data) {
      super((data && data.message) || t("error.http", { status }));
      this.status = status; this.code = data && data.error; this.ref = data && data.ref; this.data = data;
    }
  }

  async function api(method, path, body) {
    const sep = path.includes("?") ? "&" : "?";
    const url = `/api/games/${encodeURIComponent(st.id)}${path}${sep}lang=${I18N.lang()}`;
    const headers = { "X-Seat": st.token };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let res;
    try {
      res = await fetch(url, { method, headers, body: body !== undefined ? JSON.stringify(body) : undefined });
    } catch (e) {
      throw new ApiError(0, { error: "network", message: t("error.network", { msg: e.message }) });
    }
    let data = null;
    try { data = await res.json(); } catch (e) { /* not JSON */ }
    if (!res.ok) throw new ApiError(res.status, data);
    return data;
  }

  function handleError(e) {
    if (e && e.code === "stale") {
      toast(t("error.stale"), "info");
      refresh();
      return;
    }
    toast(e.message || String(e), "error", e.ref);
  }

  /* --- citations ------------------------------------------------------------------------------ */
  function splitTop(s) {
    const out = []; let depth = 0, cur = "";
    for (const ch of s) {
      if (ch === "(") depth++;
      if (ch === ")") depth = Math.max(0, depth - 1);
      if (ch === "," && depth === 0) { out.push(cur); cur = ""; } else cur += ch;
    }
    out.push(cur);
    return out;
  }
  function refsOf(citation) {
    const out = [];
    for (const group of String(citation || "").split(";").map((g) => g.trim()).filter(Boolean)) {
      let prefix = "";
      for (let item of splitTop(group)) {
        item = item.trim();
        if (!item) continue;
        const m = item.match(/^(MC|SEED-NOTES|LB seed \d+|LB house)\s+(.*)$/);  // "LB seed 001 l.11, l.13"
        if (m) { prefix = m[1]; out.push(item); } else if (prefix) out.push(prefix + " " + item); else out.push(item);
      }
    }
    return out;
  }
  function sectionTitle(ref) {
    let key = ref.trim();
    if (key.startsWith("§")) key = "MC " + key;
    const tries = [key, key.replace(/\s*\([^()]*\)\s*$/, "")];
    let base = tries[1];
    while (/\.\d+$/.test(base)) { base = base.replace(/\.\d+$/, ""); tries.push(base); }
    for (const k of tries) {
      const s = st.sections[k];
      if (s) return (fr() ? s.fr : s.en || s.fr) + (k !== key ? ` (${k})` : "");
    }
    return "";
  }
  function citeChips(citation) {
    const frag = document.createDocumentFragment();
    refsOf(citation).forEach((r, i) => {
      const title = sectionTitle(r);
      if (i) frag.appendChild(document.createTextNode(" "));
      frag.appendChild(el("span", { class: "cite" + (title ? "" : " cite-plain"), testid: "citation", title: title || null,
                                    tabindex: title ? "0" : null }, r));
    });
    return frag;
  }
  function citesOf(list) {
    const box = el("div", { class: "cites" });
    const seen = new Set();
    for (const c of list || []) for (const r of refsOf(c)) {
      if (seen.has(r)) continue;
      seen.add(r);
      box.appendChild(citeChips(r));
      box.appendChild(document.createTextNode(" "));
    }
    return box;
  }

  /* --- names ---------------------------------------------------------------------------------- */
  function sideName(id) {
    const s = st.view && st.view.sides.find((x) => x.id === id);
    if (!s) return id || "";
    return fr() ? s.name_fr || s.name : s.name;
  }
  function colourOf(side) { return st.ctl && st.ctl.colourOf ? st.ctl.colourOf(side) : "#555"; }
  function sideChip(id) {
    return el("span", { class: "side-chip side-" + id, style: `--side:${colourOf(id)}` }, sideName(id));
  }

  /* --- loading ------------------------------------------------------------------------------- */
  async function refresh() {
    if (st.loading) { st.reloadAgain = true; return st.loading; }
    st.loading = (async () => {
      try {
        const v = await api("GET", "");
        if (st.replay) await loadFrames(true);
        setView(v);
      } catch (e) {
        handleError(e);
      } finally {
        st.loading = null;
        if (st.reloadAgain) { st.reloadAgain = false; refresh(); }
      }
    })();
    return st.loading;
  }

  function setView(v) {
    const old = st.view;
    st.view = v;
    if (window.TurnWatch) window.TurnWatch.onView(v, st.id, st.token);  // my games, turn notifications (turnwatch.js)
    if (old && v.log.length > old.log.length) {
      // the newest events (ours or the opponent's, live) flash once, their rulings unfolded;
      // the previous batch folds back unless the player opened it by hand
      for (const n of st.autoOpen || []) if (!st.userOpen.has(n)) st.open.delete(n);
      st.autoOpen = [];
      st.fresh = new Set();
      for (const e of v.log.slice(old.log.length)) {
        st.fresh.add(e.n);
        if (e.ruling) { st.open.add(e.n); st.autoOpen.push(e.n); }
      }
      clearTimeout(st.freshTimer);
      st.freshTimer = setTimeout(() => { st.fresh = new Set(); }, 2500);
    }
    if (st.ctl && st.ctl.update) st.ctl.update(old, v);
    if (old && old.version !== v.version) st.confirmEnd = null;
    if (old && !v.over && (old.step !== v.step || old.active !== v.active || old.turn !== v.turn)) announcePhase(v);
    if (!v.over) st.endDismissed = false;
    else if ($("phase-announce")) $("phase-announce").hidden = true;
    render();
  }

  /* --- the phase changed: say so (a strip under the phase bar, read out by screen readers), and keep the
   * End-step button asleep a moment so a second click does not end the next step too -------- */
  const END_GUARD_MS = 1500;
  function stepLabel(v) {
    const ph = (st.ctl && st.ctl.phase && st.ctl.phase(v, null)) || {};
    const s = (ph.steps || []).find((x) => x.id === v.step);
    return s ? s.label : (st.ctl && st.ctl.stepName ? st.ctl.stepName(v.step) : human(v.step));
  }
  function announceText() {  // in the page's language at every render (the language may change)
    const v = st.view, box = $("phase-announce");
    if (box && v && !box.hidden) box.textContent = t("phase.now", { turn: v.turn, step: stepLabel(v), side: sideName(v.active) });
  }
  function announcePhase(v) {
    const text = t("phase.now", { turn: v.turn, step: stepLabel(v), side: sideName(v.active) });
    const box = $("phase-announce");
    if (box) {
      box.textContent = text;
      box.hidden = false;
      box.classList.remove("flash"); void box.offsetWidth; box.classList.add("flash");
      clearTimeout(st.announceTimer);
      st.announceTimer = setTimeout(() => { box.hidden = true; }, 6000);
    }
    st.endGuardUntil = Date.now() + END_GUARD_MS;
    clearTimeout(st.guardTimer);
    st.guardTimer = setTimeout(() => { if (st.view) renderPhaseBar(); }, END_GUARD_MS + 20);
  }

  /* --- actions -------------------------------------------------------------------------------- */
  async function commit(action) {
    if (st.busy || !st.view) return;
    st.busy = true;
    document.body.classList.add("busy");
    try {
      const r = await api("POST", "/actions", { action, version: st.view.version });
      if (st.ctl && st.ctl.clear) st.ctl.clear();
      setView(r.view);
    } catch (e) {
      handleError(e);
    } finally {
      st.busy = false;
      document.body.classList.remove("busy");
    }
  }

  async function explain(action) {
    try {
      return await api("POST", "/explain", { action });
    } catch (e) {
      handleError(e);
      return null;
    }
  }

  async function undo(answer) {
    try {
      const r = await api("POST", "/undo", answer ? { answer, version: st.view.version } : { version: st.view.version });
      if (r.undone) toast(t("undo.done"), "info");
      else if (r.declined) toast(t("undo.declined"), "info");
      resetChoices();
      await refresh();
    } catch (e) {
      handleError(e);
    }
  }

  // after an undo: every selection and transient choice goes (a stale selection would swallow the next click)
  function resetChoices() {
    st.confirmEnd = null;
    if (!st.ctl) return;
    if (st.ctl.reset) st.ctl.reset();
    else if (st.ctl.clear) st.ctl.clear();
  }

  /* --- ending a step: ask first while pieces can still act ------------------------------------ */
  function requestEndStep() {
    const v = st.view;
    if (!v || st.busy || st.replay || Date.now() < st.endGuardUntil) return;
    const a = st.ctl && st.ctl.endStep && st.ctl.endStep(v);
    if (!a) return;
    const names = st.ctl.stillToAct ? st.ctl.stillToAct(v) || [] : [];
    if (names.length && !(st.confirmEnd && st.confirmEnd.version === v.version)) {
      st.confirmEnd = { names, action: a, version: v.version };
      renderPhaseBar();
      const yes = $("confirm-end-yes");
      if (yes) yes.focus();
      return;
    }
    st.confirmEnd = null;
    commit(a);
  }
  function renderConfirmEnd() {
    const box = $("confirm-end");
    if (!box) return;
    box.innerHTML = "";
    const c = st.confirmEnd, v = st.view;
    box.hidden = !(c && v && c.version === v.version && !st.replay);
    if (box.hidden) return;
    const list = c.names.join(fr() ? ", " : ", ");
    box.append(
      el("p", { testid: "confirm-end-text" }, t("end.confirm", { names: list, n: c.names.length, step: stepLabel(v) })),
      el("button", { type: "button", class: "btn primary", id: "confirm-end-yes", testid: "confirm-end-yes",
                     onclick: () => { st.confirmEnd = null; commit(c.action); } }, t("end.confirm.yes")),
      " ",
      el("button", { type: "button", class: "btn", testid: "confirm-end-no",
                     onclick: () => { st.confirmEnd = null; renderPhaseBar(); } }, t("end.confirm.no")));
  }

  /* --- rendering ------------------------------------------------------------------------------- */
  function render() {
    if (!st.view || !st.ctl) return;
    I18N.apply();
    renderHeader();
    renderPhaseBar();
    renderUndo();
    renderReplayBar();
    st.ctl.render();
    renderBanner();
    announceText();
    renderEndScreen();
    renderDice();
    renderLog();
  }

  function renderHeader() {
    const v = st.view;
    const sc = st.scenario;
    $("scenario-name").textContent = sc ? (fr() ? sc.name_fr || sc.name : sc.name) : v.scenario;
    document.title = `${$("scenario-name").textContent} — Oriflamme`;
    const seat = v.seat === "hotseat" ? t("play.seat.hotseat") : `${sideName(v.seat)} (${v.seat})`;
    $("seat-info").textContent = t("play.seat", { seat }) + ` · #${v.version}`;
  }

  function frame() { return st.replay ? st.replay.frames[st.replay.idx] : null; }

  function renderPhaseBar() {
    const v = st.view, f = frame();
    const turn = f ? f.turn : v.turn, active = f ? f.active : v.active;
    const over = f ? f.over : v.over;
    const ph = (st.ctl.phase && st.ctl.phase(v, f)) || {};
    $("pb-turn").textContent = turn !== undefined && turn !== null ? t("play.turn", { turn, last: v.last_turn }) : "";
    const side = $("pb-side");
    side.innerHTML = "";
    if (active) side.append(t("play.active", { side: "" }).replace(/\s*$/, " "), sideChip(active));
    side.dataset.side = active || "";
    const w = $("pb-weather");
    w.textContent = ph.note || "";
    w.hidden = !ph.note;
    const ol = $("pb-steps");
    ol.innerHTML = "";
    (ph.steps || []).forEach((s, i) => {
      const cur = !over && s.id === ph.current;
      ol.appendChild(el("li", { class: "step" + (cur ? " current" : ""), testid: "step-" + s.id, "aria-current": cur ? "step" : null,
                                title: s.title || null },
        el("span", { class: "step-no" }, String(i + 1)), " ", s.label));
    });
    const pend = $("pb-pending");
    pend.innerHTML = "";
    pend.className = "phase-pending";
    if (over) {
      pend.classList.add("over");
      pend.append(el("strong", {}, t("play.over")), " — ", f ? f.result || "" : v.result || "");
      if (!f && v.winner) pend.append(" ", el("span", { testid: "winner" }, t("play.winner", { side: sideName(v.winner) })));
    } else if (!f && ph.pending) {
      pend.classList.add("has-pending");
      pend.textContent = ph.pending;
    } else if (!f) {
      const who = v.to_act;
      if (who) pend.append(el("span", { class: "to-act" }, t("play.to_act", { side: sideName(who) })));
    }
    const end = $("end-step");
    end.hidden = !(!st.replay && !v.over && st.ctl.endStep && st.ctl.endStep(v));
    end.disabled = st.busy || Date.now() < st.endGuardUntil;
    end.dataset.step = v.step || "";
    renderConfirmEnd();
  }

  function renderUndo() {
    const box = $("undo-area");
    box.innerHTML = "";
    const v = st.view, u = v.undo || {};
    if (st.replay) return;
    if (v.mode === "hotseat") {
      if (u.can_request) box.appendChild(el("button", { type: "button", class: "btn", testid: "undo", title: t("undo.undo.title"), onclick: () => undo() }, "↶ " + t("undo.undo")));
      return;
    }
    if (u.can_answer) {
      box.append(
        el("span", { class: "undo-ask", testid: "undo-requested" }, t("undo.requested", { side: sideName(u.requested_by) })),
        el("button", { type: "button", class: "btn primary", testid: "undo-accept", onclick: () => undo("accept") }, t("undo.accept")),
        el("button", { type: "button", class: "btn", testid: "undo-decline", onclick: () => undo("decline") }, t("undo.decline")));
    } else if (u.requested_by && u.requested_by === v.seat) {
      box.appendChild(el("span", { class: "undo-ask", testid: "undo-pending" }, t("undo.asked")));
    } else if (u.can_request) {
      box.appendChild(el("button", { type: "button", class: "btn", testid: "undo-request", title: t("undo.undo.title"), onclick: () => undo() }, "↶ " + t("undo.ask")));
    }
  }

  function renderReplayBar() {
    const bar = $("replay-bar");
    bar.hidden = !st.replay;
    $("replay-toggle").hidden = !!st.replay;
    document.body.classList.toggle("replaying", !!st.replay);
    if (!st.replay) return;
    const n = st.replay.frames.length - 1, f = frame();
    const sl = $("rp-slider");
    sl.max = String(n); sl.value = String(st.replay.idx);
    const step = st.ctl.stepName ? st.ctl.stepName(f.step) : human(f.step);
    $("rp-label").textContent = f.version === 0 ? t("replay.start") : f.turn === undefined ? `#${f.version}/${n}` :
      t("replay.position", { v: f.version, n, turn: f.turn, side: sideName(f.active), step });
  }

  function renderBanner() {
    const box = $("banner");
    box.innerHTML = "";
    const v = st.view;
    box.className = "banner";
    box.style.removeProperty("--side");
    if (st.replay) {
      box.classList.add("replay");
      box.append(el("strong", {}, t("replay.toggle")), " — ", $("rp-label").textContent);
      return;
    }
    if (v.over) {
      box.classList.add("over");
      box.append(el("strong", {}, t("play.over")), " — ", v.result || "", v.winner ? " " + t("play.winner", { side: sideName(v.winner) }) : "");
      box.appendChild(el("p", { class: "help" }, t("panel.help.over")));
      box.appendChild(el("button", { type: "button", class: "btn small", testid: "show-summary",
                                     onclick: () => { st.endDismissed = false; renderEndScreen(); } }, t("over.show")));
      return;
    }
    if (!v.can_act) {
      box.classList.add("waiting");
      box.append(el("strong", { testid: "waiting" }, t("play.waiting", { side: sideName(v.to_act) })));
      box.appendChild(el("p", { class: "help" }, t("panel.help.watch")));
      return;
    }
    box.classList.add("your-turn");
    box.style.setProperty("--side", colourOf(v.to_act));
    box.append(el("strong", { testid: "your-turn" }, t("play.to_act", { side: sideName(v.to_act) })));
    const help = st.ctl.help ? st.ctl.help(v) : t("generic.help");
    if (help) box.appendChild(el("p", { class: "help" }, help));
  }

  /* --- the end screen: who won, by which condition, the losses of each side, the replay ------ */
  function casualties(v) {
    if (st.ctl && st.ctl.casualties) return st.ctl.casualties(v);
    const out = {};
    for (const s of v.sides || []) out[s.id] = [];
    const add = (side, name) => { (out[side] = out[side] || []).push(name); };
    for (const c of v.characters || []) if (c.status === "dead") add(c.side, c.name);
    for (const u of v.units || []) if (u.steps === 0 || u.eliminated || (u.hex === null && u.max_steps)) add(u.side, u.name);
    for (const l of v.leaders || []) if (l.lost) add(l.side, l.name);
    return out;
  }
  function replayHref() {
    return `${location.pathname}#seat=${encodeURIComponent(st.token)}&replay=1`;
  }
  function renderEndScreen() {
    let box = $("end-screen");
    const v = st.view;
    const show = v && v.over && !st.replay && !st.endDismissed;
    if (!show) { if (box) box.hidden = true; return; }
    if (!box) {
      box = el("div", { id: "end-screen", class: "end-screen", testid: "end-screen", role: "dialog", "aria-modal": "false",
                        "aria-labelledby": "end-title" });
      document.body.appendChild(box);
    }
    box.hidden = false;
    box.innerHTML = "";
    const lost = casualties(v);
    const rows = (v.sides || []).map((s) => {
      const names = lost[s.id] || [];
      return el("li", { testid: "end-casualties-" + s.id, dataset: { side: s.id, count: String(names.length) } },
        sideChip(s.id), " ", el("strong", {}, t("over.lost", { n: names.length })),
        names.length ? el("span", { class: "muted" }, " — " + names.join(", ")) : null);
    });
    const card = el("div", { class: "end-card" },
      el("h2", { id: "end-title" }, t("play.over")),
      el("p", { class: "end-winner", testid: "end-winner", dataset: { winner: v.winner || "" } },
        v.winner ? t("over.winner", { side: sideName(v.winner) }) : t("play.draw")),
      el("h3", {}, t("over.condition")),
      el("p", { testid: "end-result" }, v.result || "—"),
      el("h3", {}, t("over.casualties")),
      el("ul", { class: "end-casualties" }, rows),
      el("div", { class: "end-actions" },
        el("a", { class: "btn primary", href: replayHref(), testid: "end-replay",
                  onclick: (e) => { e.preventDefault(); st.endDismissed = true; enterReplay(); } }, t("over.replay")),
        " ",
        el("button", { type: "button", class: "btn", testid: "end-record",
                       onclick: () => download("/record", `oriflamme-${st.id}.json`) }, t("export.record")),
        " ",
        el("button", { type: "button", class: "btn", testid: "end-close",
                       onclick: () => { st.endDismissed = true; renderEndScreen(); } }, t("over.close"))));
    box.appendChild(card);
  }

  /* --- the dice commitment (docs/architecture.md, secret dice): the SHA-256 of the server's
   * secret seed is shown from the start; the seed is published once the game is over, and the
   * page checks it against the commitment itself (SHA-256 of the seed's text, as the server). */
  const short = (s) => String(s).slice(0, 8) + "…";
  async function sha256Hex(text) {
    const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  function renderDice() {
    const box = $("dice");
    const v = st.view;
    box.innerHTML = "";
    if (!v.dice_commitment) { box.hidden = true; return; }
    box.hidden = false;
    box.appendChild(el("span", { testid: "dice-commitment", title: t("dice.commitment.title", { hash: v.dice_commitment }),
                                 dataset: { commitment: v.dice_commitment } },
      t("dice.sealed", { hash: short(v.dice_commitment) })));
    if (v.dice_seed === undefined || v.dice_seed === null) return;
    const seed = String(v.dice_seed);
    const chk = st.seedCheck && st.seedCheck.seed === seed && st.seedCheck.commitment === v.dice_commitment ? st.seedCheck : null;
    const mark = !chk ? "…" : chk.ok ? "✓" : "✗";
    box.append(" · ", el("span", { testid: "dice-seed", title: seed, dataset: { seed, verified: chk ? String(chk.ok) : "" },
                                   class: chk && !chk.ok ? "refusal" : null },
      t("dice.seed", { seed: short(seed) }), " ",
      el("span", { testid: "dice-check" }, mark + " " + (chk ? t(chk.ok ? "dice.match" : "dice.mismatch") : ""))));
    if (!chk && window.crypto && crypto.subtle) {
      const commitment = v.dice_commitment;
      sha256Hex(seed).then((h) => {
        st.seedCheck = { seed, commitment, ok: h === commitment };
        if (st.view) renderDice();
      }).catch(() => { /* no SubtleCrypto (plain http on a remote host): the server checked it */ });
    }
  }

  /* --- log ------------------------------------------------------------------------------------------ */
  function renderLog() {
    const box = $("log");
    const f = frame();
    const log = f ? st.view.log.slice(0, f.log_length) : st.view.log;
    const wasAtBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
    box.innerHTML = "";
    for (const e of log) box.appendChild(logItem(e));
    const grew = log.length !== st.lastLogLen;
    st.lastLogLen = log.length;
    if (grew || wasAtBottom) box.scrollTop = box.scrollHeight;
    renderAiNotes(box, f);
  }

  // the computer seats' explanations (issue 14: view.ai_notes, latest last), under the log
  function renderAiNotes(logBox, f) {
    const notes = (st.view && st.view.ai_notes) || [];
    let box = document.getElementById("ai-notes");
    if (!notes.length || f) { if (box) box.remove(); return; }
    if (!box) {
      box = el("details", { id: "ai-notes", class: "ai-notes", testid: "ai-notes", open: true });
      logBox.after(box);
    }
    const isFr = fr();
    box.innerHTML = "";
    box.append(el("summary", {}, t("play.ai_notes")),
      el("ol", { class: "log" }, notes.slice(-8).map((n) => el("li", { class: "ev side-" + n.side, testid: "ai-note" },
        el("span", { class: "ev-meta" }, `#${n.version}·${n.side}`), " ",
        el("span", { class: "ev-text" }, ((isFr ? n.label_fr || n.label : n.label) ? (isFr ? n.label_fr || n.label : n.label) + " — " : "") + (isFr ? n.text_fr || n.text : n.text))))));
  }

  function logItem(e) {
    const cls = ["ev", "ev-" + e.type, "side-" + e.side];
    if (st.fresh.has(e.n)) cls.push("fresh");
    const li = el("li", { class: cls.join(" "), testid: "log-event", dataset: { n: String(e.n), type: e.type } });
    const head = el("div", { class: "ev-head" },
      el("span", { class: "ev-meta", title: `#${e.n}` }, `${e.turn}${e.side ? "·" + e.side : ""}`),
      el("span", { class: "ev-text", testid: "log-text" }, e.text));
    if (e.ref) head.appendChild(el("span", { class: "ev-ref" }, citeChips(e.ref)));
    li.appendChild(head);
    if (e.ruling) {
      const r = e.ruling;
      const det = el("details", { class: "ev-ruling", open: st.open.has(e.n) || null });
      det.addEventListener("click", (ev) => { if (ev.target.tagName === "SUMMARY") st.userOpen.add(e.n); });
      det.addEventListener("toggle", () => { if (det.open) st.open.add(e.n); else st.open.delete(e.n); });
      const dieTxt = r.die !== undefined && r.die !== null ? " — " + t("log.die", { die: r.die, mod: r.modified_die }) + (r.result ? ` : ${r.result_text || r.result}` : "") : "";
      det.append(
        el("summary", {}, t("log.explanation") + dieTxt),
        el("ol", { class: "explanation" }, (r.explanation || []).map((x) => el("li", {}, x))),
        citesOf(r.citations));
      li.appendChild(det);
    }
    return li;
  }

  /* --- replay ----------------------------------------------------------------------------------------- */
  async function loadFrames(keepPlace) {
    const d = await api("GET", "/frames");
    const atEnd = !st.replay || st.replay.idx >= st.replay.frames.length - 1;
    const idx = keepPlace && st.replay && !atEnd ? Math.min(st.replay.idx, d.frames.length - 1) : d.frames.length - 1;
    st.replay = { frames: d.frames, idx };
  }
  async function enterReplay() {
    try {
      await loadFrames(false);
      if (st.ctl && st.ctl.clear) st.ctl.clear();
      render();
    } catch (e) { handleError(e); }
  }
  /* --- downloads ---------------------------------------------------------------------------------------- */
  async function download(path, fallbackName) {
    try {
      const sep = path.includes("?") ? "&" : "?";
      const res = await fetch(`/api/games/${encodeURIComponent(st.id)}${path}${sep}lang=${I18N.lang()}`, { headers: { "X-Seat": st.token } });
      if (!res.ok) {
        let data = null; try { data = await res.json(); } catch (e) { /* ignore */ }
        throw new ApiError(res.status, data);
      }
      const cd = res.headers.get("Content-Disposition") || "";
      const m = cd.match(/filename="([^"]+)"/);
      const blob = await res.blob();
      const url = URL.createObjectURL(blob);
      const a = el("a", { href: url, download: m ? m[1] : fallbackName });
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (e) { handleError(e); }
  }

  /* --- live updates ------------------------------------------------------------------------------------- */
  function setConn(live) {
    const c = $("conn");
    c.className = "conn " + (live ? "live" : "offline");
    c.textContent = live ? "● " + t("conn.live") : "○ " + t("conn.offline");
    c.dataset.state = live ? "live" : "offline";
  }
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/api/games/${encodeURIComponent(st.id)}/ws?seat=${encodeURIComponent(st.token)}`);
    st.ws = ws;
    let opened = false;
    ws.onopen = () => { opened = true; st.wsDelay = 500; setConn(true); };
    ws.onmessage = (m) => {
      let d; try { d = JSON.parse(m.data); } catch (e) { return; }
      if (d.type === "update" || (d.type === "hello" && st.view && d.version !== st.view.version)) refresh();
      else if (d.type === "hello" && st.view && opened && st.hadSocket) refresh();  // may have missed an undo request
      if (d.type === "hello") st.hadSocket = true;
    };
    ws.onclose = (ev) => {
      setConn(false);
      if (ev.code === 4403 || ev.code === 4404) { st.wsClosedForGood = true; toast(ev.reason || "WebSocket " + ev.code); return; }
      setTimeout(connect, st.wsDelay);
      st.wsDelay = Math.min(st.wsDelay * 2, 10000);
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  /* --- a ruleset without a browser module: its legal actions as buttons ---------------------------- */
  function genericController(containers) {
    containers.board.innerHTML = "";
    const board = el("div", { id: "board", class: "board generic-board", testid: "board" },
      el("p", { class: "muted" }, t("generic.no_board")));
    containers.board.appendChild(board);
    const card = el("section", { class: "card prompts", testid: "actions", id: "actions" });
    containers.panel.appendChild(card);
    return {
      render() {
        card.innerHTML = "";
        const o = st.replay ? null : st.view.options;
        const list = (o && o.actions) || [];
        card.hidden = !list.length;
        if (!list.length) return;
        card.appendChild(el("h2", { class: "card-title" }, t("generic.actions")));
        const box = el("div", { class: "prompt-list" });
        list.forEach((x, i) => box.appendChild(el("button", { type: "button", class: "btn prompt-btn", testid: "action-" + i,
                                                               onclick: () => commit(x.action) }, x.label || JSON.stringify(x.action))));
        card.appendChild(box);
      },
      help: () => t("generic.help"),
    };
  }

  async function loadModule(view) {
    const containers = { board: $("board-area"), panel: $("ruleset-panel") };
    const core = {
      state: st, get: (path) => api("GET", path), commit, explain, render, frame,
      t, el, fr, pct, human, $, sideName, citeChips, citesOf, toast, handleError,
    };
    if (!view.web_module) return genericController(containers);
    const mod = await import(`/static/rulesets/${encodeURIComponent(view.web_module)}/module.js`);
    return mod.mount(containers, core, view);
  }

  /* --- start ----------------------------------------------------------------------------------------------- */
  function parseLocation() {
    const m = location.pathname.match(/\/play\/([^/]+)/);
    st.id = m ? decodeURIComponent(m[1]) : null;
    const h = new URLSearchParams(location.hash.replace(/^#/, ""));
    st.token = h.get("seat");
    st.wantReplay = h.has("replay");   // the end screen's replay link: open the game in replay mode
  }

  function replayTo(i) {
    if (!st.replay) return;
    st.replay.idx = Math.max(0, Math.min(st.replay.frames.length - 1, i));
    render();
  }

  function bindChrome() {
    $("end-step").addEventListener("click", requestEndStep);
    $("replay-toggle").addEventListener("click", enterReplay);
    $("rp-exit").addEventListener("click", () => { st.replay = null; st.endDismissed = true; render(); });
    $("rp-slider").addEventListener("input", (e) => replayTo(parseInt(e.target.value, 10)));
    $("rp-first").addEventListener("click", () => replayTo(0));
    $("rp-prev").addEventListener("click", () => replayTo(st.replay.idx - 1));
    $("rp-next").addEventListener("click", () => replayTo(st.replay.idx + 1));
    $("rp-last").addEventListener("click", () => replayTo(st.replay.frames.length - 1));
    $("export-record").addEventListener("click", () => download("/record", `oriflamme-${st.id}.json`));
    $("export-report").addEventListener("click", () => download("/report", `oriflamme-${st.id}-${I18N.lang()}.md`));
    document.addEventListener("keydown", (e) => {
      if (e.target && /input|textarea|select/i.test(e.target.tagName)) return;
      if (e.key !== "Escape" && st.replay && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
        replayTo(st.replay.idx + (e.key === "ArrowLeft" ? -1 : 1));
      } else if (st.ctl && st.ctl.onKey) st.ctl.onKey(e);
    });
    I18N.mountSwitch($("lang-switch"), async () => {
      I18N.apply();
      if (st.ctl && st.ctl.onLanguage) st.ctl.onLanguage();
      if (st.view) { render(); await refresh(); }
    });
    window.addEventListener("hashchange", () => {
      parseLocation(); refresh();
      if (st.wantReplay && !st.replay && st.view) enterReplay();
    });
  }

  function fatal(message) {
    const area = $("board-area");
    area.innerHTML = "";
    area.appendChild(el("div", { id: "board", class: "board", testid: "board" }, el("p", { class: "fatal", testid: "fatal" }, message)));
  }

  async function start() {
    I18N.apply();
    bindChrome();
    parseLocation();
    if (!st.id || !st.token) { fatal(t("play.no_seat")); return; }
    const lang0 = I18N.lang();
    try {
      const view = await api("GET", "");
      const rs = encodeURIComponent(view.ruleset || "");
      const [sections, scen, ctl] = await Promise.all([
        fetch("/api/rules/sections?ruleset=" + rs).then((r) => r.json()).catch(() => ({ sections: {} })),
        fetch("/api/scenarios?ruleset=" + rs).then((r) => r.json()).catch(() => ({ scenarios: [] })),
        loadModule(view),
      ]);
      st.sections = sections.sections || {};
      // the rules of this game's edition against its base (the rules diff page)
      $("rules-diff-link").href = "/rules/diff?edition=" + rs;
      st.scenario = (scen.scenarios || []).find((s) => s.id === view.scenario) || null;
      st.ctl = ctl;
      setView(view);
      if (st.wantReplay) await enterReplay();
      document.body.classList.add("ready");
      connect();
      if (I18N.lang() !== lang0) refresh();        // the language was switched while loading
    } catch (e) {
      fatal(e.message);
      handleError(e);
    }
  }

  // for the tests and the curious: the state, read-only by convention
  window.oriflamme = { state: st, refresh, commit };
  start();
})();
