"""The actions of the leader-activation battle game (their JSON codec) and its log (events
with a structured message: key and arguments, English and French texts, ``data/texts.toml``)."""

from __future__ import annotations

from dataclasses import dataclass

from oriflamme.core.errors import IllegalAction

from .state import State
from .texts import both, say

TYPES = {"fire": ("unit", "target"), "move": ("unit", "to", "facing"), "declare": ("unit", "hex"),
         "resolve": ("hex",), "melee": ("hex",), "advance": ("hex",), "initiative": (), "rally": ("unit",), "end_step": ()}
FACING_NAMES = ("N", "NE", "SE", "S", "SW", "NW")


@dataclass(frozen=True)
class Action:
    type: str
    side: str
    unit: str | None = None
    target: str | None = None
    to: str | None = None
    facing: int | None = None
    hex: str | None = None

    def to_json(self) -> dict:
        out = {"type": self.type, "side": self.side}
        for k in TYPES[self.type]:
            out[k] = getattr(self, k)
        return out


def action_from_json(data) -> Action:
    if not isinstance(data, dict):
        raise IllegalAction(f"an action must be a JSON object (got {data!r:.60})")
    kind = data.get("type")
    if kind not in TYPES:
        raise IllegalAction(f"field type: expected one of {', '.join(TYPES)} (got {kind!r:.40})")
    if not isinstance(data.get("side"), str):
        raise IllegalAction("field side: expected a text")
    fields = TYPES[kind]
    extra = set(data) - {"type", "side", *fields}
    if extra:
        raise IllegalAction(f"unknown field(s) for {kind}: {', '.join(sorted(map(str, extra)))}")
    vals = {}
    for f in fields:
        v = data.get(f)
        if f == "facing":
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 5:
                raise IllegalAction("field facing: expected an integer from 0 (N) to 5 (NW)")
        elif not isinstance(v, str):
            raise IllegalAction(f"field {f}: expected a text")
        vals[f] = v
    return Action(kind, data["side"], **vals)


# --- the log ----------------------------------------------------------------------------------
def emit(state: State, key: str, side: str | None = None, ref: str = "", ruling: dict | None = None,
         **args) -> dict:
    ev = {"n": len(state.log), "turn": state.turn, "step": state.step, "type": key, "side": side,
          "msg": {"key": key, "args": args}, "text": say(key, "en", args), "text_fr": say(key, "fr", args),
          "ref": ref}
    if ruling is not None:
        ev["ruling"] = ruling
    state.log.append(ev)
    return ev


def side_name(state: State, side: str) -> dict:
    s = next(x for x in state.scenario.side if x.id == side)
    return both(s.name, s.name_fr or s.name)
