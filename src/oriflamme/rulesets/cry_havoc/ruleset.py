"""Cry Havoc as a platform ruleset: the Magna Carta adapter, under the edition's id (the engine
reads the edition's rules through the state's ruleset id; docs/architecture.md "Editions")."""

from __future__ import annotations

from ..magna_carta.ruleset import MagnaCarta


class CryHavoc(MagnaCarta):
    id = "cry-havoc"
    base = "magna-carta"
    title = "Cry Havoc (original player aid)"
    title_fr = "Cry Havoc (aide de jeu d'origine)"
    web_module = "magna-carta"  # the base's browser module draws the board
    aliases = ("ch", "cry_havoc", "cryhavoc")

    def adjudicate(self, situation) -> dict:
        """Fire in two steps (seed 002); the other kinds are Magna Carta's referee, read with
        this edition's data (``"ruleset": "cry-havoc"``)."""
        from ...core.errors import OriflammeError
        from ..magna_carta.referee import SituationError
        if isinstance(situation, dict) and situation.get("kind") == "fire":
            from .referee import adjudicate_fire
            try:
                return adjudicate_fire({**situation, "ruleset": self.id})
            except SituationError as exc:
                raise OriflammeError(exc.render()) from None
        if isinstance(situation, dict):
            situation = {**situation, "ruleset": situation.get("ruleset", self.id)}
        return super().adjudicate(situation)
