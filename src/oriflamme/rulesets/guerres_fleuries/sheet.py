"""The printable army sheet: a complete HTML page (print CSS: A4, no button on paper), in English
or French, from the army document and gf-army's verdict (``Ruleset.army_sheet``)."""

from __future__ import annotations

from html import escape

WORDS = {
    "en": {"title": "Army sheet", "points": "Points", "of": "of", "valid": "Valid army",
           "invalid": "Not a valid army", "units": "Units", "characters": "Characters",
           "creatures": "Creatures and monsters", "creature": "creature", "monster": "monster", "pochteca": "Pochteca", "figures": "Figures",
           "race": "Race", "class": "Class", "weapons": "Weapons", "armour": "Armour", "cost": "Points",
           "type": "Type", "level": "Level", "skills": "Skills", "spells": "Spells",
           "magic": "Magic weapon / item", "curse": "Curse", "not_cursed": "not cursed",
           "not_rolled": "not rolled", "violations": "Violations", "notes": "Notes", "ally": "ally",
           "mercenary": "mercenary", "fanatic": "fanatic", "print": "Print", "name": "Name",
           "shares": "Class B {b} · allies {a} · mercenaries {m} of the points · {f} troop figures · "
                     "heroes allowed {h}"},
    "fr": {"title": "Feuille d'armée", "points": "Points", "of": "sur", "valid": "Armée valide",
           "invalid": "Armée non valide", "units": "Unités", "characters": "Personnages",
           "creatures": "Créatures et monstres", "creature": "créature", "monster": "monstre", "pochteca": "Pochteca", "figures": "Figurines",
           "race": "Race", "class": "Classe", "weapons": "Armes", "armour": "Armure", "cost": "Points",
           "type": "Type", "level": "Niveau", "skills": "Compétences", "spells": "Sorts",
           "magic": "Arme / objet magique", "curse": "Malédiction", "not_cursed": "non maudite",
           "not_rolled": "pas encore jetée", "violations": "Infractions", "notes": "Notes", "ally": "allié",
           "mercenary": "mercenaire", "fanatic": "fanatique", "print": "Imprimer", "name": "Nom",
           "shares": "Classe B {b} · alliés {a} · mercenaires {m} des points · {f} figurines de troupe · "
                     "héros permis {h}"},
}

CSS = """
body { font: 11pt/1.35 Georgia, 'Times New Roman', serif; margin: 1.5cm; color: #111; }
h1 { font-size: 18pt; margin: 0 0 .2em; }
h2 { font-size: 13pt; margin: 1em 0 .3em; border-bottom: 1px solid #444; }
.total { font-size: 13pt; font-weight: bold; } .ok { color: #1b5e20; } .bad { color: #8c1c13; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #999; padding: 2px 5px; text-align: left; vertical-align: top; }
th { background: #eee; } td.num { text-align: right; } .cite { color: #555; font-size: 9pt; }
.print { margin: 1em 0; }
@media print { body { margin: 0; } .print { display: none; } @page { size: A4; margin: 1.2cm; }
  tr, li { page-break-inside: avoid; } h2 { page-break-after: avoid; } }
"""


def _pct(x) -> str:
    return f"{round(float(x) * 100, 1):g} %" if isinstance(x, (int, float)) else "—"


def _text(v) -> str:
    if isinstance(v, list):
        return ", ".join(str(x) for x in v)
    return "" if v is None else str(v)


def _at(items, i: int) -> dict:
    return items[i] if isinstance(items, list) and i < len(items) and isinstance(items[i], dict) else {}


def _curse(c: dict, priced: dict, w: dict, lang: str) -> str:
    if not c.get("magic_weapon"):
        return ""
    curse = priced.get("curse")
    if c.get("curse_roll") is None or not curse:
        return w["not_rolled"]
    if not curse.get("cursed"):
        return f"{w['not_cursed']} (d100 {curse.get('roll')})"
    name = curse.get("curse_en" if lang == "en" else "curse") or curse.get("curse") or "?"
    return f"{name} (d100 {curse.get('roll')}, {c.get('curse_d100', '?')})"


def _table(head: list[str], rows: list[list[str]], numeric: set[int]) -> str:
    out = ["<table><tr>", *(f"<th>{escape(h)}</th>" for h in head), "</tr>"]
    for r in rows:
        out.append("<tr>" + "".join(f"<td{' class=num' if i in numeric else ''}>{escape(str(c))}</td>"
                                    for i, c in enumerate(r)) + "</tr>")
    out.append("</table>")
    return "".join(out)


