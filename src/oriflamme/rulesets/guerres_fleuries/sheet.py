"""The printable army sheet: a complete HTML page (print CSS: A4, no buttons), in English or
French, from the army document and its validation (``Ruleset.army_sheet``)."""

from __future__ import annotations

from html import escape

WORDS = {
    "en": {"title": "Army sheet", "points": "Points", "budget": "of", "valid": "Valid army",
           "invalid": "Not a valid army", "units": "Units", "characters": "Characters",
           "creatures": "Creatures", "monsters": "Monsters", "pochteca": "Pochteca", "figures": "Figures",
           "race": "Race", "class": "Class", "weapons": "Weapons", "armour": "Armour", "cost": "Cost",
           "type": "Type", "level": "Level", "skills": "Skills", "spells": "Spells",
           "magic": "Magic weapon / item", "curse": "Curse", "not_cursed": "not cursed",
           "not_rolled": "not rolled", "violations": "Violations", "notes": "Notes", "ally": "ally",
           "mercenary": "mercenary", "fanatic": "fanatic", "print": "Print", "name": "Name",
           "shares": "Class B {b} · allies {a} · mercenaries {m} (shares of the points)"},
    "fr": {"title": "Feuille d'armée", "points": "Points", "budget": "sur", "valid": "Armée valide",
           "invalid": "Armée non valide", "units": "Unités", "characters": "Personnages",
           "creatures": "Créatures", "monsters": "Monstres", "pochteca": "Pochteca", "figures": "Figurines",
           "race": "Race", "class": "Classe", "weapons": "Armes", "armour": "Armure", "cost": "Coût",
           "type": "Type", "level": "Niveau", "skills": "Compétences", "spells": "Sorts",
           "magic": "Arme / objet magique", "curse": "Malédiction", "not_cursed": "non maudite",
           "not_rolled": "pas encore jetée", "violations": "Infractions", "notes": "Notes", "ally": "allié",
           "mercenary": "mercenaire", "fanatic": "fanatique", "print": "Imprimer", "name": "Nom",
           "shares": "Classe B {b} · alliés {a} · mercenaires {m} (parts des points)"},
}

CSS = """
body { font: 11pt/1.35 Georgia, 'Times New Roman', serif; margin: 1.5cm; color: #111; }
h1 { font-size: 18pt; margin: 0 0 .2em; } h2 { font-size: 13pt; margin: 1em 0 .3em; border-bottom: 1px solid #444; }
.total { font-size: 13pt; font-weight: bold; } .ok { color: #1b5e20; } .bad { color: #8c1c13; }
table { border-collapse: collapse; width: 100%; } th, td { border: 1px solid #999; padding: 2px 5px; text-align: left; vertical-align: top; }
th { background: #eee; } td.num { text-align: right; } .cite { color: #555; font-size: 9pt; }
.print { margin: 1em 0; }
@media print { body { margin: 0; } .print { display: none; } @page { size: A4; margin: 1.2cm; }
  tr, li { page-break-inside: avoid; } h2 { page-break-after: avoid; } }
"""


def _pct(x) -> str:
    return f"{round(float(x) * 100)} %" if isinstance(x, (int, float)) else "—"


def _list(v) -> str:
    if isinstance(v, list):
        return ", ".join(str(x) for x in v)
    return "" if v is None else str(v)


def _group_cells(g: dict) -> str:
    return "".join(f"<td>{escape(_list(g.get(k)))}</td>" for k in ("race", "class", "weapons", "armour"))


