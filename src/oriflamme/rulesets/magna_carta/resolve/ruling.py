"""The explanation every adjudication returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..texts.messages import render


class Step:
    """One step of an explanation: its English ``text`` and the rule it cites; ``msg`` and
    ``params``, when set, are the text's message id and parameters (``texts/fr.toml``), from
    which the presentation layer renders it in another language.

    A step given by a message renders its English ``text`` only when it is read: the legal
    actions build many rulings (fire targets, attack groups) whose words nobody reads.
    Steps compare by text and citation (and message id), as the frozen record they replace."""

    __slots__ = ("_text", "ref", "msg", "params")

    def __init__(self, text: str | None, ref: str = "", msg: str | None = None,
                 params: dict[str, Any] | None = None):
        self._text, self.ref, self.msg, self.params = text, ref, msg, params

    @classmethod
    def say(cls, msg: str, params: dict[str, Any] | None = None, ref: str = "") -> "Step":
        """A step given by the message ``msg`` (its English text rendered when read)."""
        return cls(None, ref, msg, params or {})

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = render(self.msg, self.params, "en")
        return self._text

    def render(self) -> str:
        return f"{self.text} ({self.ref})" if self.ref else self.text

    def __eq__(self, other) -> bool:
        if not isinstance(other, Step):
            return NotImplemented
        return (self.text, self.ref, self.msg) == (other.text, other.ref, other.msg)

    def __hash__(self) -> int:
        return hash((self.text, self.ref, self.msg))

    def __repr__(self) -> str:
        return f"Step(text={self.text!r}, ref={self.ref!r}, msg={self.msg!r})"


@dataclass
class Ruling:
    """What a rule decided, step by step.

    ``probabilities`` maps each possible result to its exact probability for a fair die, before
    the die is rolled; ``die``/``modified_die``/``result`` are set once a die is known.
    ``faces`` reads the die face by face for an enumeration of the chance outcomes: one key per
    face (index 0: face 1); faces with equal keys give the same result and, once the ruling is
    acted on, the same state but for the log's narration of the roll — the die's value, and the
    words and citations that read it (the rules never read the log) (the preview sets it;
    :func:`oriflamme.core.dice.roll_keyed` passes it to the enumeration; not in :meth:`to_json`).
    ``data`` holds the kind-specific figures (odds, column, band, cost...). ``message``, when
    set, is the log line that sums the ruling up, as a message id and its parameters
    (``texts/fr.toml``): the event emitted with the ruling carries it; it is not part of
    :meth:`to_json`.
    """

    kind: str
    legal: bool = True
    reason: str | None = None
    steps: list[Step] = field(default_factory=list)
    probabilities: dict[str, Fraction] = field(default_factory=dict)
    die: int | None = None
    modified_die: int | None = None
    result: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    message: tuple[str, dict[str, Any]] | None = None
    faces: tuple = ()

    def step(self, text: str, ref: str = "") -> "Ruling":
        self.steps.append(Step(text, ref))
        return self

    def say(self, msg: str, params: dict[str, Any] | None = None, ref: str = "") -> "Ruling":
        """A step given by a message id and its parameters (its text is the English rendering)."""
        self.steps.append(Step.say(msg, params, ref))
        return self

    def refuse(self, reason: str, ref: str = "") -> "Ruling":
        self.legal = False
        self.reason = f"{reason} ({ref})" if ref else reason
        self.steps.append(Step(reason, ref))
        return self

    @property
    def citations(self) -> list[str]:
        seen: list[str] = []
        for s in self.steps:
            for part in (p.strip() for p in s.ref.split(";")) if s.ref else ():
                if part and part not in seen:
                    seen.append(part)
        return seen

    @property
    def explanation(self) -> list[str]:
        return [s.render() for s in self.steps]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "legal": self.legal}
        if self.reason:
            out["reason"] = self.reason
        out.update(self.data)
        if self.probabilities:
            out["probabilities"] = {k: float(v) for k, v in self.probabilities.items()}
        if self.die is not None:
            out["die"] = self.die
            out["modified_die"] = self.modified_die
            out["result"] = self.result
        out["explanation"] = self.explanation
        out["citations"] = self.citations
        if any(s.msg for s in self.steps):
            # the explanation's steps by message id, where known (null: English text only);
            # engine/events.py moves this key out of the ruling into the event
            out["steps"] = [{"msg": s.msg, "params": s.params} if s.msg else None for s in self.steps]
        return out


def distribution(outcome_of_die, sides: int = 10) -> dict[str, Fraction]:
    """Exact probability of each outcome of ``outcome_of_die(d)`` for a fair die."""
    probs: dict[str, Fraction] = {}
    for d in range(1, sides + 1):
        k = outcome_of_die(d)
        probs[k] = probs.get(k, Fraction(0)) + Fraction(1, sides)
    return dict(sorted(probs.items()))


def face_keys(key_of, sides: int = 10) -> tuple:
    """``key_of(d)`` for each face ``d`` of a fair die (:attr:`Ruling.faces`)."""
    return tuple(key_of(d) for d in range(1, sides + 1))


def read_bands(bands, value: int):
    """The band holding ``value``; below the first reads the first, above the last reads the
    last (SEED-NOTES D16)."""
    if value < bands[0].low:
        return bands[0]
    for b in bands:
        if b.low <= value <= b.high:
            return b
    return bands[-1]


def outcomes(results: dict, table_id: str, letters) -> dict[str, dict[str, str]]:
    """What each possible result letter means, from the rules data: ``{letter: {"fr", "en"}}``
    (the printed French text and its English rendering), for a preview before the roll."""
    out = {}
    for letter in letters:
        res = results.get((table_id, letter))
        if res is not None:
            out[letter] = {"fr": res.text, "en": res.text_en or res.text}
    return out