def render(army: dict, result: dict, lang: str = "en") -> str:
    w = WORDS.get(lang, WORDS["en"])
    e = lambda s: escape(str(s))  # noqa: E731
    title = army.get("name") or w["title"]
    ok = bool(result.get("valid"))
    out = [f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'><title>{e(title)}</title>"
           f"<style>{CSS}</style></head><body>",
           f"<h1>{e(title)}</h1><p class='cite'>Les Guerres Fleuries · {e(w['title'])}</p>",
           f"<p class='total' data-total='{e(result.get('total_points'))}'>{e(w['points'])}: "
           f"{e(result.get('total_points'))} {e(w['of'])} {e(result.get('budget', 5000))} — "
           f"<span class='{'ok' if ok else 'bad'}'>{e(w['valid'] if ok else w['invalid'])}</span></p>",
           "<p>" + e(w["shares"].format(b=_pct(result.get("class_b_share")), a=_pct(result.get("allied_share")),
                                        m=_pct(result.get("mercenary_share")), f=result.get("troop_figures", "—"),
                                        h=result.get("max_heroes", "—"))) + "</p>",
           f"<button class='print' onclick='window.print()'>{e(w['print'])}</button>"]
    units = army.get("units") or []
    if units:
        rows = []
        for i, u in enumerate(units):
            priced = _at(result.get("units"), i)
            tags = [w[k] for k in ("ally", "mercenary") if u.get(k)]
            for j, g in enumerate(u.get("groups") or [u]):
                gtags = tags + [w[k] for k in ("mercenary", "fanatic") if g.get(k) and w[k] not in tags]
                name = (u.get("name") or "") + (f" ({', '.join(gtags)})" if gtags else "")
                rows.append([i + 1 if j == 0 else "", name if j == 0 else "", g.get("figures", ""), _text(g.get("race")),
                             _text(g.get("class")), _text(g.get("weapons")), _text(g.get("armour")),
                             priced.get("points", u.get("points", "")) if j == 0 else ""])
        out.append(f"<h2>{e(w['units'])}</h2>" + _table(
            ["#", w["name"], w["figures"], w["race"], w["class"], w["weapons"], w["armour"], w["cost"]], rows, {2, 7}))
    chars = army.get("characters") or []
    if chars:
        rows = []
        for i, c in enumerate(chars):
            priced = _at(result.get("characters"), i)
            skills = _text(c.get("skills")) + (f"; {w['spells']}: {_text(c.get('spells'))}" if c.get("spells") else "")
            magic = " / ".join(str(x) for x in (c.get("magic_weapon"), c.get("magic_item")) if x)
            rows.append([c.get("name", ""), _text(c.get("type")), _text(c.get("level")), c.get("FC", ""), c.get("FM", ""),
                         c.get("CM", ""), skills, f"{_text(c.get('weapons'))} / {_text(c.get('armour'))}", magic,
                         _curse(c, priced, w, lang), priced.get("points", c.get("points", ""))])
        out.append(f"<h2>{e(w['characters'])}</h2>" + _table(
            [w["name"], w["type"], w["level"], "FC", "FM", "CM", w["skills"], f"{w['weapons']} / {w['armour']}",
             w["magic"], w["curse"], w["cost"]], rows, {3, 4, 5, 10}))
    lines = result.get("lines") or {}
    rows = []
    for key, word in (("creatures", "creature"), ("monsters", "monster")):
        for i, b in enumerate(army.get(key) or []):
            cost = (lines.get(key) or [])[i] if i < len(lines.get(key) or []) else ""
            rows.append([w[word], b.get("name") or b.get("creature") or b.get("monster") or "", b.get("figures", 1), cost])
    if rows:
        out.append(f"<h2>{e(w['creatures'])}</h2>" + _table(["", w["name"], w["figures"], w["cost"]], rows, {2, 3}))
    if army.get("pochteca"):
        poch = result.get("pochteca") or {}
        out.append(f"<h2>{e(w['pochteca'])}</h2>" + _table([w["figures"], w["cost"]],
                                                             [[army["pochteca"], poch.get("points", "")]], {0, 1}))
    details = result.get("violation_details")
    if details or result.get("violations"):
        out.append(f"<h2>{e(w['violations'])}</h2><ul>")
        for v in details or result.get("violations"):
            if isinstance(v, dict):
                msg = v.get("message_fr" if lang == "fr" else "message") or v.get("message", "")
                where = v.get("where")
                out.append(f"<li>{e(msg)} <span class='cite'>({e('; '.join(v.get('citations') or []))})</span></li>"
                           if where is None or where in msg else
                           f"<li>{e(where)}: {e(msg)} <span class='cite'>({e('; '.join(v.get('citations') or []))})</span></li>")
            else:
                out.append(f"<li>{e(v)}</li>")
        out.append("</ul>")
    if army.get("notes"):
        out.append(f"<h2>{e(w['notes'])}</h2><p>{e(army['notes'])}</p>")
    out.append("</body></html>")
    return "".join(out)
