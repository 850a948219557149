/* Oriflamme — home page: the bundled scenarios, and creating a game (hot-seat or online). */
(function () {
  "use strict";
  const { t } = window.I18N;
  let scenarios = null;   // one entry per scenario id, with the rulesets (editions) it may be played under
  let rulesets = {};

  const { el } = window.DOM;

  function toast(msg, kind) {
    const box = document.getElementById("toasts");
    const tt = el("div", { class: "toast " + (kind || "error"), testid: "toast", role: "alert" }, msg);
    box.appendChild(tt);
    setTimeout(() => tt.remove(), 8000);
  }

  async function api(method, url, body) {
    const res = await fetch(url, {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    let data = null;
    try { data = await res.json(); } catch (e) { /* not JSON */ }
    if (!res.ok) {
      const msg = (data && data.message) || t("error.http", { status: res.status });
      throw new Error(msg);
    }
    return data;
  }

  const fr = () => I18N.lang() === "fr";
  const human = (x) => String(x || "").replace(/_/g, " ");
  let lastGame = null;
  const pick = (o, k) => (fr() ? o[k + "_fr"] || o[k] : o[k]);

  function render() {
    I18N.apply();
    const box = document.getElementById("scenarios");
    if (!scenarios) return;
    box.innerHTML = "";
    for (const s of scenarios) {
      // the edition the game follows (docs/architecture.md "Editions"): picked when it is created
      const editionSelect = el("select", { class: "edition-select", testid: "edition-" + s.id, disabled: s.editions.length < 2 },
        s.editions.map((rid) => el("option", { value: rid }, rulesets[rid] ? pick(rulesets[rid], "title") : rid)));
      const seedInput = el("input", {
        type: "number", min: "0", step: "1", class: "seed-input", testid: "seed-" + s.id,
        placeholder: "123",
      });
      const card = el("article", { class: "scenario-card", testid: "scenario-card-" + s.id },
        el("h3", {}, pick(s, "name")),
        el("p", { class: "desc" }, pick(s, "description")),
        el("dl", { class: "facts" },
          el("dt", {}, t("home.sides")),
          el("dd", {}, s.sides.map((sd) => el("span", { class: "side-chip side-" + sd.id }, pick(sd, "name")))),
          el("dt", {}, t("home.turns")), el("dd", {}, String(s.turns)),
          // the facts a ruleset's scenario may not have (a table game has no weather, its size is in cm)
          s.weather ? [el("dt", {}, t("home.weather")), el("dd", {}, t("weather." + s.weather).startsWith("weather.") ? human(s.weather) : t("weather." + s.weather))] : null,
          s.size || s.table ? [el("dt", {}, t("home.size")), el("dd", {}, s.size ? `${s.size[0]} × ${s.size[1]}` : `${s.table[0]} × ${s.table[1]} cm`)] : null,
          s.characters !== undefined ? [el("dt", {}, t("home.characters")), el("dd", {}, String(s.characters))] : null,
        ),
        el("p", { class: "victory" }, el("strong", {}, t("home.victory") + " — "), pick(s, "victory") || s.victory),
        el("label", { class: "edition-label" }, t("home.edition"), " ", editionSelect),
        el("label", { class: "seed-label" }, t("home.seed"), " ", seedInput),
        el("div", { class: "card-actions" },
          el("button", { type: "button", class: "btn primary", testid: "hotseat-" + s.id, title: t("home.hotseat.hint"),
                         onclick: () => create(s.id, "hotseat", seedInput, editionSelect.value) }, t("home.hotseat")),
          el("button", { type: "button", class: "btn", testid: "online-" + s.id, title: t("home.online.hint"),
                         onclick: () => create(s.id, "online", seedInput, editionSelect.value) }, t("home.online")),
        ),
        vsComputer(s, editionSelect),
      );
      box.appendChild(card);
    }
  }

  // "play against the computer" (issue 14): the human's side and the computer's level; the
  // server plays the other side (an online game whose other seat is a bot, POST /api/games "ai")
  function vsComputer(s, editionSelect) {
    const sideSel = el("select", { testid: "ai-side-" + s.id },
      ...s.sides.map((sd) => el("option", { value: sd.id }, pick(sd, "name"))));
    const levelSel = el("select", { testid: "ai-level-" + s.id },
      ...["easy", "normal", "hard", "random"].map((lv) => el("option", { value: lv }, t("home.ai." + lv))));
    levelSel.value = "normal";
    return el("div", { class: "card-actions vs-computer" },
      el("label", {}, t("home.ai.play_as"), " ", sideSel), el("label", {}, t("home.ai.level"), " ", levelSel),
      el("button", { type: "button", class: "btn", testid: "vs-ai-" + s.id, title: t("home.ai.hint"),
                     onclick: () => createVsComputer(s, sideSel.value, levelSel.value, editionSelect.value) }, t("home.ai")));
  }

  async function createVsComputer(s, human, level, ruleset) {
    const ai = {};
    for (const sd of s.sides) if (sd.id !== human) ai[sd.id] = level;
    const body = { scenario: s.id, mode: "online", ai };
    if (ruleset) body.ruleset = ruleset;  // the edition picked on the card
    document.body.classList.add("busy");
    try {
      const g = await api("POST", "/api/games", body);
      location.assign(g.links[human]);
    } catch (e) {
      toast(e.message);
    } finally {
      document.body.classList.remove("busy");
    }
  }

    async function create(scenario, mode, seedInput, ruleset) {
    const body = { scenario, mode };
    if (ruleset) body.ruleset = ruleset;
    // only a hot-seat game may choose its seed: an online game's dice are drawn by the server
    // and stay secret until the end (the view shows their commitment)
    const seed = mode === "hotseat" && seedInput && seedInput.value.trim();
    if (seed) body.seed = parseInt(seed, 10);
    document.body.classList.add("busy");
    try {
      const g = await api("POST", "/api/games", body);
      if (mode === "hotseat") {
        location.assign(g.links.hotseat);
        return;
      }
      showLinks(g, scenario);
    } catch (e) {
      toast(e.message);
    } finally {
      document.body.classList.remove("busy");
    }
  }

  function showLinks(g, scenarioId) {
    lastGame = [g, scenarioId];
    const s = scenarios.find((x) => x.id === scenarioId);
    const box = document.getElementById("seat-links");
    box.innerHTML = "";
    for (const [side, link] of Object.entries(g.links)) {
      const sd = s && s.sides.find((x) => x.id === side);
      const url = new URL(link, location.href).href;
      const input = el("input", { type: "text", readonly: true, value: url, class: "link-input", testid: "seat-link-" + side,
                                  onfocus: (ev) => ev.target.select() });
      const copyBtn = el("button", { type: "button", class: "btn", testid: "copy-" + side }, t("home.copy"));
      copyBtn.addEventListener("click", async () => {
        let ok = false;
        try {
          if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(url); ok = true; }
        } catch (e) { /* fall back */ }
        if (!ok) {
          input.focus(); input.select();
          try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
        }
        copyBtn.textContent = ok ? t("home.copied") + " ✓" : t("home.copy");
        setTimeout(() => { copyBtn.textContent = t("home.copy"); }, 2000);
      });
      box.appendChild(el("div", { class: "seat-link side-" + side },
        el("label", {}, t("home.side_link", { side: sd ? pick(sd, "name") + ` (${side})` : side })),
        el("div", { class: "link-row" }, input, copyBtn,
           el("a", { class: "btn", href: url, target: "_blank", rel: "noopener", testid: "open-" + side }, t("home.open"))),
      ));
    }
    const dlg = document.getElementById("links-dialog");
    dlg.hidden = false;
    document.getElementById("links-close").focus();
  }

  document.getElementById("links-close").addEventListener("click", () => { document.getElementById("links-dialog").hidden = true; });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") document.getElementById("links-dialog").hidden = true; });

  I18N.mountSwitch(document.getElementById("lang-switch"), () => {
    render();
    renderBuilders();
    renderFromArmies();
    if (lastGame && !document.getElementById("links-dialog").hidden) showLinks(...lastGame);
  });
  I18N.apply();

  /* the rulesets with an army builder (Ruleset.army_catalog): a link to /army/<id> each */
  function renderBuilders() {
    const box = document.getElementById("army-builder-list");
    box.innerHTML = "";
    const withBuilder = Object.values(rulesets).filter((r) => r.army_builder);
    document.getElementById("army-builders").hidden = !withBuilder.length;
    for (const r of withBuilder) {
      box.appendChild(el("a", { class: "btn primary", href: "/army/" + encodeURIComponent(r.id), testid: "army-builder-" + r.id },
        t("home.army_builder") + " — " + pick(r, "title")));
    }
  }

  /* a battle between two armies of the army builder (rulesets whose entry says battle_from_armies):
   * a bundled scenario's table, an army per side — an example or one of the owner's saved armies
   * (the builder's token in this browser) — sent with POST /api/games {armies} (docs/api.md) */
  const OWNER_KEY = "oriflamme.owner";
  const armyChoices = {};   // ruleset id -> [{key, label, load()}]

  async function loadArmyChoices(r) {
    const list = [];
    try {
      const ex = await api("GET", "/api/rulesets/" + encodeURIComponent(r.id) + "/army/examples");
      for (const [id, doc] of Object.entries(ex.examples || {})) {
        list.push({ key: "example:" + id, label: () => `${doc.name || id} (${t("home.from_armies.example")})`, load: async () => doc });
      }
    } catch (e) { /* no examples */ }
    let owner = null;
    try { owner = localStorage.getItem(OWNER_KEY); } catch (e) { /* private mode */ }
    if (owner) {
      try {
        const res = await fetch("/api/armies?ruleset=" + encodeURIComponent(r.id), { headers: { "X-Owner": owner } });
        const mine = res.ok ? (await res.json()).armies || [] : [];
        for (const a of mine.filter((x) => x.valid)) {
          list.push({ key: "saved:" + a.id, label: () => `${a.name} — ${a.total_points} pts (${t("home.from_armies.mine")})`,
                      load: async () => {
                        const r2 = await fetch("/api/armies/" + encodeURIComponent(a.id), { headers: { "X-Owner": owner } });
                        if (!r2.ok) throw new Error(t("error.http", { status: r2.status }));
                        return (await r2.json()).army;
                      } });
        }
      } catch (e) { /* the saved armies stay out */ }
    }
    armyChoices[r.id] = list;
  }

  function renderFromArmies() {
    let box = document.getElementById("from-armies");
    const able = Object.values(rulesets).filter((r) => r.battle_from_armies && r.army_builder && (r.scenarios || []).length);
    if (!able.length) { if (box) box.remove(); return; }
    if (!box) {
      box = el("section", { id: "from-armies", class: "army-builders from-armies", testid: "from-armies" });
      const anchor = document.getElementById("army-builders");
      anchor.parentNode.insertBefore(box, anchor.nextSibling);
    }
    box.innerHTML = "";
    box.appendChild(el("h2", {}, t("home.from_armies")));
    for (const r of able) {
      const choices = armyChoices[r.id] || [];
      const scs = (scenarios || []).filter((s) => s.editions.includes(r.id));
      const tableSel = el("select", { testid: "from-armies-table-" + r.id },
        scs.map((s) => el("option", { value: s.id }, pick(s, "name"))));
      const sidesOf = () => ((scs.find((s) => s.id === tableSel.value) || scs[0] || {}).sides || []);
      const armySels = {};
      const sideRow = el("div", { class: "card-actions" });
      const drawSides = () => {
        sideRow.innerHTML = "";
        sidesOf().forEach((sd, i) => {
          const sel = el("select", { testid: `from-armies-${r.id}-${sd.id}` },
            choices.length ? choices.map((c) => el("option", { value: c.key }, c.label()))
                           : [el("option", { value: "" }, t("home.from_armies.none"))]);
          if (choices.length > 1) sel.selectedIndex = i % choices.length;
          armySels[sd.id] = sel;
          sideRow.appendChild(el("label", {}, t("home.from_armies.army", { side: pick(sd, "name") }), " ", sel));
        });
      };
      tableSel.addEventListener("change", drawSides);
      drawSides();
      const go = (mode) => createFromArmies(r, tableSel.value, sidesOf(), armySels, mode);
      box.appendChild(el("article", { class: "scenario-card", testid: "from-armies-card-" + r.id },
        el("h3", {}, pick(r, "title")),
        el("p", { class: "desc" }, t("home.from_armies.help")),
        el("label", { class: "edition-label" }, t("home.from_armies.table"), " ", tableSel),
        sideRow,
        el("div", { class: "card-actions" },
          el("button", { type: "button", class: "btn primary", testid: "from-armies-hotseat-" + r.id, disabled: !choices.length,
                         onclick: () => go("hotseat") }, t("home.hotseat")),
          el("button", { type: "button", class: "btn", testid: "from-armies-online-" + r.id, disabled: !choices.length,
                         onclick: () => go("online") }, t("home.online")))));
    }
  }

  async function createFromArmies(r, scenario, sides, armySels, mode) {
    document.body.classList.add("busy");
    try {
      const armies = {};
      for (const sd of sides) {
        const c = (armyChoices[r.id] || []).find((x) => x.key === armySels[sd.id].value);
        if (c) armies[sd.id] = await c.load();
      }
      const g = await api("POST", "/api/games", { scenario, ruleset: r.id, mode, armies });
      if (mode === "hotseat") { location.assign(g.links.hotseat); return; }
      showLinks(g, scenario);
    } catch (e) {
      toast(e.message);
    } finally {
      document.body.classList.remove("busy");
    }
  }

  function group(list) {
    // /api/scenarios lists a scenario once per ruleset that may play it: one card, an edition list
    const byId = new Map();
    for (const s of list) {
      const g = byId.get(s.id);
      if (g) g.editions.push(s.ruleset);
      else byId.set(s.id, Object.assign({}, s, { editions: [s.ruleset] }));
    }
    for (const g of byId.values()) g.editions.sort((a, b) => (rulesets[a] && rulesets[a].base ? 1 : 0) - (rulesets[b] && rulesets[b].base ? 1 : 0));
    return [...byId.values()];
  }

  Promise.all([api("GET", "/api/rulesets"), api("GET", "/api/scenarios")])
    .then(([r, d]) => {
      for (const x of r.rulesets) rulesets[x.id] = x;
      scenarios = group(d.scenarios);
      render();
      renderBuilders();
      return Promise.all(Object.values(rulesets).filter((x) => x.battle_from_armies && x.army_builder).map(loadArmyChoices))
        .then(renderFromArmies);
    })
    .catch((e) => { document.getElementById("scenarios").textContent = e.message; toast(e.message); });
})();
