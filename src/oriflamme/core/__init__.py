"""The platform's core: the contract every ruleset implements and what is written once for all.

* :mod:`.ruleset` — :class:`Ruleset` (setup, to_act, legal_actions, checked apply, explain,
  chance outcomes, view, codecs, outcome) and its small value types;
* :mod:`.registry` — the rulesets found through the ``oriflamme.rulesets`` entry points;
* :mod:`.record` — a game with its record, undo and replay (:class:`Game`, :func:`replay`);
* :mod:`.dice` — secret, verifiable dice (commitment, sealed copies);
* :mod:`.chance` — exact enumeration of an action's chance outcomes;
* :mod:`.errors` — the errors every adapter turns into a clear message.

Nothing here imports a ruleset; web, CLI, store and AI import only this package.
"""

from .errors import DiceSealed, IllegalAction, OriflammeError, RecordError, ScenarioError, UnknownRuleset
from .ruleset import CHANCE, ChanceOutcome, Outcome, Ruleset, ScenarioInfo, SideInfo

__all__ = ["CHANCE", "ChanceOutcome", "DiceSealed", "IllegalAction", "OriflammeError", "Outcome", "RecordError",
           "Ruleset", "ScenarioError", "ScenarioInfo", "SideInfo", "UnknownRuleset"]
