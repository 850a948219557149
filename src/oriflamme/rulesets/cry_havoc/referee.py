"""Cry Havoc's referee: the situations it adjudicates otherwise than Magna Carta — fire in two
steps (``die``: the to-hit die, ``damage_die``: the damage die, asked only if the target is
reached). Every other kind is Magna Carta's referee read with the edition's data (its terrain
names and marks, its jump table).

>>> r = adjudicate_fire({"kind": "fire", "ruleset": "cry-havoc", "weapon": "Arbalète", "distance": 20,
...                      "target": {"armour": True}, "die": 3, "damage_die": 2})
>>> r["hit"], r["damage"], r["result"], round(r["probabilities"]["-"], 4)
(True, 'T', 'T', 0.64)
"""

from __future__ import annotations

from ..magna_carta.referee import fire_situation
from .fire import two_step_fire


def adjudicate_fire(obj: dict) -> dict:
    rs, situation, s, first = fire_situation(obj)
    r = two_step_fire(rs, situation, s.die, s.damage_die)
    r.steps[:0] = first
    out = r.to_json()
    out.setdefault("band", None)
    out.setdefault("hit", None)
    out.setdefault("damage", None)
    # the chance of each step: to hit, then each damage result given a hit
    return out
