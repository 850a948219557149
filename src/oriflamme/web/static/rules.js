/* Oriflamme — the rules that differ between an edition and its base (GET /api/rulesets/{id}/diff),
 * each side cited, cell by cell. Reached from the home page and the game page
 * (/rules/diff?edition=cry-havoc&base=magna-carta). Knows only the core's JSON. */
(function () {
  "use strict";
  const { t } = window.I18N;
  let rulesets = [];
  let current = null;

  const { el } = window.DOM;

  const fr = () => I18N.lang() === "fr";
  const title = (r) => (fr() ? r.title_fr || r.title : r.title);
  const show = (v) => (v === null || v === undefined ? "—" : Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v) : String(v));

  function cite(row) {
    return row && row.ref ? el("span", { class: "cite muted small" }, " (" + row.ref + ")") : null;
  }

  function fill(select, value) {
    select.innerHTML = "";
    for (const r of rulesets) select.appendChild(el("option", { value: r.id, selected: r.id === value }, `${title(r)} (${r.id})`));
  }

  function render() {
    I18N.apply();
    const body = document.querySelector("#diff tbody");
    body.innerHTML = "";
    if (!current) return;
    document.getElementById("th-base").textContent = current.base;
    document.getElementById("th-edition").textContent = current.edition;
    document.getElementById("summary").textContent = t("diff.summary", { n: current.differences.length, edition: current.edition, base: current.base });
    for (const d of current.differences) {
      const testid = "diff-" + d.rule;
      if (!d.base || !d.edition) {
        const row = d.base || d.edition;
        const cells = Object.entries(row).filter(([k]) => k !== "ref" && k !== "note").map(([k, v]) => `${k}=${show(v)}`).join("; ");
        const only = el("td", { class: "only" }, el("em", {}, t("diff.only")), " ", cells, cite(row));
        body.appendChild(el("tr", { testid, class: "only-" + (d.base ? "base" : "edition") },
          el("th", { scope: "row" }, d.rule), el("td", {}, "—"),
          d.base ? only : el("td", { class: "absent" }, t("diff.absent")),
          d.edition ? only : el("td", { class: "absent" }, t("diff.absent"))));
        continue;
      }
      d.cells.forEach((c, i) => {
        body.appendChild(el("tr", { testid: i === 0 ? testid : null },
          el("th", { scope: "row" }, i === 0 ? d.rule : ""),
          el("td", {}, c.cell),
          el("td", {}, show(c.base), i === 0 ? cite(d.base) : null),
          el("td", {}, show(c.edition), i === 0 ? cite(d.edition) : null)));
      });
    }
  }

  async function load() {
    const ed = document.getElementById("edition").value;
    const base = document.getElementById("base").value;
    history.replaceState(null, "", `/rules/diff?edition=${encodeURIComponent(ed)}&base=${encodeURIComponent(base)}`);
    const res = await fetch(`/api/rulesets/${encodeURIComponent(ed)}/diff?against=${encodeURIComponent(base)}`);
    const data = await res.json();
    if (!res.ok) {
      current = null;
      render();
      document.getElementById("summary").textContent = data.message || String(res.status);
      return;
    }
    current = data;
    render();
  }

  async function start() {
    I18N.apply();
    I18N.mountSwitch(document.getElementById("lang-switch"), render);
    const q = new URLSearchParams(location.search);
    rulesets = (await (await fetch("/api/rulesets")).json()).rulesets;
    let edition = q.get("edition") || (rulesets.find((r) => r.base) || rulesets[0]).id;
    let base = q.get("base");
    const info = rulesets.find((r) => r.id === edition);
    if (info && !info.base && !base) {  // a base ruleset (from a Magna Carta game): against its first edition
      base = edition;
      edition = (rulesets.find((r) => r.base === base) || info).id;
    }
    base = base || (info && info.base) || "magna-carta";
    fill(document.getElementById("edition"), edition);
    fill(document.getElementById("base"), base);
    for (const id of ["edition", "base"]) document.getElementById(id).addEventListener("change", load);
    await load();
  }
  start();
})();
