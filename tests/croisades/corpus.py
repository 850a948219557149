"""Every text the cavalry charges (engine/charges.py) and Croisades' named terrain in the referee
make the engine write — events, rulings, refusals —, for the translation corpus of
tests/test_i18n.py (random play of Magna Carta's scenarios never announces a charge)."""

from __future__ import annotations

import tomllib
from importlib import resources

from oriflamme.core import registry
from oriflamme.core.dice import Dice
from oriflamme.core.errors import IllegalAction
from oriflamme.geometry.hexgrid import Hex
from oriflamme.rulesets.magna_carta.engine import charges, defensive_fire
from oriflamme.rulesets.magna_carta.referee import SituationError, adjudicate_situation


def corpus_texts() -> list[str]:
    cr = registry.get("croisades")
    out: list[str] = []

    def game(**changes):
        text = resources.files("oriflamme.rulesets.croisades").joinpath("scenarios", "caravan-ambush.toml").read_text("utf-8")
        data = tomllib.loads(text)
        data.pop("editions", None)
        for cid, fields in changes.items():
            next(c for c in data["character"] if c["id"] == cid).update(fields)
        return cr.setup(cr.scenario_from_json(data), Dice(3))

    def do(st, **a):
        return cr.apply(st, cr.action_from_json(a))

    def refusal(st, **a):
        act = cr.action_from_json(a)
        try:
            cr.apply(cr.clone(st), act)
        except IllegalAction as exc:
            out.append(exc.reason)
        r = cr.explain(st, act)
        out.extend(r.get("explanation", []))

    def problem(p):
        if p:
            out.append(p[0])

    def events(st):  # the step events name the edition's own step titles (data, both languages)
        log = [e for e in st.log if e["type"] not in ("phase", "step", "end_step", "step_skipped")]
        out.extend(e["text"] for e in log)
        for e in log:
            if "ruling" in e:
                out.extend(e["ruling"].get("explanation", []))

    def opts(st):
        return [cr.action_to_json(a) for a in cr.legal_actions(st, st.to_act())]

    # a charge met by a counter-charge, then combat
    st = game()
    refusal(st, type="announce_charge", char="renaud", target="yusuf", path=["0408"] * 6)  # not in step 2
    do(st, type="end_step")
    ch = next(o for o in opts(st) if o["type"] == "announce_charge" and o["char"] == "renaud" and o["target"] == "yusuf")
    out.extend(cr.explain(st, cr.action_from_json(ch))["explanation"])
    refusal(st, type="announce_charge", char="hugues", target="ahmed", path=["0705"] * 6)
    refusal(st, type="announce_charge", char="renaud", target="hakim", path=ch["path"])
    refusal(st, type="announce_charge", char="renaud", target="ahmed", path=ch["path"][:5])
    refusal(st, type="announce_charge", char="renaud", target="ahmed", path=["0508", "0608", "0709", "0809", "0909", "1008"])
    refusal(st, type="announce_charge", char="renaud", target="hugues", path=ch["path"])
    r, y, g = st.characters["renaud"], st.characters["yusuf"], st.characters["gautier"]
    side_turn, h, f = [], r.hex, r.facing
    for d in (4, 3, 3, 3, 3, 3):
        h = h.neighbour(d)
        side_turn.append(h)
    problem(charges.path_problem(st, r, st.characters["ahmed"], tuple(side_turn)))
    real = charges.charge_path
    charges.charge_path = lambda *args: None  # a path the rules allow but the engine's search misses
    try:
        refusal(st, **ch)
    finally:
        charges.charge_path = real
    do(st, **ch)
    refusal(st, type="end_step")
    path = tuple(Hex.from_label(x) for x in ch["path"])
    problem(charges.counter_problem(st, g, r, path, None))
    problem(charges.counter_problem(st, y, r, path, tuple(Hex.from_label(x) for x in ["1210", "1110", "1010", "0911", "0910"])))
    problem(charges.counter_problem(st, y, r, path, (Hex.from_label("1208"),)))
    problem(charges.counter_problem(st, y, r, path, tuple(Hex.from_label(x) for x in ["1310", "1210"])))
    do(st, type="counter_charge", char="yusuf", path=["1209", "1110"])
    problem(charges.rider_problem(st, r))
    problem(charges.target_problem(st, g, y))
    problem(defensive_fire.target_problem(st, r))
    do(st, type="end_step")
    refusal(st, type="move", char="renaud", path=ch["path"][:3])
    refusal(st, type="dismount", char="renaud", hex="0408")
    do(st, type="move", char="renaud", path=ch["path"][:-2])
    while st.step != "melee":
        do(st, **(opts(st)[-1] if st.pending else {"type": "end_step"}))
    out.extend(cr.explain(st, cr.action_from_json({"type": "attack", "attackers": ["renaud"], "defenders": ["yusuf"]}))["explanation"])
    events(st)

    # no counter-charge; a counter-charger who cannot reach the meeting hexes
    st = game()
    do(st, type="end_step")
    do(st, **ch)
    do(st, type="decline")
    events(st)
    st = game(hugues={"hex": "1209"})
    do(st, type="end_step")
    opt = next((o for o in opts(st) if o["type"] == "announce_charge" and o["char"] == "renaud" and o["target"] == "yusuf"), None)
    st = game()
    do(st, type="end_step")
    do(st, **ch)
    do(st, type="counter_charge", char="yusuf", path=["1209", "1110"])
    do(st, type="end_step")
    st.characters["hugues"].hex = Hex.from_label("1110")  # someone stands where the counter-charge meets
    do(st, type="move", char="renaud", path=ch["path"][:-2])
    events(st)
    del opt

    # riders who cannot charge: stunned, on a camel, a target out of sight
    st = game(renaud={"status": "stunned"}, yusuf={"status": "stunned"})
    do(st, type="end_step")
    problem(charges.rider_problem(st, st.characters["renaud"]))
    problem(charges.rider_problem(st, st.characters["yusuf"], "counter-charge"))
    problem(charges.rider_problem(st, st.characters["khafr"]))
    st = game()
    st.characters["gautier"].hex, st.characters["gautier"].facing = Hex.from_label("0807"), 2
    problem(charges.target_problem(st, st.characters["renaud"], st.characters["ahmed"]))
    st.characters["gautier"].hex, st.characters["gautier"].facing = Hex.from_label("0908"), 0  # a rider in the way
    y = st.characters["yusuf"]
    problem(charges.counter_problem(st, y, st.characters["renaud"], path, None))
    st.characters["gautier"].hex = Hex.from_label("0303")
    problem(charges.counter_problem(st, y, st.characters["renaud"], path, (y.hex.neighbour(2),)))  # a turn aside
    y.facing = 1
    problem(charges.counter_problem(st, y, st.characters["renaud"], path, None))
    problem(charges.rider_problem(st, st.characters["hugues"], "counter-charge"))

    # the referee: terrain named as marks, combat impossible, a cost from the hex left
    for sit in ({"kind": "melee", "ruleset": "croisades", "attackers": [{"attack": 20, "terrain": "Oasis"}],
                 "defenders": [{"defence": 5, "terrain": "Rempart"}]},
                {"kind": "melee", "ruleset": "croisades", "attackers": [{"attack": 20, "mounted": True, "terrain": ["Palmier (feuilles)", "0"]}],
                 "defenders": [{"defence": 5, "mounted": True, "terrain": ["Palmier (feuilles)", "0"]}]},
                {"kind": "melee", "ruleset": "croisades", "attackers": [{"attack": 20}], "defenders": [{"defence": 5, "terrain": "Tente"}]},
                {"kind": "melee", "ruleset": "croisades", "attackers": [{"attack": 20, "terrain": "Rempart"}], "defenders": [{"defence": 5}]},
                {"kind": "move_cost", "ruleset": "croisades", "terrain": "Balcon / Auvent", "from_terrain": "Intérieur de maison"}):
        try:
            r = adjudicate_situation(sit)
        except SituationError as exc:
            out.append(str(exc))
            continue
        out.extend(r["explanation"])
        if r.get("reason"):
            out.append(r["reason"])
    return out
