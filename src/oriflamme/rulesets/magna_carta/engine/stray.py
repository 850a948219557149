"""Stray shots (Magna Carta §5.4.5 "Errare humanum est", SEED-NOTES D18).

After a missed shot a second d10 is rolled: 1–6 names one of the six hexes around the target
(numbered clockwise from north, data ``fire_tables.toml [stray]``), 7–10 nothing. A character
standing there is wounded, or, in armour, retreats two hexes instead — unless an obstacle
blocks the line of fire from the shooter to that hex.
"""

from __future__ import annotations

from ....geometry.hexgrid import Hex, lines_of_fire
from ..resolve.ruling import Ruling
from .character import Character
from .events import named
from .state import GameState


def obstacle_between(state: GameState, a: Hex, b: Hex) -> bool:
    """An obstacle (a terrain blocking lines of fire, or a wall on a hexside) on every side of
    the line from ``a`` to ``b`` (§5.5.1, §5.5.2.2, §8.2.3)."""
    rs, m = state.rules, state.gmap

    def blocked(line) -> bool:
        for h in line[1:-1]:
            if h in m and rs.terrain[m.terrain(h)].blocks_los:
                return True
        for x, y in zip(line, line[1:]):
            hs = m.hexside(x, y) if x in m and y in m else None
            if hs and rs.hexsides[hs].blocks_los:
                return True
        return False

    return all(blocked(line) for line in lines_of_fire(a, b))


def stray_shot(state: GameState, shooter: Character, target: Character, die: int) -> tuple[Ruling, Character | None]:
    """The ruling of the second die and the character hit by mistake, if any; the ruling's
    ``message`` (a message id and its parameters) sums it up for the log; ``data["text"]`` is
    its English rendering, kept in the ruling for old records."""
    st = state.rules.stray_shot
    r = Ruling(kind="stray_shot")
    r.die = r.modified_die = die
    r.step(f"missed shot: a second die for a stray shot, {die}", st.ref)
    if die > st.hexes:
        r.result = "none"
        r.step(f"{die}: the shot falls harmlessly (1-{st.hexes} would name a hex around the target)", st.ref)
        r.message = ("stray.harmless", {"shooter": shooter.name, "die": die})
        r.data["text"] = f"{shooter.name}'s missed shot falls harmlessly (stray-shot die {die})"
        return r, None
    h = target.hex.neighbour(die - 1)
    r.data["hex"] = h.label
    if h in target.hexes:  # a rider's own rear hex (§5.4.5 N.B.: counted around the top of his counter)
        r.result = "none"
        r.step(f"{die}: hex {h.label}, {target.name}'s own horse: the shot has missed him", "MC §5.4.5")
        r.message = ("stray.own_horse", {"shooter": shooter.name, "hex": h.label, "target": named(state, target), "die": die})
        r.data["text"] = f"{shooter.name}'s missed shot lands in {h.label}, {target.name}'s own horse, and misses (stray-shot die {die})"
        return r, None
    victims = [c for c in state.live_at(h) if c.id != shooter.id]
    if h not in state.gmap or not victims:
        r.result = "none"
        r.step(f"{die}: hex {h.label}, where nobody stands", st.ref)
        r.message = ("stray.nobody", {"shooter": shooter.name, "hex": h.label, "die": die})
        r.data["text"] = f"{shooter.name}'s missed shot lands in {h.label}, where nobody stands (stray-shot die {die})"
        return r, None
    victim = victims[0]
    if obstacle_between(state, shooter.hex, h):
        r.result = "none"
        r.step(f"{die}: hex {h.label}, but an obstacle shields {victim.name}", "MC §5.4.5")
        r.message = ("stray.shielded", {"shooter": shooter.name, "hex": h.label, "name": victim.name, "die": die})
        r.data["text"] = f"{shooter.name}'s missed shot lands in {h.label}; an obstacle shields {victim.name} (stray-shot die {die})"
        return r, None
    r.result = "retreat" if victim.armour else "wounded"
    what = f"retreats {st.armour_retreat} hexes (armour)" if victim.armour else "is wounded"
    r.step(f"{die}: hex {h.label}: {victim.name} {what}", st.ref)
    r.data["victim"] = victim.id
    r.message = ("stray.strikes", {"shooter": shooter.name, "name": victim.name, "hex": h.label, "die": die})
    r.data["text"] = f"{shooter.name}'s missed shot strikes {victim.name} in {h.label} (stray-shot die {die})"
    return r, victim
