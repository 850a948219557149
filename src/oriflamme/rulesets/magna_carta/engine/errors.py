"""Specific errors of the engine (python-chess style: not bare ValueError)."""

from __future__ import annotations


class OriflammeError(Exception):
    """Base class of the engine's errors."""


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
    """A game record is malformed or does not reproduce."""
