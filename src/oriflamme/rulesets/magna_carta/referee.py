"""The digital referee: one situation typed in as JSON, adjudicated by the rules.

:func:`adjudicate_situation` validates one situation (a ``dict`` decoded from JSON), calls the
pure resolvers of :mod:`oriflamme.rulesets.magna_carta.resolve` and returns the ruling as a JSON-ready ``dict``. It
does no I/O: the ``oriflamme adjudicate`` command and the web server call it.

Bad input (an unknown kind or field, a missing field, a wrong type, a die that is not a d10, an
unknown weapon, terrain, cover or weather) raises :class:`SituationError`, whose message names
the field (``field attackers[0].attack: expected an integer, got 'eight'``). A situation that is
well formed but not allowed by the rules (odds below 1-1, an axe at a dead range...) is *not*
an error: it is a normal result with ``"legal": false`` and a ``reason``.

>>> r = adjudicate_situation({"kind": "melee", "attackers": [{"attack": 8}],
...     "defenders": [{"defence": 3, "armour": True, "terrain": "+"}], "die": 5})
>>> r["odds"], r["column"], r["modified_die"], r["result"]
('2-1', '1-1', 6, 'A')
"""

from __future__ import annotations

import difflib
from typing import Annotated, Any, Callable, Iterable

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .resolve.fire import FireSituation, fire
from .resolve.infiltration import Infiltrator, Opposer, infiltration_test
from .resolve.jump import jump_test
from .resolve.melee import Fighter, melee
from .resolve.movement import allowance, move_cost
from .resolve.ruling import Ruling, Step
from .rulesdata import COVER_ORDER, Ruleset, load_ruleset, ruleset_id

__all__ = ["KINDS", "SituationError", "adjudicate_situation", "adjudicate_all"]


class SituationError(ValueError):
    """A situation is malformed. ``field`` is its path (``attackers[0].attack``) or ``""``;
    ``index`` is set by :func:`adjudicate_all` (0-based position in the input array)."""

    def __init__(self, message: str, field: str = "", index: int | None = None):
        self.message = message
        self.field = field
        self.index = index
        super().__init__(self.render())

    def render(self) -> str:
        return f"field {self.field}: {self.message}" if self.field else self.message


# --- the schema ---------------------------------------------------------------------------------
Die = Annotated[int, Field(ge=1, le=10)]
_MARK_ALIASES = {"-": "-", "\u2212": "-", "\u2013": "-", "0": "0", "+": "+"}


