"""The odds of a fire order before it is given (phase 3): the volleys a unit would fire with the
targets the player is announcing (l.830, l.840; OR-GF110), each with its percentage before the roll,
read on the table as it stands now (OR-GF140).

The fire itself is resolved in phase 8 (:func:`.fire_play.resolve`), after the moves of phase 6: the
targets kept, the files shared and the percentages are then read again on the table as it stands.
This preview is the same computation (:func:`.fire_play.plan_preview`) on a copy of the battle with the
announced order set — it changes nothing, rolls nothing and uses only what the side sees (an enemy on a
movement base, marching on a flank or hidden in a building is never a target it can announce,
:func:`.orders.check_fire_targets`, nor one :func:`.volleys.kept_targets` falls back on)."""

from __future__ import annotations

from . import fire_play, orders
from .state import Battle

DECISION = "OR-GF140"
FIRE_ORDER = "tirer"


def preview(state: Battle, uid: str, targets) -> dict:
    """``{"unit", "targets", "volleys": [{"target", "files", "firing_figures", "percent", "explanation",
    "citations"…}], "explanation", "citations"}`` for ``uid`` ordered to fire at ``targets`` (a unit id,
    a list of them, or None: the priorities choose)."""
    trial = state.clone()
    orders.set_order(trial.units[uid], FIRE_ORDER, list(targets) if isinstance(targets, (list, tuple)) else targets)
    out = fire_play.plan_preview(trial, uid)
    announced = list(targets) if isinstance(targets, (list, tuple)) else ([targets] if targets else [])
    out["targets"] = announced
    from .. import display   # each volley's explanation in both languages (the page's switch)
    for v in out["volleys"]:
        v["explanation_fr"] = [display.french(x) for x in v["explanation"]]
        v["explanation"] = [display.english(x) for x in v["explanation"]]
    out["explanation_fr"] = [display.french(x) for x in out.get("explanation") or []]
    out["citations"] = list(dict.fromkeys(list(out.get("citations") or []) + [DECISION]))
    return out


def withheld(state: Battle, uid: str) -> bool:
    """No preview for a unit the enemy cannot see (on a movement base, marching on a flank, hidden in a
    building: GF-K4, GF-K5, l.784): a ruling may be asked by either seat of the game, and the odds of
    a unit's fire tell where it stands (OR-GF140)."""
    from . import fog
    u = state.units[uid]
    return fog.hidden_from(u, state.other(u.side))


def withheld_lines(state: Battle, uid: str) -> tuple[str, str]:
    name = state.units[uid].name or uid
    return (f"{name} is hidden from the enemy: its fire is not previewed (OR-GF140)",
            f"{name} est caché à l'ennemi : son tir n'est pas prévisualisé (OR-GF140)")


def ruling_lines(state: Battle, uid: str, pv: dict) -> tuple[list[str], list[str]]:
    """One line per volley (English, French) for an orders action's ruling."""
    name = state.units[uid].name or uid
    en, fr = [], []
    if not pv["volleys"]:
        why = "; ".join(pv.get("explanation") or []) or "no target"
        en.append(f"{name} would fire at nothing on the table as it stands now ({why})")
        fr.append(f"{name} ne tirerait sur rien, la table telle qu'elle est maintenant ({why})")
    for v in pv["volleys"]:
        t = state.units[v["target"]].name or v["target"]
        files = f"{v['files']} file(s), " if v.get("files") else ""
        files_fr = f"{v['files']} colonne(s), " if v.get("files") else ""
        en.append(f"{name} at {t}: {files}{v['firing_figures']} figure(s) firing, {v['percent']} % "
                  f"(on the table as it stands now; read again in phase 8)")
        fr.append(f"{name} sur {t} : {files_fr}{v['firing_figures']} figurine(s) tirent, {v['percent']} % "
                  f"(la table telle qu'elle est maintenant ; relu en phase 8)")
    return en, fr
