"""A readable report of a game (Markdown), in French or English: the scenario, the outcome,
then every event with the ruling's explanation and citations."""

from __future__ import annotations

from ..rulesets.magna_carta import i18n
from ..rulesets.magna_carta.engine.record import Game

TITLES = {
    "en": ("Game report", "Scenario", "Seed", "Outcome", "unfinished", "Turn", "side", "Log"),
    "fr": ("Compte rendu de partie", "Scénario", "Graine", "Résultat", "partie inachevée", "Tour", "camp", "Journal"),
}


def report_text(game: Game, lang: str = "en") -> str:
    st = game.state
    t = TITLES.get(lang, TITLES["en"])
    sc = st.scenario
    name = sc.get("name_fr") if lang == "fr" and sc.get("name_fr") else sc["name"]
    out = [f"# {t[0]} — {name}", "", f"* {t[1]}: `{sc['id']}` ({st.ruleset_id})", f"* {t[2]}: {game.secret_seed}"]
    result = i18n.translate(st.result_text, lang) if st.result_text else t[4]
    out += [f"* {t[3]}: {result}", "", f"## {t[7]}", ""]
    last = None
    for ev in st.log:
        ev = i18n.translate_event(ev, lang)
        key = (ev["turn"], ev["side"])
        if key != last:
            out += ["", f"### {t[5]} {ev['turn']}, {t[6]} {ev['side']}", ""]
            last = key
        ref = f" *({ev['ref']})*" if ev.get("ref") else ""
        out.append(f"- {ev['text']}{ref}")
        if "ruling" in ev:
            for line in ev["ruling"].get("explanation", []):
                out.append(f"    - {line}")
    return "\n".join(out) + "\n"
