/* Les Guerres Fleuries — the army editor of the generic builder page (/army/guerres-fleuries).
 *
 * It offers what the server's catalogue lists (GET /api/rulesets/guerres-fleuries/army/catalog:
 * races and classes with their prices, weapons, armour, characters by type and level with their
 * skills, spells, magic weapons and items, creatures, monsters, pochteca) and edits the army
 * document (docs/formats.md § Army documents). It computes no rule: every change is sent to the
 * server, whose verdict (points of each entry, total, cited violations) the page shows.
 * Names are stored as printed in the seed (the server accepts them with case and accents
 * optional). */
(function () {
  "use strict";

  const strings = {
    en: {
      "gf.units": "Units", "gf.characters": "Characters", "gf.creatures": "Creatures and monsters",
      "gf.pochteca": "Pochteca", "gf.add_unit": "Add a unit", "gf.add_group": "Add a group (mixed unit)",
      "gf.add_character": "Add a character", "gf.add_creature": "Add a creature", "gf.add_monster": "Add a monster", "gf.remove": "Remove",
      "gf.name": "Name", "gf.figures": "Figures", "gf.race": "Race", "gf.class": "Class", "gf.weapons": "Weapons",
      "gf.armour": "Armour", "gf.ally": "ally", "gf.mercenary": "mercenary", "gf.fanatic": "fanatic",
      "gf.type": "Type", "gf.level": "Level", "gf.skills": "Skills ({n} of {max})", "gf.spells": "Miracles and divine spells: {n}", "gf.spells_chosen": "Miracles and divine spells ({n} of {max})",
      "gf.magic_weapon": "Magic weapon", "gf.magic_item": "Magic item", "gf.none": "none",
      "gf.not_at_level": "(none at this level)", "gf.curse": "Curse", "gf.roll_curse": "Roll the curse (d100)",
      "gf.not_rolled": "not rolled yet", "gf.not_cursed": "not cursed (d100 = {roll})",
      "gf.cursed": "cursed (d100 = {roll}): {curse}", "gf.pts": "{n} pts", "gf.per_fig": "{n} pts per figure",
      "gf.creature": "Creature", "gf.monster": "Monster", "gf.range": "{low}–{high}", "gf.count": "Pochteca figures",
      "gf.empty": "Nothing yet: add a unit, a character or a creature.", "gf.experience": "experience {n}",
      "gf.new_unit": "Unit {n}", "gf.new_character": "Character {n}",
    },
    fr: {
      "gf.units": "Unités", "gf.characters": "Personnages", "gf.creatures": "Créatures et monstres",
      "gf.pochteca": "Pochteca", "gf.add_unit": "Ajouter une unité", "gf.add_group": "Ajouter un groupe (unité mixte)",
      "gf.add_character": "Ajouter un personnage", "gf.add_creature": "Ajouter une créature", "gf.add_monster": "Ajouter un monstre", "gf.remove": "Retirer",
      "gf.name": "Nom", "gf.figures": "Figurines", "gf.race": "Race", "gf.class": "Classe", "gf.weapons": "Armes",
      "gf.armour": "Armure", "gf.ally": "allié", "gf.mercenary": "mercenaire", "gf.fanatic": "fanatique",
      "gf.type": "Type", "gf.level": "Niveau", "gf.skills": "Compétences ({n} sur {max})", "gf.spells": "Miracles et sorts divins : {n}", "gf.spells_chosen": "Miracles et sorts divins ({n} sur {max})",
      "gf.magic_weapon": "Arme magique", "gf.magic_item": "Objet magique", "gf.none": "aucun",
      "gf.not_at_level": "(aucun à ce niveau)", "gf.curse": "Malédiction", "gf.roll_curse": "Jeter la malédiction (1d100)",
      "gf.not_rolled": "pas encore jetée", "gf.not_cursed": "non maudite (1d100 = {roll})",
      "gf.cursed": "maudite (1d100 = {roll}) : {curse}", "gf.pts": "{n} pts", "gf.per_fig": "{n} pts par figurine",
      "gf.creature": "Créature", "gf.monster": "Monstre", "gf.range": "{low}–{high}", "gf.count": "Figurines de pochteca",
      "gf.empty": "Rien encore : ajoutez une unité, un personnage ou une créature.", "gf.experience": "expérience {n}",
      "gf.new_unit": "Unité {n}", "gf.new_character": "Personnage {n}",
    },
  };

  const fold = (s) => String(s || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  const same = (a, b) => fold(a) === fold(b);

  function blank(catalog, ruleset) {
    return { format: "oriflamme-army", version: 1, ruleset, name: "", units: [], characters: [], creatures: [], monsters: [], pochteca: 0 };
  }

  function render(root, ctx) {
    const { el, t, catalog: C, doc } = ctx;
    for (const key of ["units", "characters", "creatures", "monsters"]) if (!Array.isArray(doc[key])) doc[key] = [];
    const fr = ctx.lang() === "fr";
    const label = (row) => (fr ? row.name : row.name_en || row.name);
    const V = ctx.validation || {};
    const priced = (key, i) => ((V[key] || [])[i] || {});   // units, characters: the verdict's entries
    const change = () => ctx.changed();
    const pts = (n) => (typeof n === "number" ? t("gf.pts", { n }) : "");

    const select = (rows, value, onchange, testid, extra) => el("select", { testid, onchange: (ev) => onchange(ev.target.value) },
      (extra || []).map(([v, l]) => el("option", { value: v, selected: same(v, value) || undefined }, l)),
      rows.map((r) => el("option", { value: r.name, selected: same(r.name, value) || (r.id && same(r.id, value)) || undefined }, label(r))));
    const number = (value, onchange, testid, min) => el("input", { type: "number", min: String(min ?? 0), step: "1", value: String(value ?? ""), testid,
      onchange: (ev) => { const n = parseInt(ev.target.value, 10); onchange(Number.isFinite(n) ? n : 0); } });
    const check = (on, onchange, text, testid) => el("label", {}, el("input", { type: "checkbox", checked: !!on, testid,
      onchange: (ev) => onchange(ev.target.checked) }), text);
    const multi = (rows, chosen, onchange, prefix) => el("span", { class: "checks" }, rows.map((r) => check(
      (chosen || []).some((c) => same(c, r.name) || (r.id && same(c, r.id))),
      (on) => { const rest = (chosen || []).filter((c) => !(same(c, r.name) || (r.id && same(c, r.id)))); onchange(on ? rest.concat([r.name]) : rest); },
      `${label(r)} (${r.cost})`, prefix + (r.id || fold(r.name)))));
    const remove = (list, i, testid) => el("button", { type: "button", class: "btn small", testid,
      onclick: () => { list.splice(i, 1); change(); } }, t("gf.remove"));
    const raceOf = (name) => C.races.find((r) => same(r.name, name) || same(r.id, name)) || C.races[0];
    const weaponsFor = (race, character) => C.weapons.filter((w) => (character || !w.characters_only)
      && (!w.races || !w.races.length || w.races.includes(race.id)));

    /* units ----------------------------------------------------------------------------------- */
    const units = el("fieldset", { testid: "gf-units" }, el("legend", {}, t("gf.units")));
    doc.units.forEach((u, i) => {
      const p = priced("units", i);
      const groups = u.groups || (u.groups = []);
      const row = el("div", { class: "entry", testid: "unit-" + i },
        el("label", {}, t("gf.name"), el("input", { type: "text", value: u.name || "", testid: `unit-${i}-name`,
          onchange: (ev) => { u.name = ev.target.value; change(); } })),
        check(u.ally, (on) => { if (on) u.ally = true; else delete u.ally; change(); }, t("gf.ally"), `unit-${i}-ally`),
        check(u.mercenary, (on) => { if (on) u.mercenary = true; else delete u.mercenary; change(); }, t("gf.mercenary"), `unit-${i}-mercenary`),
        el("span", { class: "muted small" }, p.figures !== undefined ? `${p.figures} ${t("gf.figures").toLowerCase()}` : ""),
        el("span", { class: "muted small" }, p.cost_per_figure ? t("gf.per_fig", { n: p.cost_per_figure }) : ""),
        el("span", { class: "cost", testid: `unit-${i}-cost` }, pts(p.points)),
        remove(doc.units, i, `unit-${i}-remove`));
      groups.forEach((g, j) => {
        const race = raceOf(g.race);
        row.appendChild(el("div", { class: "group", testid: `unit-${i}-group-${j}` },
          el("label", {}, t("gf.figures"), number(g.figures, (n) => { g.figures = n; change(); }, `unit-${i}-${j}-figures`, 1)),
          el("label", {}, t("gf.race"), select(C.races, g.race, (v) => { g.race = v; change(); }, `unit-${i}-${j}-race`)),
          el("label", {}, t("gf.class"), el("select", { testid: `unit-${i}-${j}-class`, onchange: (ev) => { g.class = ev.target.value; change(); } },
            C.classes.map((c) => el("option", { value: c.id, selected: same(c.id, g.class) || undefined, title: fr ? c.printed : c.printed_en },
              `${c.id} (${race.prices[c.id]})`)))),
          el("span", {}, t("gf.weapons") + " ", multi(weaponsFor(race, false), g.weapons, (v) => { g.weapons = v; change(); }, `unit-${i}-${j}-w-`)),
          el("span", {}, t("gf.armour") + " ", multi(C.armours, g.armour, (v) => { g.armour = v; change(); }, `unit-${i}-${j}-a-`)),
          check(g.fanatic, (on) => { if (on) g.fanatic = true; else delete g.fanatic; change(); }, t("gf.fanatic"), `unit-${i}-${j}-fanatic`),
          groups.length > 1 ? remove(groups, j, `unit-${i}-${j}-remove`) : null));
      });
      row.appendChild(el("button", { type: "button", class: "btn small", testid: `unit-${i}-add-group`,
        onclick: () => { groups.push({ figures: 1, race: race0(groups), class: "A", weapons: [], armour: [] }); change(); } }, t("gf.add_group")));
      units.appendChild(row);
    });
    function race0(groups) { return (groups[0] && groups[0].race) || C.races[0].name; }
    units.appendChild(el("button", { type: "button", class: "btn", testid: "add-unit", onclick: () => {
      doc.units.push({ name: t("gf.new_unit", { n: doc.units.length + 1 }),
        groups: [{ figures: 20, race: C.races[0].name, class: "B", weapons: [], armour: [] }] });
      change();
    } }, t("gf.add_unit")));

    /* characters ------------------------------------------------------------------------------ */
    const chars = el("fieldset", { testid: "gf-characters" }, el("legend", {}, t("gf.characters")));
    doc.characters.forEach((c, i) => {
      const p = priced("characters", i);
      const type = C.characters.find((x) => same(x.name, c.type) || same(x.id, c.type)) || C.characters[0];
      const level = type.levels.find((l) => same(l.name, c.level) || same(l.level, c.level)) || type.levels[0];
      const race = raceOf(c.race);
      const factor = (f) => el("label", { title: t("gf.range", { low: type[f][0], high: type[f][1] }) }, f,
        number(c[f], (n) => { c[f] = n; change(); }, `char-${i}-${f}`), el("span", { class: "muted small" }, `(${type[f][0]}–${type[f][1]})`));
      const offered = (names, all) => (names || []).map((n) => (typeof n === "string" ? all.find((x) => same(x.name, n)) || { name: n } : n));
      const magicSelect = (rows, key, testid) => rows.length
        ? select(rows, c[key], (v) => { if (v) c[key] = v; else delete c[key]; delete c.curse_roll; delete c.curse_d100; change(); }, testid, [["", t("gf.none")]])
        : el("span", { class: "muted small", testid }, t("gf.not_at_level"));
      let curse = null;
      if (c.magic_weapon) {
        const k = p.curse;
        const text = c.curse_roll === undefined || c.curse_roll === null ? t("gf.not_rolled")
          : k && k.cursed ? t("gf.cursed", { roll: c.curse_roll, curse: (fr ? k.curse : k.curse_en || k.curse) || "?" })
          : t("gf.not_cursed", { roll: c.curse_roll });
        curse = el("span", { class: "curse", testid: `char-${i}-curse` }, t("gf.curse") + " : " + text, " ",
          c.curse_roll === undefined || c.curse_roll === null
            ? el("button", { type: "button", class: "btn small primary", testid: `char-${i}-roll-curse`,
                onclick: () => ctx.roll({ roll: "curse", character: i }) }, "🎲 " + t("gf.roll_curse")) : null);
      }
      chars.appendChild(el("div", { class: "entry", testid: "char-" + i },
        el("label", {}, t("gf.name"), el("input", { type: "text", value: c.name || "", testid: `char-${i}-name`,
          onchange: (ev) => { c.name = ev.target.value; change(); } })),
        el("label", {}, t("gf.type"), select(C.characters, type.name, (v) => { c.type = v; delete c.skills; change(); }, `char-${i}-type`)),
        el("label", {}, t("gf.level"), select(type.levels, level.name, (v) => {
          c.level = v; delete c.magic_weapon; delete c.magic_item; delete c.curse_roll; delete c.curse_d100; change(); }, `char-${i}-level`)),
        el("label", {}, t("gf.race"), select(C.races, race.name, (v) => { c.race = v; change(); }, `char-${i}-race`)),
        factor("FC"), factor("FM"), factor("CM"),
        check(c.ally, (on) => { if (on) c.ally = true; else delete c.ally; change(); }, t("gf.ally"), `char-${i}-ally`),
        el("span", { class: "cost", testid: `char-${i}-cost` }, pts(p.points)),
        remove(doc.characters, i, `char-${i}-remove`),
        el("div", { class: "group" }, el("span", {}, t("gf.skills", { n: (c.skills || []).length, max: level.experience }) + " "),
          el("span", { class: "checks" }, type.skills.map((s, k) => el("label", { title: fr ? s.effect : s.effect_en },
            el("input", { type: "checkbox", checked: (c.skills || []).some((x) => same(x, s.name)), testid: `char-${i}-skill-${k}`,
              onchange: (ev) => { const rest = (c.skills || []).filter((x) => !same(x, s.name)); c.skills = ev.target.checked ? rest.concat([s.name]) : rest; change(); } }),
            label(s))))),
        !type.spells_offered ? null
          : Array.isArray(C.spells) && C.spells.length
            // the spells by name (when the magic data names them): as many as the level fixes
            ? el("div", { class: "group" }, el("span", {}, t("gf.spells_chosen", { n: (c.spells || []).length, max: level.spells }) + " "),
                el("span", { class: "checks" }, C.spells.map((sp, k) => check((c.spells || []).some((x) => same(x, sp.name)),
                  (on) => { const rest = (Array.isArray(c.spells) ? c.spells : []).filter((x) => !same(x, sp.name)); c.spells = on ? rest.concat([sp.name]) : rest; change(); },
                  label(sp), `char-${i}-spell-${k}`))))
            : el("div", { class: "group muted small" }, t("gf.spells", { n: level.spells })),
        el("div", { class: "group" },
          el("span", {}, t("gf.weapons") + " ", multi(weaponsFor(race, true), c.weapons, (v) => { c.weapons = v; change(); }, `char-${i}-w-`)),
          el("span", {}, t("gf.armour") + " ", multi(C.armours, c.armour, (v) => { c.armour = v; change(); }, `char-${i}-a-`))),
        el("div", { class: "group" },
          el("label", {}, t("gf.magic_weapon"), magicSelect(offered(level.magic_weapons_offered, C.magic_weapons), "magic_weapon", `char-${i}-magic-weapon`)),
          el("label", {}, t("gf.magic_item"), magicSelect(offered(level.magic_items_offered, C.magic_items), "magic_item", `char-${i}-magic-item`)),
          curse)));
    });
    chars.appendChild(el("button", { type: "button", class: "btn", testid: "add-character", onclick: () => {
      const ty = C.characters[0];
      doc.characters.push({ name: t("gf.new_character", { n: doc.characters.length + 1 }), type: ty.name, level: ty.levels[0].name,
        FC: ty.FC[0], FM: ty.FM[0], CM: ty.CM[0], weapons: [], armour: [] });
      change();
    } }, t("gf.add_character")));

    /* creatures and monsters (two lists of the document, priced per figure) ------------------------ */
    const crea = el("fieldset", { testid: "gf-creatures" }, el("legend", {}, t("gf.creatures")));
    for (const [key, rows, word] of [["creatures", C.creatures || [], "gf.creature"], ["monsters", C.monsters || [], "gf.monster"]]) {
      const list = doc[key] || (doc[key] = []);
      const single = key.slice(0, -1);
      list.forEach((b, i) => {
        const cost = ((V.lines || {})[key] || [])[i];
        crea.appendChild(el("div", { class: "entry", testid: `${single}-${i}` },
          el("span", {}, t(word)),
          el("select", { testid: `${single}-${i}-name`, onchange: (ev) => { b.name = ev.target.value; change(); } },
            rows.map((x) => el("option", { value: x.name, selected: same(x.name, b.name || b.creature || b.monster) || undefined },
              `${label(x)} (${x.cost})`))),
          el("label", {}, t("gf.figures"), number(b.figures ?? 1, (n) => { b.figures = n; change(); }, `${single}-${i}-figures`, 1)),
          check(b.ally, (on) => { if (on) b.ally = true; else delete b.ally; change(); }, t("gf.ally"), `${single}-${i}-ally`),
          check(b.mercenary, (on) => { if (on) b.mercenary = true; else delete b.mercenary; change(); }, t("gf.mercenary"), `${single}-${i}-mercenary`),
          el("span", { class: "cost", testid: `${single}-${i}-cost` }, pts(cost)),
          remove(list, i, `${single}-${i}-remove`)));
      });
    }
    crea.appendChild(el("div", { class: "entry" },
      el("button", { type: "button", class: "btn", testid: "add-creature", onclick: () => {
        doc.creatures.push({ name: C.creatures[0].name, figures: 1 }); change(); } }, t("gf.add_creature")),
      el("button", { type: "button", class: "btn", testid: "add-monster", onclick: () => {
        (doc.monsters || (doc.monsters = [])).push({ name: C.monsters[0].name, figures: 1 }); change(); } }, t("gf.add_monster"))));
    const poch = el("fieldset", { testid: "gf-pochteca" }, el("legend", {}, t("gf.pochteca")),
      el("div", { class: "entry" }, el("label", { title: fr ? C.pochteca.printed : C.pochteca.printed_en }, t("gf.count"),
        number(doc.pochteca || 0, (n) => { doc.pochteca = n; change(); }, "pochteca", 0)),
        el("span", { class: "muted small" }, `× ${C.pochteca.cost}`),
        el("span", { class: "cost", testid: "pochteca-cost" }, pts((V.pochteca || {}).points))));

    root.append(units, chars, crea, poch);
  }

  window.ORIFLAMME_ARMY = { strings, blank, render };
})();
