"""A readable report of a game (Markdown), in French or English: the scenario, the outcome,
then every event the seat may see, with the ruling's explanation and citations.

Built from the record a seat may download (:meth:`oriflamme.web.hub.Hub.record`), so the
report shows the dice seed only once the game is over; texts go through the ruleset's
rendering hooks.
"""

from __future__ import annotations

from . import shown

TITLES = {
    "en": ("Game report", "Scenario", "Seed", "Outcome", "unfinished", "Turn", "side", "Log",
           "secret until the end of the game (commitment {})"),
    "fr": ("Compte rendu de partie", "Scénario", "Graine", "Résultat", "partie inachevée", "Tour", "camp", "Journal",
           "secrète jusqu'à la fin de la partie (engagement {})"),
}


def report_text(rec: dict, ruleset, result: str, lang: str = "en", sides=None) -> str:
    """``sides``: the game's sides (:class:`oriflamme.core.ruleset.SideInfo`), to call them by
    their names."""
    t = TITLES.get(lang, TITLES["en"])
    sc = rec["scenario"]
    name = sc.get("name_fr") if lang == "fr" and sc.get("name_fr") else sc.get("name", sc.get("id", ""))
    seed = rec["seed"] if rec.get("seed") is not None else t[8].format(rec.get("dice_commitment", ""))
    out = [f"# {t[0]} — {name}", "", f"* {t[1]}: `{sc.get('id', '')}` ({rec['ruleset']})", f"* {t[2]}: {seed}"]
    result = shown.text(ruleset, ruleset.render_text(result, lang), lang, sides or []) if result else t[4]
    out += [f"* {t[3]}: {result}", "", f"## {t[7]}", ""]
    last = None
    for ev in shown.events(ruleset, rec["events"], lang, sides or []):
        key = (ev.get("turn"), ev.get("side"))
        if key != last and ev.get("turn") is not None:
            side = shown.text(ruleset, f"{t[6]} {ev.get('side')}", lang, sides or [])
            out += ["", f"### {t[5]} {ev['turn']}, {side}", ""]
            last = key
        ref = f" *({ev['ref']})*" if ev.get("ref") else ""
        out.append(f"- {ev.get('text', '')}{ref}")
        if isinstance(ev.get("ruling"), dict):
            for line in ev["ruling"].get("explanation", []):
                out.append(f"    - {line}")
    return "\n".join(out) + "\n"
