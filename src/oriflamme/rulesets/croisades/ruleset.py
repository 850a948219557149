"""Croisades as a platform ruleset: the Magna Carta adapter under the edition's id (the engine
reads the edition's rules through the state's ruleset id; docs/architecture.md "Editions")."""

from __future__ import annotations

from ..magna_carta.ruleset import MagnaCarta


class Croisades(MagnaCarta):
    id = "croisades"
    base = "magna-carta"
    title = "Croisades"
    title_fr = "Croisades"
    web_module = "magna-carta"  # the base's browser module draws the board
    aliases = ("cr", "crusades")
