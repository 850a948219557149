"""The engine's errors are the platform's (:mod:`oriflamme.core.errors`), re-exported here."""

from ....core.errors import IllegalAction, OriflammeError, RecordError, ScenarioError

__all__ = ["IllegalAction", "OriflammeError", "RecordError", "ScenarioError"]