def show(value: Any) -> str:
    """A value as the user typed it in JSON, for error messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return str(value)


DEF_PLUS = "def+"  # "Def. +": "+" to a defender, "0" to him attacking (SEED-NOTES D4)


def _mark(value: Any) -> str:
    """A mark ("-", "0", "+", "Def. +"), or a terrain name of the situation's ruleset, kept as
    typed and read with the ruleset (:func:`_resolve_mark`)."""
    if isinstance(value, str) and value.strip() in _MARK_ALIASES:
        return _MARK_ALIASES[value.strip()]
    if isinstance(value, str) and value.replace(" ", "").replace(".", "").lower() == DEF_PLUS:
        return DEF_PLUS
    if isinstance(value, str) and len(value.strip()) > 1 and any(c.isalpha() for c in value):
        return value.strip()
    raise ValueError(f'expected a terrain mark "-", "0" or "+" (or "Def. +", or a terrain of the ruleset), got {show(value)}')


def _resolve_mark(rs: Ruleset, value: str, attacking: bool, field: str, mounted: bool = False) -> tuple[str, str | None]:
    """The mark a fighter takes, and the step that says where it came from (None: typed in)."""
    if value in ("-", "0", "+"):
        return value, None
    if value == DEF_PLUS:
        mark = "0" if attacking else "+"
        return mark, f"'Def. +' counts {mark} for the {'attacker' if attacking else 'defender'}"
    t = _lookup(rs.find_terrain, value, field)
    mark = t.mark_for(mounted, attacking)  # "Def. +" (combat_attacking), a rider's own mark (combat_mounted)
    how = " (Def. +)" if attacking and t.combat_attacking is not None else (
        " (mounted)" if mounted and t.combat_mounted is not None and not (attacking and t.combat_attacking is not None) else "")
    return mark, f"{t.names[0]}: terrain mark {mark}" + how


class _Model(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class _Fighter(_Model):
    mounted: bool = False
    armour: bool = False
    terrain: Any = "0"
    name: str = ""

    @field_validator("terrain", mode="before")
    @classmethod
    def _check_terrain(cls, v: Any) -> Any:
        return _terrain(v)


class Attacker(_Fighter):
    attack: int = Field(ge=0)
    charging: bool = False


class Defender(_Fighter):
    defence: int = Field(ge=1)
    counter_charging: bool = False


def _terrain(v: Any) -> str | tuple[str, str]:
    """One mark, or a rider's two hexes' marks."""
    if isinstance(v, list):
        if len(v) != 2:
            raise ValueError(f"a rider's terrain lists the marks of his two hexes, got {len(v)} item(s)")
        return (_mark(v[0]), _mark(v[1]))
    return _mark(v)


class _Ruled(_Model):
    kind: str
    ruleset: str = "magna-carta"


class MeleeSituation(_Ruled):
    attackers: list[Attacker] = Field(min_length=1)
    defenders: list[Defender] = Field(min_length=1)
    extra_shifts: list[int] = []
    weather: str | None = None
    die: Die | None = None


class Shooter(_Model):
    wounded: bool = False
    in_tree: bool = False


class Target(_Model):
    mounted: bool = False
    armour: bool = False
    cover: Any = "none"

    @field_validator("cover", mode="before")
    @classmethod
    def _cover(cls, v: Any) -> Any:
        if isinstance(v, str):
            return v
        if isinstance(v, list) and all(isinstance(c, str) for c in v):
            return v
        raise ValueError(f"expected a cover name (or a rider's two hexes' covers), got {show(v)}")


class FireSit(_Ruled):
    weapon: str
    distance: int = Field(ge=0)
    shooter: Shooter = Shooter()
    target: Target = Target()
    weather: str = "clear"
    extra_modifiers: list[Any] = []
    die: Die | None = None
    damage_die: Die | None = None  # the second die of a two-step fire (Cry Havoc)


class InfiltratorModel(_Model):
    mounted: bool = False
    armour: bool = False
    wounded: bool = False


class OpposerModel(_Model):
    mounted: bool = False
    polearm: bool = False
    wounded: bool = False


class InfiltrationSit(_Ruled):
    infiltrator: InfiltratorModel = InfiltratorModel()
    opposer: OpposerModel = OpposerModel()
    die: Die | None = None


class Rider(_Model):
    armour: bool = False
    wounded: bool = False


class JumpSit(_Ruled):
    rider: Rider = Rider()
    two_hexes: bool = False
    die: Die | None = None


class Mover(_Model):
    mounted: bool = False
    armour: bool = False


class MoveCostSit(_Ruled):
    terrain: str
    mover: Mover = Mover()
    hexside: str | None = None
    dead_men: int = Field(default=0, ge=0)
    dead_horses: int = Field(default=0, ge=0)
    from_terrain: str | None = None  # the terrain of the hex left (an edition's "1 depuis l'intérieur")


class AllowanceSit(_Ruled):
    base: int = Field(ge=0)
    weather: str = "clear"
    indoors: bool = False


# --- pydantic errors -> one short human line --------------------------------------------------
def _path(loc: Iterable[Any]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _fields_of(model: type[BaseModel], loc: tuple) -> list[str]:
    """The field names allowed at ``loc`` (for 'did you mean')."""
    cur: Any = model
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        f = cur.model_fields.get(part)
        if f is None:
            return []
        ann = f.annotation
        args = getattr(ann, "__args__", ())
        cand = [ann, *args]
        cur = next((c for c in cand if isinstance(c, type) and issubclass(c, BaseModel)), None)
        if cur is None:
            return []
    return list(cur.model_fields)


def _message(model: type[BaseModel], err: dict) -> SituationError:
    loc = tuple(err["loc"])
    t = err["type"]
    got = show(err.get("input"))
    ctx = err.get("ctx") or {}
    field = _path(loc)
    if t == "missing":
        return SituationError("required field missing", field)
    if t == "extra_forbidden":
        known = [f for f in _fields_of(model, loc) if f != "kind"]
        close = difflib.get_close_matches(str(loc[-1]), known, n=1)
        hint = f"did you mean '{close[0]}'?" if close else f"known: {', '.join(known)}"
        return SituationError(f"unknown field ({hint})", field)
    if loc and loc[-1] == "die" and t in ("greater_than_equal", "less_than_equal", "int_type"):
        return SituationError(f"expected a d10 value 1-10, got {got}", field)
    if t in ("int_type", "int_parsing", "int_from_float"):
        return SituationError(f"expected an integer, got {got}", field)
    if t in ("bool_type", "bool_parsing"):
        return SituationError(f"expected true or false, got {got}", field)
    if t == "string_type":
        return SituationError(f"expected a string, got {got}", field)
    if t == "list_type":
        return SituationError(f"expected a list, got {got}", field)
    if t in ("model_type", "dict_type", "model_attributes_type"):
        return SituationError(f"expected an object, got {got}", field)
    if t == "greater_than_equal":
        return SituationError(f"must be at least {ctx.get('ge')}, got {got}", field)
    if t == "less_than_equal":
        return SituationError(f"must be at most {ctx.get('le')}, got {got}", field)
    if t == "too_short":
        return SituationError(f"expected at least {ctx.get('min_length')} item(s), got none", field)
    if t == "value_error":
        return SituationError(str(ctx.get("error", err["msg"])), field)
    return SituationError(f"{err['msg'].lower()}, got {got}", field)


def _validate(model: type[_Model], obj: dict) -> Any:
    try:
        return model.model_validate(obj)
    except ValidationError as exc:
        errs = exc.errors(include_url=False)
        # a typo shows as an unknown field *and* a missing one: name the typo first
        errs.sort(key=lambda e: e["type"] != "extra_forbidden")
        raise _message(model, errs[0]) from None


# --- lookups ----------------------------------------------------------------------------------
def _lookup(fn: Callable[[str], Any], text: str, field: str) -> Any:
    try:
        return fn(text)
    except KeyError as exc:
        raise SituationError(str(exc.args[0]), field) from None


def _ruleset(s: _Ruled) -> Ruleset:
    try:
        return load_ruleset(ruleset_id(s.ruleset))
    except KeyError as exc:
        raise SituationError(str(exc.args[0]), "ruleset") from None


# --- the kinds --------------------------------------------------------------------------------
def _fighter_terrain(t: str | tuple[str, str], mounted: bool, field: str, rs: Ruleset | None = None,
                     attacking: bool = False, notes: list | None = None) -> dict:
    if rs is not None:  # terrain names and "Def. +" read with the ruleset's table
        def read(v: str, f: str) -> str:
            mark, note = _resolve_mark(rs, v, attacking, f, mounted)
            if note and notes is not None:
                notes.append(Step(note, ref_of(rs, v)))
            return mark
        t = (read(t[0], f"{field}[0]"), read(t[1], f"{field}[1]")) if isinstance(t, tuple) else read(t, field)
    if isinstance(t, tuple):
        if not mounted:
            raise SituationError("a list of two hexes' marks is only for a mounted fighter "
                                 "(give one mark for a character on foot)", field)
        return {"marks": (t[0],), "hexes": ((t[0],), (t[1],))}
    return {"marks": (t,)}


def _melee(obj: dict) -> Ruling:
    s: MeleeSituation = _validate(MeleeSituation, obj)
    rs = _ruleset(s)
    if s.weather is not None:
        _lookup(rs.find_weather, s.weather, "weather")
    attackers = []
    notes: list[Step] = []
    for i, a in enumerate(s.attackers):
        attackers.append(Fighter(a.attack, mounted=a.mounted, armour=a.armour, charging=a.charging, name=a.name,
                                 **_fighter_terrain(a.terrain, a.mounted, f"attackers[{i}].terrain", rs, True, notes)))
    defenders = []
    for i, d in enumerate(s.defenders):
        defenders.append(Fighter(d.defence, mounted=d.mounted, armour=d.armour, counter_charging=d.counter_charging,
                                 name=d.name, **_fighter_terrain(d.terrain, d.mounted, f"defenders[{i}].terrain", rs,
                                                                 False, notes)))
    for who, side, flag in (("attackers", s.attackers, "charging"), ("defenders", s.defenders, "counter_charging")):
        for i, f in enumerate(side):
            if getattr(f, flag) and not f.mounted:
                what = "charge" if flag == "charging" else "counter-charge"
                return Ruling(kind="melee").refuse(f"{who}[{i}] is on foot: only a rider can {what}", "MC §7.6.1, §7.6.2")
    blocked = _no_combat(rs, s)  # "Combat impossible (à travers)", "Impossible" (Croisades)
    if blocked is not None:
        r = Ruling(kind="melee")
        r.steps[:0] = notes
        return r.refuse(f"{blocked.names[0]}: combat is impossible with a character there", blocked.ref)
    r = melee(rs, attackers, defenders, extra_shifts=s.extra_shifts, weather=s.weather, die=s.die)
    r.steps[:0] = notes
    return r


def _no_combat(rs: Ruleset, s: "MeleeSituation"):
    """A terrain named in the situation on which melee is impossible with the other side's
    terrain (its ``no_combat``, :meth:`Terrain.combat_blocked`), or None."""
    def named(fighters) -> list:
        out = []
        for f in fighters:
            for v in (f.terrain if isinstance(f.terrain, tuple) else (f.terrain,)):
                if v not in ("-", "0", "+", DEF_PLUS):
                    try:
                        out.append(rs.find_terrain(v))
                    except KeyError:
                        pass
        return out
    att, dfd = named(s.attackers), named(s.defenders)
    for x, others in [(x, dfd) for x in att] + [(x, att) for x in dfd]:
        if x.no_combat and (not others or any(x.combat_blocked(o) for o in others)):
            return x
    return None


def ref_of(rs: Ruleset, value: str) -> str:
    """The citation of a terrain named in a situation ("SEED-NOTES D4" for "Def. +")."""
    if value == DEF_PLUS:
        return "SEED-NOTES D4"
    try:
        return rs.find_terrain(value).ref
    except KeyError:
        return ""


def fire_situation(obj: dict) -> tuple[Ruleset, FireSituation, "FireSit", list[Step]]:
    """A fire situation validated and read with its ruleset: (ruleset, situation, the typed-in
    fields, the steps to put first). An edition with another fire (Cry Havoc's two steps)
    resolves it itself (its adapter's ``adjudicate``)."""
    s: FireSit = _validate(FireSit, obj)
    rs = _ruleset(s)
    _lookup(rs.find_weapon, s.weapon, "weapon")
    _lookup(rs.find_weather, s.weather, "weather")
    if isinstance(s.target.cover, list):
        if not s.target.mounted or len(s.target.cover) != 2:
            raise SituationError("a list of covers is for a mounted target's two hexes (exactly 2)", "target.cover")
        covers = [_lookup(rs.find_cover, c, f"target.cover[{i}]") for i, c in enumerate(s.target.cover)]
        cover = max(covers, key=COVER_ORDER.index)  # the rider gets the stronger cover (§5.5.4, D9)
    else:
        cover = _lookup(rs.find_cover, s.target.cover, "target.cover")
    ids: list[str] = []
    extra: list[int] = []
    for i, m in enumerate(s.extra_modifiers):
        if isinstance(m, bool) or not isinstance(m, (int, str)):
            raise SituationError(f"expected a fire modifier id or an integer, got {show(m)}", f"extra_modifiers[{i}]")
        if isinstance(m, int):
            extra.append(m)
        elif m in rs.fire_modifiers:
            ids.append(m)
        else:
            raise SituationError(f"unknown fire modifier {m!r} (known: {', '.join(sorted(rs.fire_modifiers))})",
                                 f"extra_modifiers[{i}]")
    situation = FireSituation(
        weapon=s.weapon, distance=s.distance, target_mounted=s.target.mounted, target_armour=s.target.armour,
        cover=cover, weather=s.weather, shooter_wounded=s.shooter.wounded, shooter_in_tree=s.shooter.in_tree,
        modifiers=tuple(ids), extra=tuple(extra),
    )
    first = []
    if isinstance(s.target.cover, list):
        first.append(Step(f"rider's two hexes: covers {' / '.join(covers)}, the stronger counts: {cover}",
                          "MC §5.5.4; SEED-NOTES D9"))
    return rs, situation, s, first


def _fire(obj: dict) -> Ruling:
    rs, situation, s, first = fire_situation(obj)
    if s.damage_die is not None:
        raise SituationError(f"{rs.title}'s fire has one die (use 'die')", "damage_die")
    r = fire(rs, situation, die=s.die)
    r.steps[:0] = first
    r.data.setdefault("band", None)
    return r


def _infiltration(obj: dict) -> Ruling:
    s: InfiltrationSit = _validate(InfiltrationSit, obj)
    rs = _ruleset(s)
    return infiltration_test(rs, Infiltrator(**s.infiltrator.model_dump()), Opposer(**s.opposer.model_dump()), die=s.die)


def _jump(obj: dict) -> Ruling:
    s: JumpSit = _validate(JumpSit, obj)
    rs = _ruleset(s)
    return jump_test(rs, armour=s.rider.armour, wounded=s.rider.wounded, two_hexes=s.two_hexes, die=s.die)


def _move_cost(obj: dict) -> Ruling:
    s: MoveCostSit = _validate(MoveCostSit, obj)
    rs = _ruleset(s)
    _lookup(rs.find_terrain, s.terrain, "terrain")
    if s.hexside is not None:
        _lookup(rs.find_hexside, s.hexside, "hexside")
    if s.from_terrain is not None:
        _lookup(rs.find_terrain, s.from_terrain, "from_terrain")
    r = move_cost(rs, s.terrain, mounted=s.mover.mounted, armour=s.mover.armour, hexside=s.hexside,
                  dead_men=s.dead_men, dead_horses=s.dead_horses, from_terrain=s.from_terrain)
    r.data.setdefault("cost", None)
    return r


def _allowance(obj: dict) -> Ruling:
    s: AllowanceSit = _validate(AllowanceSit, obj)
    rs = _ruleset(s)
    _lookup(rs.find_weather, s.weather, "weather")
    return allowance(rs, s.base, weather=s.weather, indoors=s.indoors)


KINDS: dict[str, Callable[[dict], Ruling]] = {
    "melee": _melee,
    "fire": _fire,
    "infiltration": _infiltration,
    "jump": _jump,
    "move_cost": _move_cost,
    "allowance": _allowance,
}


def adjudicate_situation(obj: Any) -> dict:
    """Adjudicate one situation; returns the ruling as a JSON-ready dict.

    Raises :class:`SituationError` for bad input (never for an illegal action, which is a
    normal result with ``"legal": false``)."""
    if not isinstance(obj, dict):
        raise SituationError(f"expected a JSON object, got {show(obj)}")
    if "kind" not in obj:
        raise SituationError(f"required field missing (one of {', '.join(KINDS)})", "kind")
    kind = obj["kind"]
    if not isinstance(kind, str):
        raise SituationError(f"expected a string, got {show(kind)}", "kind")
    if kind not in KINDS:
        close = difflib.get_close_matches(kind, list(KINDS), n=1)
        hint = f"did you mean '{close[0]}'?" if close else f"known: {', '.join(KINDS)}"
        raise SituationError(f"unknown kind {kind!r} ({hint})", "kind")
    return KINDS[kind](obj).to_json()


def adjudicate_all(objs: list) -> list[dict]:
    """Adjudicate every situation of a list, or raise the first :class:`SituationError` with its
    ``index`` set — before any result is handed out."""
    out = []
    for i, obj in enumerate(objs):
        try:
            out.append(adjudicate_situation(obj))
        except SituationError as exc:
            exc.index = i
            raise
    return out
