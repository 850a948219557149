/* Oriflamme — the home page's lobby: "my games" (with whose turn it is in each), the online
 * games waiting for an opponent (join one), and a scenario's briefing with a map preview
 * (docs/api.md § Lobby). Uses window.MyGames (mygames.js) and window.DOM (dom.js).
 */
(function () {
  "use strict";
  const { t } = window.I18N;
  const { el } = window.DOM;
  const fr = () => I18N.lang() === "fr";
  const pick = (o, k) => (o ? (fr() ? o[k + "_fr"] || o[k] : o[k]) : "");
  const REFRESH_MS = 30000;

  async function api(method, url, body) {
    const res = await fetch(url, {
      method, headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    let data = null;
    try { data = await res.json(); } catch (e) { /* not JSON */ }
    if (!res.ok) throw new Error((data && data.message) || t("error.http", { status: res.status }));
    return data;
  }

  function toast(msg) {
    const box = document.getElementById("toasts");
    if (!box) return;
    const tt = el("div", { class: "toast error", testid: "toast", role: "alert" }, msg);
    box.appendChild(tt);
    setTimeout(() => tt.remove(), 8000);
  }

  /* --- my games --------------------------------------------------------------------------------- */
  let statuses = {};   // "id/seat" -> the server's status (or {error})

  function statusText(s) {
    if (s.error) return t("lobby.gone");
    if (s.over) return s.winner ? t("lobby.won", { side: sideName(s, s.winner) }) : t("lobby.over") + " — " + t("lobby.draw");
    if (s.open_seats && s.open_seats.length) return t("lobby.waiting");
    if (s.your_turn) return t("lobby.your_turn");
    return s.to_act_side ? t("lobby.their_turn", { side: pick(s.to_act_side, "name") }) : "";
  }

  function sideName(s, id) {
    return s.to_act_side && s.to_act_side.id === id ? pick(s.to_act_side, "name") : id;
  }

  function renderMine() {
    const box = document.getElementById("my-games-list");
    if (!box) return;
    const mine = MyGames.list();
    box.innerHTML = "";
    if (!mine.length) {
      box.appendChild(el("p", { class: "muted", testid: "my-games-none" }, t("lobby.mine.none")));
      return;
    }
    const rows = mine.map((g) => {
      const s = statuses[g.id + "/" + g.seat] || {};
      const cls = "my-game" + (s.your_turn ? " your-turn" : "") + (s.over ? " over" : "") + (s.error ? " gone" : "");
      const who = s.seat === "hotseat" ? t("lobby.hotseat") : (s.seat ? t("lobby.seat", { side: s.seat_side ? pick(s.seat_side, "name") : s.seat }) : "");
      return el("li", { class: cls, testid: "my-game-" + g.id },
        el("span", { class: "my-game-name" },
          el("strong", {}, pick(s, "scenario_name") || g.scenario || g.id), " ",
          el("span", { class: "muted" }, pick(s, "ruleset_title") || g.ruleset || ""), " ",
          el("span", { class: "muted" }, who)),
        el("span", { class: "my-game-status", testid: "my-game-status-" + g.id }, s.id ? statusText(s) : "…"),
        el("span", { class: "my-game-actions" },
          el("a", { class: "btn" + (s.your_turn ? " primary" : ""), href: "/play/" + encodeURIComponent(g.id) + "#seat=" + encodeURIComponent(g.seat),
                    testid: "my-game-open-" + g.id }, t("lobby.resume")),
          el("button", { type: "button", class: "btn", title: t("lobby.forget.hint"), testid: "my-game-forget-" + g.id,
                         onclick: () => { MyGames.forget(g.id, g.seat); renderMine(); } }, t("lobby.forget"))));
    });
    box.appendChild(el("ul", { class: "my-games" }, rows));
  }

  async function refreshMine() {
    const mine = MyGames.list();
    if (!mine.length) { renderMine(); return; }
    try {
      const r = await api("POST", "/api/games/status", { games: mine.map((g) => ({ id: g.id, seat: g.seat })) });
      statuses = {};
      r.games.forEach((s, i) => { statuses[mine[i].id + "/" + mine[i].seat] = s; });
    } catch (e) { /* keep the last statuses; the list still opens the games */ }
    renderMine();
  }

  /* --- open games ----------------------------------------------------------------------------- */
  let open = [];

  function renderOpen() {
    const box = document.getElementById("open-games-list");
    if (!box) return;
    box.innerHTML = "";
    if (!open.length) {
      box.appendChild(el("p", { class: "muted", testid: "open-games-none" }, t("lobby.open.none")));
      return;
    }
    box.appendChild(el("ul", { class: "open-games" }, open.map((g) => el("li", { class: "open-game", testid: "open-game-" + g.id },
      el("span", {}, el("strong", {}, pick(g, "scenario_name")), " ", el("span", { class: "muted" }, pick(g, "ruleset_title"))),
      el("button", { type: "button", class: "btn primary", testid: "join-" + g.id, onclick: () => join(g) },
        t("lobby.join", { side: pick(g.side, "name") }))))));
  }

  async function refreshOpen() {
    try {
      open = (await api("GET", "/api/lobby")).games;
    } catch (e) { open = []; }
    renderOpen();
  }

  async function join(g) {
    try {
      const j = await api("POST", "/api/games/" + encodeURIComponent(g.id) + "/join", {});
      MyGames.remember({ id: j.id, seat: j.seat, ruleset: g.ruleset, scenario: g.scenario, side: j.side });
      location.assign(j.link);
    } catch (e) {
      toast(e.message);
      refreshOpen();
    }
  }

  /* --- briefing ------------------------------------------------------------------------------ */
  async function briefing(rulesetId, scenarioId) {
    const dlg = document.getElementById("briefing-dialog");
    const body = document.getElementById("briefing-body");
    body.innerHTML = "";
    dlg.hidden = false;
    document.getElementById("briefing-close").focus();
    let b;
    try {
      b = await api("GET", `/api/scenarios/${encodeURIComponent(rulesetId)}/${encodeURIComponent(scenarioId)}/briefing?lang=${I18N.lang()}`);
    } catch (e) {
      body.appendChild(el("p", { class: "error" }, e.message));
      return;
    }
    const s = b.scenario;
    body.appendChild(el("h2", { testid: "briefing-title" }, pick(s, "name")));
    body.appendChild(el("p", { class: "desc" }, pick(s, "description")));
    body.appendChild(el("p", {}, b.sides.map((sd) => el("span", { class: "side-chip side-" + sd.id }, pick(sd, "name")))));
    if (s.victory) body.appendChild(el("p", { class: "victory" }, el("strong", {}, t("home.victory") + " — "), pick(s, "victory")));
    const frame = el("div", { class: "briefing-preview", testid: "briefing-preview" });
    body.appendChild(el("h3", {}, t("lobby.briefing.opening")));
    body.appendChild(frame);
    let drawn = false;
    if (b.web_module) {
      try {
        const mod = await import(`/static/rulesets/${encodeURIComponent(b.web_module)}/module.js`);
        if (typeof mod.preview === "function") { await mod.preview(frame, b); drawn = true; }
      } catch (e) { console.warn("briefing preview:", e); /* the text stays */ }
    }
    if (!drawn) frame.replaceWith(el("p", { class: "muted", testid: "briefing-no-preview" }, t("lobby.briefing.no_preview")));
  }

  function closeBriefing() {
    document.getElementById("briefing-dialog").hidden = true;
  }

  function start() {
    const close = document.getElementById("briefing-close");
    if (close) close.addEventListener("click", closeBriefing);
    document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeBriefing(); });
    const again = document.getElementById("lobby-refresh");
    if (again) again.addEventListener("click", () => { refreshMine(); refreshOpen(); });
    refreshMine();
    refreshOpen();
    setInterval(() => { if (!document.hidden) { refreshMine(); refreshOpen(); } }, REFRESH_MS);
  }

  window.Lobby = { start, refreshMine, refreshOpen, renderMine, renderOpen, briefing };
})();
