"""The contract every rule system implements (models: OpenSpiel's Game/State, Rally the
Troops' rules modules; see ``docs/architecture.md``).

A ruleset is a stateless object; the game state is the ruleset's own type, opaque to the core,
with one requirement: it rolls dice only through its attribute ``dice``, which the record
(:mod:`oriflamme.core.record`) binds to the game's secret dice before each action.

Everything a generic adapter (web, CLI, store, AI) needs goes through these methods; nothing
else of a ruleset is imported outside its package.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

#: ``to_act`` answers this when chance (not a side) must act next (OpenSpiel's chance player).
CHANCE = "chance"

#: the envelope of an army document (docs/formats.md § Army documents)
ARMY_FORMAT = "oriflamme-army"
ARMY_VERSION = 1


def army_envelope(doc: dict, ruleset_id: str) -> dict:
    """``doc`` with its envelope first and filled in (``format``, ``version``, ``ruleset``); a
    value already there is kept, so that the ruleset refuses a wrong one naming the field."""
    return {"format": doc.get("format", ARMY_FORMAT), "version": doc.get("version", ARMY_VERSION),
            "ruleset": doc.get("ruleset", ruleset_id), **doc}


@dataclass(frozen=True)
class Outcome:
    """The end of a game: ``over``, the winning side (None: a draw or not over), and why."""
    over: bool
    winner: str | None = None
    text: str = ""

    def to_json(self) -> dict:
        return {"over": self.over, "winner": self.winner, "text": self.text}


@dataclass(frozen=True)
class ChanceOutcome:
    """One outcome of a chance point: its probability (exact), the dice it needs, and a label
    (the result key of the ruling, e.g. ``"C"`` or ``"fall"``)."""
    probability: Fraction
    dice: tuple[int, ...]
    label: str = ""

    def to_json(self) -> dict:
        return {"p": float(self.probability), "p_exact": str(self.probability), "dice": list(self.dice), "label": self.label}


@dataclass(frozen=True)
class SideInfo:
    id: str
    name: str
    name_fr: str = ""

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "name_fr": self.name_fr or self.name}


@dataclass
class ScenarioInfo:
    """What a lobby shows of a bundled scenario (the ruleset's full scenario stays opaque)."""
    id: str
    name: str
    name_fr: str = ""
    description: str = ""
    description_fr: str = ""
    sides: list[SideInfo] = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "name_fr": self.name_fr or self.name,
                "description": self.description, "description_fr": self.description_fr or self.description,
                "sides": [s.to_json() for s in self.sides], **self.extra}


