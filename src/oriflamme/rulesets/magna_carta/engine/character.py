"""Characters (Magna Carta §1.2) and their status transitions.

Status: ``healthy`` → ``stunned`` (assommé) or ``wounded`` (blessé) → ``dead`` (tué).
A stunned or wounded character who is stunned or wounded again is dead; a stunned character
forced to retreat is dead (§5.4.3, §6.5 "Important"). A stunned character cannot move or attack
and defends with the passive protection of his equipment (§1.2); he gets back on his feet at the
end of his side's next phase (§2.1 step 4).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from functools import lru_cache

from ....geometry.hexgrid import Hex

HEALTHY, STUNNED, WOUNDED, DEAD = "healthy", "stunned", "wounded", "dead"


@lru_cache(maxsize=None)
def _field_names(cls) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))
STATUSES = (HEALTHY, STUNNED, WOUNDED, DEAD)

# §6.9 surrender and ransom (engine/ransom.py): ``ransom`` is "" (never surrendered),
# ``prisoner`` (surrendered, escorted), ``escaped`` (tried to escape or attacked his escort: he
# keeps the ransom counter's values and has lost the right to surrender) or ``captured`` (led
# off the map by his escort).
FREE, PRISONER, ESCAPED, CAPTURED = "", "prisoner", "escaped", "captured"


@dataclass
class Character:
    id: str
    name: str
    side: str
    type: str
    attack: int
    defence: int
    movement: int
    wounded_attack: int
    wounded_defence: int
    wounded_movement: int
    stunned_defence: int
    armour: bool = False
    mounted: bool = False
    weapon: str | None = None
    polearm: bool = False
    knight: bool = False
    status: str = HEALTHY
    hex: Hex | None = None
    facing: int = 0              # riders: direction of the counter's arrow (§4.4.1), 0 = N
    stunned_in_phase: int = -1   # the phase number in which he was stunned
    shots: int = 0               # missiles thrown or shot (weapons with ammunition, §7.5)
    horse_type: str | None = None  # a rider's mounted character type (kept when he is on foot)
    foot_type: str | None = None   # the character type he becomes on foot (§4.4.2, §6.8)
    ransom: str = FREE           # §6.9: FREE, PRISONER, ESCAPED or CAPTURED
    escort: tuple[str, ...] = ()  # §6.9: ids of a prisoner's escort
    used_to_camels: bool = False  # §4.6.5: his horse is used to camels (+2 to the fear test)
    nationality: str | None = None  # §5.5.3.1: the Arab side's formations are of one nationality

    # --- where he stands (§1.2, §4.4) ----------------------------------------------------
    @property
    def rear(self) -> Hex | None:
        """A rider's second hex: behind his front hex ``hex``, opposite his ``facing`` (the
        direction his counter's arrow points, §4.4.1). None on foot."""
        if not self.mounted or self.hex is None:
            return None
        return self.hex.neighbour(self.facing + 3)

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """The hexes the counter covers: one on foot, two (front, rear) on horseback (§1.2)."""
        if self.hex is None:
            return ()
        if self.mounted:
            return (self.hex, self.hex.neighbour(self.facing + 3))
        return (self.hex,)

    def touches(self, other: "Character") -> bool:
        """Whether a hex of this counter is adjacent to a hex of ``other``."""
        return any(a.distance(b) == 1 for a in self.hexes for b in other.hexes)

    def distance_to(self, h: Hex) -> int:
        """Hexes from the nearest hex of this counter to ``h``."""
        return min(x.distance(h) for x in self.hexes)

    # --- values by status (§1.2) ----------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.status != DEAD

    @property
    def active(self) -> bool:
        """Can act (move, fire, attack, oppose an infiltration): alive, not stunned, not a
        prisoner (a prisoner's escape and joined attack, §6.9, are checked in engine/ransom.py)."""
        return self.status in (HEALTHY, WOUNDED) and self.ransom != PRISONER

    @property
    def current_attack(self) -> int:
        return self.wounded_attack if self.status == WOUNDED else self.attack

    @property
    def current_defence(self) -> int:
        if self.status == STUNNED:
            return self.stunned_defence
        return self.wounded_defence if self.status == WOUNDED else self.defence

    @property
    def current_movement(self) -> int:
        return self.wounded_movement if self.status == WOUNDED else self.movement

    # --- transitions (return a short description of what happened) ------------------------
    def wound(self) -> str:
        if self.status in (STUNNED, WOUNDED):
            self.status = DEAD
            return "killed (wounded again)"
        if self.status == HEALTHY:
            self.status = WOUNDED
            return "wounded"
        return "already dead"

    def stun(self, phase: int) -> str:
        if self.status in (STUNNED, WOUNDED):
            self.status = DEAD
            return "killed (stunned while already stunned or wounded)"
        if self.status == HEALTHY:
            self.status = STUNNED
            self.stunned_in_phase = phase
            return "stunned"
        return "already dead"

    def kill(self) -> str:
        self.status = DEAD
        return "killed"

    def recover(self) -> None:
        if self.status == STUNNED:
            self.status = HEALTHY
            self.stunned_in_phase = -1

    # --- serialisation --------------------------------------------------------------------
    def to_json(self) -> dict:
        # ``asdict`` without its deep copies (every digest serialises every character): the
        # fields hold scalars, the hex (a label here) and the escort (a list here)
        d = {name: getattr(self, name) for name in _field_names(type(self))}
        for k, v in d.items():
            if isinstance(v, (list, dict, set)) or (isinstance(v, tuple) and k not in ("hex", "escort")):
                d[k] = asdict(self)[k]  # a container field added later: asdict's copy, as before
        d["hex"] = self.hex.label if self.hex is not None else None
        d["escort"] = list(self.escort)
        if self.nationality is None:  # absent unless a scenario sets it (records stay as they were)
            del d["nationality"]
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Character":
        d = dict(d)
        d.setdefault("horse_type", None)
        d.setdefault("shots", 0)
        d.setdefault("foot_type", None)
        d["hex"] = Hex.from_label(d["hex"]) if d.get("hex") else None
        d["escort"] = tuple(d.get("escort", ()))
        return cls(**d)