def render(army: dict, result: dict, lang: str = "en") -> str:
    w = WORDS.get(lang, WORDS["en"])
    e = lambda s: escape(str(s))  # noqa: E731
    total = result.get("total_points")
    budget = result.get("budget", 5000)
    lines = result.get("lines", {})
    out = [f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'><title>{e(army.get('name') or w['title'])}"
           f"</title><style>{CSS}</style></head><body>",
           f"<h1>{e(army.get('name') or w['title'])}</h1>",
           f"<p class='cite'>Les Guerres Fleuries · {e(w['title'])}</p>",
           f"<p class='total'>{e(w['points'])}: {e(total)} {e(w['budget'])} {e(budget)} — "
           f"<span class='{'ok' if result.get('valid') else 'bad'}'>{e(w['valid'] if result.get('valid') else w['invalid'])}</span></p>",
           f"<p>{e(w['shares'].format(b=_pct(result.get('class_b_share')), a=_pct(result.get('allied_share')), m=_pct(result.get('mercenary_share'))))}</p>",
           "<button class='print' onclick='window.print()'>" + e(w["print"]) + "</button>"]
    units = army.get("units", [])
    if units:
        out.append(f"<h2>{e(w['units'])}</h2><table><tr><th>#</th><th>{e(w['name'])}</th><th>{e(w['figures'])}</th>"
                   f"<th>{e(w['race'])}</th><th>{e(w['class'])}</th><th>{e(w['weapons'])}</th><th>{e(w['armour'])}</th>"
                   f"<th>{e(w['cost'])}</th></tr>")
        for i, u in enumerate(units):
            cost = (lines.get("units") or [None] * len(units))[i] if i < len(lines.get("units") or []) else None
            tags = [w[k] for k in ("ally", "mercenary") if u.get(k)]
            groups = u.get("groups") or [u]
            for j, g in enumerate(groups):
                gtags = tags + [w[k] for k in ("mercenary", "fanatic") if g.get(k) and w[k] not in tags]
                name = (u.get("name", "") + (f" ({', '.join(gtags)})" if gtags else "")) if j == 0 else ""
                out.append(f"<tr><td>{i + 1 if j == 0 else ''}</td><td>{e(name)}</td><td class='num'>{e(g.get('figures', ''))}</td>"
                           f"{_group_cells(g)}<td class='num'>{e(cost if j == 0 and cost is not None else (u.get('points', '') if j == 0 else ''))}</td></tr>")
        out.append("</table>")
    chars = army.get("characters", [])
    if chars:
        out.append(f"<h2>{e(w['characters'])}</h2><table><tr><th>{e(w['name'])}</th><th>{e(w['type'])}</th>"
                   f"<th>{e(w['level'])}</th><th>FC</th><th>FM</th><th>CM</th><th>{e(w['skills'])}</th>"
                   f"<th>{e(w['weapons'])} / {e(w['armour'])}</th><th>{e(w['magic'])}</th><th>{e(w['curse'])}</th>"
                   f"<th>{e(w['cost'])}</th></tr>")
        costs = lines.get("characters") or []
        for i, c in enumerate(chars):
            curse = c.get("curse")
            if not c.get("magic_weapon"):
                curse_txt = ""
            elif not curse:
                curse_txt = w["not_rolled"]
            elif curse.get("cursed"):
                curse_txt = f"{curse.get('curse_en' if lang == 'en' else 'curse')} (d100 {curse.get('d100')}, {curse.get('curse_d100')})"
            else:
                curse_txt = f"{w['not_cursed']} (d100 {curse.get('d100')})"
            magic = " / ".join(str(x) for x in (c.get("magic_weapon"), c.get("magic_item")) if x)
            cost = costs[i] if i < len(costs) and costs[i] is not None else c.get("points", "")
            out.append(f"<tr><td>{e(c.get('name', ''))}</td><td>{e(c.get('type', ''))}</td><td>{e(c.get('level', ''))}</td>"
                       f"<td>{e(c.get('FC', ''))}</td><td>{e(c.get('FM', ''))}</td><td>{e(c.get('CM', ''))}</td>"
                       f"<td>{e(_list(c.get('skills')) + ('; ' + _list(c.get('spells')) if c.get('spells') else ''))}</td>"
                       f"<td>{e(_list(c.get('weapons')))} / {e(_list(c.get('armour')))}</td><td>{e(magic)}</td>"
                       f"<td>{e(curse_txt)}</td><td class='num'>{e(cost)}</td></tr>")
        out.append("</table>")
    for key in ("creatures", "monsters", "pochteca"):
        items = army.get(key, [])
        if items:
            costs = lines.get(key) or []
            out.append(f"<h2>{e(w[key])}</h2><table><tr><th>{e(w['name'])}</th><th>{e(w['figures'])}</th><th>{e(w['cost'])}</th></tr>")
            for i, b in enumerate(items):
                cost = costs[i] if i < len(costs) and costs[i] is not None else b.get("points", "")
                label = b.get("name") or b.get("type") or b.get("beast") or w[key]
                out.append(f"<tr><td>{e(label)}</td><td class='num'>{e(b.get('figures', 1))}</td><td class='num'>{e(cost)}</td></tr>")
            out.append("</table>")
    violations = result.get("violations") or []
    if violations:
        out.append(f"<h2>{e(w['violations'])}</h2><ul>")
        for v in violations:
            if isinstance(v, dict):
                msg = v.get("message_fr" if lang == "fr" else "message") or v.get("message", "")
                out.append(f"<li>{e(msg)} <span class='cite'>{e(v.get('ref', ''))}</span></li>")
            else:
                out.append(f"<li>{e(v)}</li>")
        out.append("</ul>")
    if army.get("notes"):
        out.append(f"<h2>{e(w['notes'])}</h2><p>{e(army['notes'])}</p>")
    out.append("</body></html>")
    return "".join(out)
