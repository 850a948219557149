/* Oriflamme — the army builder's page (generic). It keeps the owner token, lists the owner's
 * saved armies and the ruleset's examples, saves / exports / imports / prints, and shows the
 * server's verdict (points, constraints). It computes no rule: every change is validated by the
 * server (POST /api/rulesets/<id>/army/validate). The ruleset's own editor is its browser file
 * /static/rulesets/<id>/army.js, which sets window.ORIFLAMME_ARMY = {strings, blank, render}
 * (docs/guerres-fleuries/army-builder.md § The browser module). */
(function () {
  "use strict";
  const { t } = window.I18N;
  const RULESET = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  const OWNER_KEY = "oriflamme.owner";
  const S = { catalog: null, doc: null, id: null, validation: null, saved: [], examples: {}, info: null, seq: 0, dirty: false };
  const $ = (id) => document.getElementById(id);

  const { el } = window.DOM;  // static/dom.js

  function toast(msg, kind) {
    const tt = el("div", { class: "toast " + (kind || "error"), testid: "toast", role: "alert" }, msg);
    $("toasts").appendChild(tt);
    setTimeout(() => tt.remove(), 9000);
  }

  function owner() { try { return localStorage.getItem(OWNER_KEY); } catch (e) { return null; } }

  async function ensureOwner(force) {
    if (owner() && !force) return owner();
    const r = await fetch("/api/owners", { method: "POST" });
    const d = await r.json();
    try { localStorage.setItem(OWNER_KEY, d.owner); } catch (e) { /* private mode: this page only */ }
    S.ownerFallback = d.owner;
    return d.owner;
  }

  async function api(method, url, body, raw) {
    const headers = {};
    if (url.startsWith("/api/armies")) headers["X-Owner"] = owner() || S.ownerFallback || await ensureOwner();
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let res = await fetch(url, { method, headers, body: body === undefined ? undefined : (raw ? body : JSON.stringify(body)) });
    if (res.status === 403 && url.startsWith("/api/armies")) {   // a forgotten token (a new database): a new owner
      headers["X-Owner"] = await ensureOwner(true);
      res = await fetch(url, { method, headers, body: body === undefined ? undefined : (raw ? body : JSON.stringify(body)) });
    }
    if (res.status === 204) return null;
    const type = res.headers.get("content-type") || "";
    const data = type.includes("json") ? await res.json() : await res.text();
    if (!res.ok) throw new Error((data && data.message) || t("error.http", { status: res.status }));
    return data;
  }

  const M = () => window.ORIFLAMME_ARMY;
  const lang = () => I18N.lang();

  /* --- the server's verdict ---------------------------------------------------------------------- */
  /* a violation: a sentence, or {message, message_fr, where?, citations | ref} (the ruleset's) */
  function violationText(v) {
    if (typeof v === "string") return [v, ""];
    let msg = (lang() === "fr" && v.message_fr) || v.message || JSON.stringify(v);
    if (v.where && !msg.includes(v.where)) msg = v.where + " : " + msg;
    msg = msg.charAt(0).toUpperCase() + msg.slice(1);
    return [msg, (v.citations || []).join("; ") || v.ref || ""];
  }

  function showVerdict() {
    const v = S.validation;
    const box = $("violations");
    box.innerHTML = "";
    const budget = (v && v.budget) || (S.catalog && S.catalog.budget) || 5000;
    const total = v && typeof v.total_points === "number" ? v.total_points : 0;
    $("points").textContent = t("army.points", { total, budget });
    $("points").classList.toggle("over", total > budget);
    $("validity").textContent = !v ? "" : v.valid ? t("army.valid") : t("army.invalid");
    $("validity").className = "validity " + (!v ? "" : v.valid ? "ok" : "bad");
    if (v && v.error) {
      box.appendChild(el("li", { testid: "violation" }, v.error));
    } else if (v && (v.violation_details || v.violations || []).length) {
      for (const x of v.violation_details || v.violations) {
        const [msg, ref] = violationText(x);
        box.appendChild(el("li", { testid: "violation" }, msg, " ", ref ? el("span", { class: "cite" }, "(" + ref + ")") : null));
      }
    } else if (v) {
      box.appendChild(el("li", { class: "ok" }, "✓ " + t("army.all_ok")));
    }
    const pct = (x) => (typeof x === "number" ? Math.round(x * 1000) / 10 + " %" : "—");
    $("shares").textContent = v && !v.error ? t("army.shares", { b: pct(v.class_b_share), a: pct(v.allied_share), m: pct(v.mercenary_share),
      figures: v.troop_figures ?? "—", heroes: v.max_heroes ?? "—" }) : "";
  }

  async function validate() {
    const seq = ++S.seq;
    try {
      const v = await api("POST", `/api/rulesets/${RULESET}/army/validate`, S.doc);
      if (seq === S.seq) S.validation = v;
    } catch (e) {
      if (seq === S.seq) S.validation = { valid: false, error: e.message, violations: [] };
    }
    if (seq === S.seq) { showVerdict(); renderEditor(); }
  }

  /* --- the ruleset's editor ---------------------------------------------------------------------- */
  const ctx = {
    get doc() { return S.doc; },
    get catalog() { return S.catalog; },
    get validation() { return S.validation; },
    lang, t, el, toast,
    changed() { S.dirty = true; renderEditor(); validate(); },
    roll: (request) => roll(request),
  };

  function renderEditor() {
    if (!M() || !S.doc || !S.catalog) return;
    const root = $("editor");
    root.innerHTML = "";
    M().render(root, ctx);
  }

  function renderSide() {
    const list = $("saved");
    list.innerHTML = "";
    if (!S.saved.length) list.appendChild(el("li", { class: "muted small" }, t("army.none_saved")));
    for (const a of S.saved) {
      list.appendChild(el("li", {}, el("button", { type: "button", class: "btn small" + (a.id === S.id ? " current" : ""), testid: "saved-" + a.id,
        onclick: () => mayLeave() && open(a.id) }, el("span", {}, a.name || t("army.unnamed")),
        el("span", { class: "muted" }, (a.total_points ?? "?") + (a.valid ? " ✓" : " ✗")))));
    }
    const ex = $("examples");
    ex.innerHTML = "";
    for (const [id, doc] of Object.entries(S.examples)) {
      ex.appendChild(el("li", {}, el("button", { type: "button", class: "btn small", testid: "example-" + id,
        onclick: () => mayLeave() && load(JSON.parse(JSON.stringify(doc)), null) }, doc.name || id)));
    }
  }

  function render() {
    I18N.apply();
    if (S.info) $("ruleset-title").textContent = (lang() === "fr" && S.info.title_fr) || S.info.title;
    $("army-name").value = (S.doc && S.doc.name) || "";
    renderSide();
    showVerdict();
    renderEditor();
  }

  /* leaving an army with unsaved changes asks first */
  const mayLeave = () => !S.dirty || confirm(t("army.discard"));

  function load(doc, id, version) {
    S.doc = doc;
    S.id = id;
    S.version = id ? version : null;  // a saved army's version: every change names it
    S.dirty = false;
    S.validation = null;
    render();
    validate();
  }

  async function refreshSaved() {
    S.saved = (await api("GET", `/api/armies?ruleset=${encodeURIComponent(RULESET)}`)).armies;
    renderSide();
  }

  async function open(id) {
    try {
      const a = await api("GET", `/api/armies/${id}`);
      load(a.army, a.id, a.version);
    } catch (e) { toast(e.message); }
  }

  async function save() {
    S.doc.name = $("army-name").value;
    const a = S.id ? await api("PUT", `/api/armies/${S.id}?version=${S.version}`, S.doc) : await api("POST", "/api/armies", S.doc);
    S.id = a.id;
    S.version = a.version;
    S.doc = a.army;
    S.validation = a.validation;
    S.dirty = false;
    await refreshSaved();
    showVerdict();
    renderEditor();
    return a;
  }

  async function roll(request) {
    try {
      await save();
      const r = await api("POST", `/api/armies/${S.id}/roll?version=${S.version}`, request);
      S.doc = r.army;
      S.version = r.version;
      S.validation = r.validation;
      const lines = (lang() === "fr" && r.roll.explanation_fr) || r.roll.explanation || [];
      toast(lines.join(" "), "info");
      await refreshSaved();
      showVerdict();
      renderEditor();
    } catch (e) { toast(e.message); }
  }

  function download(name, text, type) {
    const a = el("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  $("army-name").addEventListener("change", () => { S.doc.name = $("army-name").value; S.dirty = true; });
  $("save").addEventListener("click", async () => {
    try { await save(); toast(t("army.saved_ok"), "info"); } catch (e) { toast(e.message); }
  });
  $("new-army").addEventListener("click", () => mayLeave() && load(M().blank(S.catalog, RULESET), null));
  $("delete").addEventListener("click", async () => {
    if (!S.id) { load(M().blank(S.catalog, RULESET), null); return; }
    if (!confirm(t("army.delete_confirm"))) return;
    try { await api("DELETE", `/api/armies/${S.id}?version=${S.version}`); await refreshSaved(); load(M().blank(S.catalog, RULESET), null); }
    catch (e) { toast(e.message); }
  });
  $("export").addEventListener("click", async () => {
    try {
      const a = await save();
      const doc = await api("GET", `/api/armies/${a.id}/export`);
      download(`army-${(doc.name || a.id).replace(/[^A-Za-z0-9_-]+/g, "-")}.json`, JSON.stringify(doc, null, 2), "application/json");
    } catch (e) { toast(e.message); }
  });
  $("sheet").addEventListener("click", async () => {
    const w = window.open("", "_blank");
    try {
      S.doc.name = $("army-name").value;
      const html = await api("POST", `/api/rulesets/${RULESET}/army/sheet?lang=${lang()}`, S.doc);
      if (w) { w.document.open(); w.document.write(html); w.document.close(); }
    } catch (e) { if (w) w.close(); toast(e.message); }
  });
  $("import-file").addEventListener("change", async (ev) => {
    const f = ev.target.files[0];
    ev.target.value = "";
    if (!f) return;
    try {
      const a = await api("POST", "/api/armies", await f.text(), true);   // the server parses: errors name line and column
      await refreshSaved();
      load(a.army, a.id, a.version);
      toast(t("army.imported", { name: a.name || f.name }), "info");
    } catch (e) { toast(t("army.import_failed", { file: f.name }) + " " + e.message); }
  });

  function loadModule() {
    return new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = `/static/rulesets/${encodeURIComponent(RULESET)}/army.js`;
      s.onload = resolve;
      s.onerror = () => reject(new Error(t("army.no_module", { ruleset: RULESET })));
      document.head.appendChild(s);
    });
  }

  I18N.mountSwitch($("lang-switch"), () => render());
  I18N.apply();

  (async function start() {
    try {
      const infos = (await api("GET", "/api/rulesets")).rulesets;
      S.info = infos.find((r) => r.id === RULESET);
      if (!S.info || !S.info.army_builder) throw new Error(t("army.no_builder", { ruleset: RULESET }));
      await loadModule();
      const strings = M().strings || {};
      for (const l of Object.keys(strings)) Object.assign(I18N.STR[l], strings[l]);
      S.catalog = await api("GET", `/api/rulesets/${RULESET}/army/catalog`);
      S.examples = (await api("GET", `/api/rulesets/${RULESET}/army/examples`)).examples;
      await ensureOwner(false);
      await refreshSaved();
      load(M().blank(S.catalog, RULESET), null);
    } catch (e) {
      $("editor").textContent = e.message;
      toast(e.message);
    }
  })();
})();
