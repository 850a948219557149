"""Secret, verifiable dice: the only source of randomness in Oriflamme.

The n-th roll of a game is a pure function of ``(seed, n)`` (SHA-256 in counter mode), so a
record that carries the seed reproduces every roll. The seed is the game's **secret**: the
server draws it (:func:`new_secret`, 256 bits), keeps it out of every view, log and message,
and publishes only :func:`commitment` — the SHA-256 hex of the seed — when the game is
created. When the game is over the record carries the seed and ``oriflamme replay --verify``
checks it against the commitment (:func:`verify`).

The dice live **outside** the cloned state: the record binds the game's :class:`Dice` to its
live state before each action (``state.dice``), and a copy of a state (``copy.deepcopy``,
``state.clone()``) gets :class:`SealedDice`, which knows how many dice were rolled but refuses
to roll. A search or a preview therefore cannot learn a future roll; it enumerates the chance
outcomes instead (``Ruleset.chance_outcomes``) or rolls its own :class:`SampledDice`.

>>> d = Dice(seed=42)
>>> a = d.roll(10); b = d.roll(10)
>>> Dice(seed=42).roll(10) == a
True
>>> d.count
2
>>> import copy; copy.deepcopy(d).roll(10)
Traceback (most recent call last):
...
oriflamme.core.errors.DiceSealed: this is a copy of the game's state: it holds no future rolls (roll 3)
>>> commitment(42) == commitment("42")
True
>>> verify(42, commitment(42)), verify(43, commitment(42))
(True, False)
"""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass

from .errors import DiceSealed

Seed = int | str


def roll_keyed(dice, sides: int, faces) -> int:
    """``dice.roll(sides)``, telling an enumeration of the chance outcomes which faces lead to the
    same result: ``faces()`` gives one key per face (index 0: face 1), and the caller promises
    that faces with equal keys lead to the same state but for the log's narration of the roll
    (the die's value, the words that read it). Dice that do not enumerate never call ``faces``: the
    game's dice, sealed and sampled dice roll as they always do (see
    :func:`oriflamme.core.chance.enumerate_keyed_children`)."""
    keyed = getattr(dice, "roll_keyed", None)
    return keyed(sides, faces) if keyed is not None else dice.roll(sides)


def new_secret() -> str:
    """A fresh secret seed: 256 random bits as 64 hex digits (not guessable from its commitment)."""
    return secrets.token_hex(32)


def commitment(seed: Seed) -> str:
    """The SHA-256 hex digest of the seed's text: published when a game is created."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def verify(seed: Seed, expected: str) -> bool:
    return secrets.compare_digest(commitment(seed), str(expected))


def roll_value(seed: Seed, n: int, sides: int = 10) -> int:
    """The n-th roll (0-based) of a game seeded with ``seed``."""
    digest = hashlib.sha256(f"oriflamme:{seed}:{n}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % sides + 1


class Dice:
    """The game's dice: its secret seed and the number of rolls made so far.

    Copies are sealed (see the module docstring): ``copy.copy``/``copy.deepcopy`` return a
    :class:`SealedDice` with the same count."""

    __slots__ = ("seed", "count")

    def __init__(self, seed: Seed, count: int = 0):
        self.seed = seed
        self.count = count

    def peek(self, sides: int = 10, offset: int = 0) -> int:
        """The value the roll ``count + offset`` will show (tests only: the server never peeks)."""
        return roll_value(self.seed, self.count + offset, sides)

    def roll(self, sides: int = 10) -> int:
        value = roll_value(self.seed, self.count, sides)
        self.count += 1
        return value

    def __copy__(self) -> "SealedDice":
        return SealedDice(self.count)

    def __deepcopy__(self, memo) -> "SealedDice":
        return SealedDice(self.count)

    def clone(self) -> "SealedDice":
        return SealedDice(self.count)

    def __repr__(self) -> str:
        return f"Dice(<secret>, count={self.count})"


@dataclass(slots=True)
class SealedDice:
    """The dice of a copied state: the roll count, and no way to roll."""
    count: int = 0

    def roll(self, sides: int = 10) -> int:
        raise DiceSealed(f"this is a copy of the game's state: it holds no future rolls (roll {self.count + 1})")

    def peek(self, sides: int = 10, offset: int = 0) -> int:
        raise DiceSealed("this is a copy of the game's state: it holds no future rolls")

    def clone(self) -> "SealedDice":
        return SealedDice(self.count)


class SampledDice:
    """Dice for a search or a simulation on a copied state: draws from the searcher's own
    generator (never from the game's secret)."""

    __slots__ = ("rng", "count")

    def __init__(self, rng: random.Random, count: int = 0):
        self.rng, self.count = rng, count

    def roll(self, sides: int = 10) -> int:
        self.count += 1
        return self.rng.randint(1, sides)

    def clone(self) -> "SealedDice":
        return SealedDice(self.count)


class FixedDice:
    """Dice that show given values in order (a chance outcome chosen by a search or a test)."""

    __slots__ = ("values", "count")

    def __init__(self, values, count: int = 0):
        self.values, self.count = list(values), count

    def roll(self, sides: int = 10) -> int:
        if not self.values:
            raise DiceSealed("the chance outcome given has no more dice")  # enumerate_outcomes branches here
        self.count += 1
        return self.values.pop(0)

    def clone(self) -> "SealedDice":
        return SealedDice(self.count)