class Ruleset(ABC):
    """One rule system (or an edition of one: ``base`` names the ruleset it overlays).

    Methods marked *UI* have generic defaults; a ruleset overrides them to group its options
    for the browser, draw its board in the terminal, or name its browser module.
    """

    id: str = ""
    title: str = ""
    title_fr: str = ""
    base: str | None = None
    #: the browser module the generic play page loads (UI): the id of the ruleset whose
    #: :meth:`static_dir` holds ``module.js``, served at ``/static/rulesets/<web_module>/module.js``
    #: (an edition names its base's); None: the page lists ``options()["actions"]`` as buttons
    web_module: str | None = None
    #: the die the ruleset rolls (10 for a d10, 100 for percentile dice): chance enumeration
    die_sides: int = 10
    aliases: tuple[str, ...] = ()

    # --- scenarios ---------------------------------------------------------------------------
    @abstractmethod
    def scenario_ids(self) -> list[str]:
        """The bundled scenarios, by id."""

    @abstractmethod
    def scenario_info(self, scenario_id: str) -> ScenarioInfo:
        ...

    @abstractmethod
    def load_scenario(self, name_or_path: str) -> Any:
        """A bundled scenario by id, or a scenario file by path, validated (raises
        :class:`~oriflamme.core.errors.ScenarioError` naming the file, field and reason)."""

    @abstractmethod
    def scenario_from_json(self, data: Any, source: str = "<scenario>") -> Any:
        """Validate the scenario copy a record or a store carries."""

    @abstractmethod
    def scenario_to_json(self, scenario: Any) -> dict:
        ...

    def scenario_id_of(self, scenario: Any) -> str:
        return self.scenario_to_json(scenario).get("id", "")

    @abstractmethod
    def sides(self, scenario: Any) -> list[SideInfo]:
        ...

    # --- play ----------------------------------------------------------------------------------
    @abstractmethod
    def setup(self, scenario: Any, dice) -> Any:
        """The starting state. ``dice`` is the game's (see :mod:`oriflamme.core.dice`)."""

    @abstractmethod
    def to_act(self, state) -> str | None:
        """The side whose decision the game waits for, :data:`CHANCE`, or None when over."""

    @abstractmethod
    def legal_actions(self, state, side: str | None = None) -> list:
        """Every action ``side`` (default: the side to act) may take now: the one source of
        legality; :meth:`apply` accepts exactly these choices (see :meth:`choice_of`)."""

    def choice_of(self, action_json: dict) -> str:
        """The *choice* an action makes, without the free parameters a player may set (a
        move's route). ``legal_actions`` lists every choice once or more, each with a
        representative value of its free parameters; the checked :meth:`apply` accepts an
        action exactly when its choice is listed and its free parameters pass the same rules.
        The contract suite proves both directions on random play. Default: no free parameter
        (the whole action is the choice)."""
        import json
        return json.dumps(action_json, sort_keys=True)

    @abstractmethod
    def apply(self, state, action) -> list[dict]:
        """Checked apply: raises :class:`~oriflamme.core.errors.IllegalAction` (the rule that
        forbids it) and leaves the state unchanged, or applies and returns the new events."""

    def apply_unchecked(self, state, action) -> list[dict]:
        """The fast path for an action the legal-action generator already vouched for."""
        return self.apply(state, action)

    @abstractmethod
    def explain(self, state, action) -> dict:
        """The ruling of ``action`` before it is committed: steps, die, table cell, citations
        and the probability of each result (JSON)."""

    def chance_outcomes(self, state, action) -> list[ChanceOutcome]:
        """The outcomes of the dice ``action`` rolls, with exact probabilities (empty: the
        action rolls no die). Search AIs apply an outcome with :class:`~oriflamme.core.dice.FixedDice`.
        The generic enumeration (:mod:`oriflamme.core.chance`) raises ``TooManyDice`` for an
        action needing more than three dice (a large volley): sample such an action instead."""
        return []

    def chance_children(self, state, action) -> list[tuple[ChanceOutcome, object]] | None:
        """Optional, for speed: :meth:`chance_outcomes` of an action known to roll (its try on a
        sealed copy raised ``DiceSealed``), each with the copy of the state its dice lead to, dice
        sealed — what :func:`~oriflamme.core.chance.enumerate_children` gives a ruleset whose
        outcomes come from the generic enumeration, so a search applies the action once per
        sequence of faces, not once more per outcome. None (the default): not provided."""
        return None

    @abstractmethod
    def outcome(self, state) -> Outcome:
        ...

    # --- information -------------------------------------------------------------------------
    @abstractmethod
    def view(self, state, side: str | None) -> dict:
        """What ``side`` may see (None: a spectator), as JSON. Never mutates the state; the
        only place hidden information is filtered."""

    @abstractmethod
    def events(self, state) -> list[dict]:
        """The whole log (the record keeps it; views filter it)."""

    def visible_events(self, state, side: str | None, start: int = 0) -> list[dict]:
        """The log from ``start`` as ``side`` may see it (default: everything is public)."""
        return self.events(state)[start:]

    # --- codecs --------------------------------------------------------------------------------
    @abstractmethod
    def action_from_json(self, data: Any) -> Any:
        """Parse an action (raises IllegalAction naming the field when malformed)."""

    @abstractmethod
    def action_to_json(self, action) -> dict:
        ...

    @abstractmethod
    def state_to_json(self, state) -> dict:
        """The whole state, secret seed excluded (the dice count is kept)."""

    @abstractmethod
    def state_from_json(self, data: dict, scenario: Any) -> Any:
        ...

    @abstractmethod
    def clone(self, state) -> Any:
        """A copy; its dice are sealed (it holds no future rolls)."""

    @abstractmethod
    def digest(self, state) -> str:
        """A fingerprint of the state (records and the store compare it)."""

    def legacy_digest(self, state, seed) -> str:
        """The digest version-1 records carry (before the seam); default: :meth:`digest`."""
        return self.digest(state)

    def recorded_event(self, event, index: int):
        """A record's event number ``index`` as this release writes it, so ``replay --verify``
        accepts records written before an event changed shape (default: as recorded)."""
        return event

    def clears_undo(self, before, after) -> bool:
        """True when the action from ``before`` to ``after`` revealed hidden information, so
        that it cannot be taken back (a roll always clears the undo history)."""
        return False

    # --- UI (generic defaults) -----------------------------------------------------------------
    def describe_action(self, state, action, lang: str = "en") -> str:
        return " ".join(f"{k}={v}" for k, v in self.action_to_json(action).items())

    def options(self, state, side: str | None) -> dict:
        """The legal actions grouped for the browser, with their rulings (UI)."""
        return {"actions": [{"action": self.action_to_json(a), "label": self.describe_action(state, a)}
                            for a in self.legal_actions(state, side)]}


    def rules_diff(self, other: "Ruleset") -> dict | None:
        """The rules that differ between this ruleset and ``other`` (an edition and its base,
        in either order): ``{"base", "edition", "differences": [{"rule", "base": {...} | None,
        "edition": {...} | None, "cells": [{"cell", "base", "edition"}]}]}``, each side with its
        citation (``ref``). None: the two cannot be compared (not of one family)."""
        return None

    def info(self) -> dict:
        return {"id": self.id, "title": self.title, "title_fr": self.title_fr or self.title, "base": self.base,
                "scenarios": self.scenario_ids(), "army_builder": self.has_army_builder(),
                "battle_from_armies": self.battle_from_armies()}

    # --- web UI hooks (the web app's only way into a ruleset; generic defaults) ---------------
    # Added for the web adapter (oriflamme.web). Each has a default that works for any ruleset;
    # a ruleset overrides them to group its options, draw its board or speak French.
    def seat_view(self, state, side: str | None, acting: bool) -> dict:
        """The view a seat's client renders: :meth:`view` for ``side``, plus ``options``
        (:meth:`options`) when ``acting``. Called once per response, so a ruleset that can
        share work between the two (its legal actions) does it here (UI)."""
        out = dict(self.view(state, side))
        out.pop("legal_actions", None)
        if acting:
            out["options"] = self.options(state, side)
        return out

    def option_detail(self, state, key: str) -> dict:
        """The options a view leaves out for one piece (fetched on selection); KeyError for an
        unknown key (UI)."""
        raise KeyError(key)

    def frame(self, state, side: str | None) -> dict:
        """The position a replay frame shows to ``side`` (UI)."""
        return {"log_length": len(self.visible_events(state, side)), **self.outcome(state).to_json()}

    def board(self, scenario) -> dict:
        """The scenario's board as the browser draws it (UI; empty: the ruleset's browser
        module draws without it)."""
        return {}

    # --- browser static files (UI) --------------------------------------------------------------
    def static_dir(self):
        """The folder of the ruleset's browser files (its module, board drawing, styles), served
        at ``/static/rulesets/<id>/``; None when it has none. Default: the ``static/`` folder
        beside the module that defines the ruleset's class, if there is one (UI)."""
        import inspect
        from pathlib import Path

        try:
            folder = Path(inspect.getfile(type(self))).parent / "static"
        except (TypeError, OSError):
            return None
        return folder if folder.is_dir() else None

    def rules_sections(self) -> dict:
        """The rule sections a citation may name, with their titles (UI)."""
        return {"ruleset": self.id, "title": self.title, "sections": {}}

    def render_text(self, text: str, lang: str) -> str:
        """A message (a result, a refusal) in ``lang`` (UI; default: as it is)."""
        return text

    def name_sides(self, text: str, lang: str, sides: list[SideInfo]) -> str:
        """A text already rendered in ``lang`` (a log line, a ruling's line, the result, a
        refusal) calling the sides by their names (``sides``: :meth:`sides` of the game's
        scenario) where it names them by id. The default changes nothing: a ruleset whose texts
        already use the names needs nothing more."""
        return text

    def render_events(self, events: list[dict], lang: str) -> list[dict]:
        """Log events in ``lang`` (copies when translated; UI)."""
        return events

    def render_ruling(self, ruling: dict, lang: str) -> dict:
        return ruling

    def render_options(self, options: dict, lang: str) -> dict:
        """The :meth:`options` JSON in ``lang`` (a copy when translated; UI)."""
        return options

    # --- terminal, referee and computer players (CLI / AI hooks, generic defaults) -----------
    def terminal(self):
        """The ruleset's terminal front end, or None: ``oriflamme play`` then shows a generic
        numbered list of the legal actions (:meth:`describe_action`) to a human seat (UI).

        The front end is any object (usually a module) with:

        * ``title(game) -> str`` — the scenario's name, description and victory (rich markup);
        * ``render(state, full=False) -> str`` — the board; ``full`` adds legends and rosters;
        * ``status(state) -> (key, str)`` — the CLI prints the line each time the key changes
          (a new turn, phase or step);
        * ``summary(state) -> str`` — where the game stands for the closing line (``turn 7``);
        * ``play_turn(console, game, input) -> bool`` — one command typed by the human whose
          turn it is (``game`` is a :class:`oriflamme.core.record.Game`: it applies and undoes,
          ``input`` is the prompt function); returns False when the player leaves.
        """
        return None

    def adjudicate(self, situation: dict) -> dict:
        """The digital referee (``oriflamme adjudicate``): one situation typed as JSON, its
        ruling as JSON. Bad input raises :class:`~oriflamme.core.errors.OriflammeError` whose
        message names the field. Default: this ruleset has no referee."""
        from .errors import OriflammeError
        raise OriflammeError(f"this ruleset ({self.id}) has no referee")

    # --- army builder (optional; the web app, the store and ``oriflamme army`` use these) ------
    # Defaults mean "this ruleset has no army builder". A ruleset with an army list (Les Guerres
    # Fleuries) overrides all of them. An army document is a JSON object
    # ``{"format": "oriflamme-army", "version": 1, "ruleset": <id>, "name": ..., ...}`` whose
    # remaining fields the ruleset defines (docs/formats.md § Army).
    def has_army_builder(self) -> bool:
        """True when the ruleset offers an army builder: it overrides :meth:`army_catalog`
        (cheap: the catalogue is not built)."""
        return type(self).army_catalog is not Ruleset.army_catalog

    def army_catalog(self) -> dict | None:
        """Everything a list builder offers (troops, characters, equipment by level, costs,
        constraints), as JSON; None: this ruleset has no army builder."""
        return None

    def validate_army(self, doc: dict) -> dict:
        """The army's verdict as JSON: at least ``valid`` (bool), ``violations`` (a list of
        ``{"rule", "message", "ref"}`` or sentences citing the rule) and ``total_points``.
        A malformed document raises :class:`~oriflamme.core.errors.OriflammeError` naming the
        field; an impossible but well-formed army is ``valid: false``."""
        from .errors import OriflammeError
        raise OriflammeError(f"this ruleset ({self.id}) has no army builder")

    def army_sheet(self, doc: dict, lang: str = "en") -> str:
        """A printable sheet of the army: a complete HTML page with print CSS."""
        from .errors import OriflammeError
        raise OriflammeError(f"this ruleset ({self.id}) has no army builder")

    def army_examples(self) -> dict[str, dict]:
        """The bundled example armies, by id (army documents); empty by default."""
        return {}

    def scenario_from_armies(self, armies: dict[str, dict], base: Any) -> Any:
        """A battle between armies built with the army builder: the scenario ``base`` (its
        table, its turns) with ``armies`` (side id -> army document) in place of its own, checked
        like any scenario (a malformed or invalid army raises
        :class:`~oriflamme.core.errors.OriflammeError` naming the side and the field). Default:
        this ruleset cannot (``info()["battle_from_armies"]`` says which rulesets can)."""
        from .errors import OriflammeError
        raise OriflammeError(f"this ruleset ({self.id}) cannot set a battle from army documents")

    def battle_from_armies(self) -> bool:
        """True when :meth:`scenario_from_armies` is overridden (the lobby offers the choice)."""
        return type(self).scenario_from_armies is not Ruleset.scenario_from_armies

    def army_roll(self, doc: dict, request: dict, dice) -> dict:
        """A roll the army list itself asks for (a magic weapon's curse): ``request`` names it,
        ``dice`` is a :class:`~oriflamme.core.dice.Dice`. Returns ``{"army": updated document,
        "roll": the ruling}``. Default: no such roll."""
        from .errors import OriflammeError
        raise OriflammeError(f"this ruleset ({self.id}) has no army builder")

    def evaluate(self, state, side: str) -> float | None:
        """How well ``side`` stands, from -1 (lost) to +1 (won), for the computer players'
        search (AI; :mod:`oriflamme.ai`). It must read the state only as ``side`` may see it
        (what :meth:`view` shows that side). Default: None, no opinion — the players then
        estimate a position by random playouts to the end of the game. Magna Carta's weighs
        material, threats, cover, odds, formation, the wounded and the objectives."""
        return None

    def advised_actions(self, state, side: str, actions: list) -> list:
        """Optional: the members of ``actions`` (the legal actions of ``side``) the ruleset advises the
        computer players to weigh whatever their sampling of large choice sets keeps (AI) — e.g. the
        sets of orders it reads off its own odds. They are still valued by the search like any other
        candidate, never taken on trust. Default: none."""
        return []

    def determinize(self, state, side: str, rng):
        """A copy of ``state`` as ``side`` might believe it to be: what :meth:`view` hides from
        ``side`` redrawn at random with ``rng`` (a :class:`random.Random`), everything it sees
        kept (information-set sampling for the computer players, AI). Default: :meth:`clone`,
        right for a ruleset that hides nothing; a ruleset with hidden information overrides it,
        or its computer players would search positions they are not allowed to know."""
        return self.clone(state)

    def private_action(self, action) -> bool:
        """True for an action whose content the other sides may not see when it is taken (face-down
        orders): the web app then shows them only that the side acted, not the computer's
        explanation of it (AI, UI). Default: every action is public."""
        return False

    def is_pass(self, action) -> bool:
        """True for an action that only passes (ends a step doing nothing): random players
        choose it less often, so that random games move forward (AI). Default: the action's
        ``type`` is ``end_step`` or ``pass``."""
        kind = getattr(action, "type", None)
        if kind is None and isinstance(action, dict):
            kind = action.get("type")
        return kind in ("end_step", "pass")
