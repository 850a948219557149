"""The only source of randomness in Oriflamme.

Dice are part of the game state: a seed and the number of rolls made so far. The n-th roll is
a pure function of ``(seed, n)`` (SHA-256 counter mode), so a game record that stores the seed
reproduces every roll, and a state can be cloned or serialised without hidden generator state.

>>> d = Dice(seed=42)
>>> a = d.roll(10); b = d.roll(10)
>>> Dice(seed=42).roll(10) == a
True
>>> d.count
2
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(slots=True)
class Dice:
    seed: int
    count: int = 0

    def peek(self, sides: int = 10, offset: int = 0) -> int:
        """The value the roll ``count + offset`` will show (used by tests and replays)."""
        digest = hashlib.sha256(f"oriflamme:{self.seed}:{self.count + offset}".encode()).digest()
        return int.from_bytes(digest[:8], "big") % sides + 1

    def roll(self, sides: int = 10) -> int:
        value = self.peek(sides)
        self.count += 1
        return value

    def to_json(self) -> dict:
        return {"seed": self.seed, "count": self.count}

    @classmethod
    def from_json(cls, data: dict) -> "Dice":
        return cls(seed=int(data["seed"]), count=int(data["count"]))

    def clone(self) -> "Dice":
        return Dice(self.seed, self.count)
