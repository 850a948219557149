"""The platform's errors (python-chess style: specific classes, never a bare ValueError).

Every ruleset raises these, so the CLI, the web app and the store can turn them into a one-line
message (CLI) or a JSON error (web) without knowing the ruleset.
"""

from __future__ import annotations


class OriflammeError(Exception):
    """Base class of every error Oriflamme reports to a user."""


class IllegalAction(OriflammeError):
    """An action the rules forbid. ``reason`` says why, ``ref`` cites the rule. The state is
    left unchanged."""

    def __init__(self, reason: str, ref: str = ""):
        self.reason = reason
        self.ref = ref
        super().__init__(f"{reason} ({ref})" if ref else reason)


class ScenarioError(OriflammeError):
    """A scenario file is malformed (message: file, field, reason)."""


class RecordError(OriflammeError):
    """A game record is malformed, belongs to another ruleset, or does not reproduce."""


class UnknownRuleset(OriflammeError):
    """No registered ruleset has this id (the message lists the known ones)."""


class DiceSealed(OriflammeError):
    """A copy of a state tried to roll: copies (search, previews) hold no future rolls."""
