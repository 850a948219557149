"""Lines of fire and cover (Magna Carta §5.5) on small inline boards: slopes (§5.5.2.3), water
and bridges (§5.5.2.4), firing over characters and its exceptions (§5.5.3, §5.5.3.1), combined
cover (§5.5.5), fire from a higher level (§5.5.6), the rider's hexes (D9)."""

from __future__ import annotations

import gamekit
from gamekit import H, game
from oriflamme.rulesets.magna_carta.engine import Fire, explain
from oriflamme.rulesets.magna_carta.engine.lines import line_of_fire
from oriflamme.rulesets.magna_carta.engine.state import OFFENSIVE_FIRE

#: symbols the shared legend lacks: a wooden bridge, a stone bridge with parapet, a beach
EXTRA_LEGEND = "  p bridge\n  P stone_bridge\n  _ beach\n"


def lgame(rows, chars, **kw):
    """``gamekit.game`` at the offensive fire step, with bridges and beaches in the legend."""
    saved = gamekit.LEGEND
    gamekit.LEGEND = saved + EXTRA_LEGEND
    try:
        return game(rows, chars, step=OFFENSIVE_FIRE, **kw)
    finally:
        gamekit.LEGEND = saved


def shoot(st, s, t):
    return explain(st, Fire(s, t))


def texts(r):
    return " | ".join(s.text for s in r.steps)


# --- slopes (§5.5.2.3) ---------------------------------------------------------------------
#: a height at level 1 (columns 1-2), its slope (column 3, level 0 at its foot), low ground east
HILL = [". . / . . . . ."] * 5
HILL_ELEV = ["1 1 . . . . . ."] * 5
#: the seed's example: crossbowmen A and B and archer C fire at D and E. A and B stand on the
#: height, D on the slope hex (half-way up), E on the low ground next to the slope, C on the low
#: ground east of D (docs/decisions.md, "Lines of fire": the geometric reading)
SLOPE_EXAMPLE = [("a", "crossbowman", "A", "0102"), ("b", "crossbowman", "A", "0104"), ("c", "archer", "A", "0703"),
                 ("d", "spearman", "B", "0303"), ("e", "spearman", "B", "0405")]


def test_seed_slope_example():
    """§5.5.2.3 example: from A and B, D has medium cover (the line crosses the top of the slope);
    they cannot fire at E, closer to the slope than they are; from C, D has no cover."""
    st = lgame(HILL, SLOPE_EXAMPLE, elevation=HILL_ELEV)
    for s in ("a", "b"):
        r = shoot(st, s, "d")
        assert r.legal and r.data["cover"] == "medium", texts(r)
        assert "half-way up" in texts(r)
        r = shoot(st, s, "e")
        assert not r.legal and "cannot see each other" in r.reason and "MC §5.5.2.3" in r.reason
    r = shoot(st, "c", "d")
    assert r.legal and r.data["cover"] == "none"
    assert "does not cross the top of the slope" in texts(r)


def test_slope_sight_is_mutual_and_needs_the_low_character_at_least_as_far():
    """§5.5.2.3: the low character must be at least as far from the slope hex as the high one
    (equal distance is enough); the rule binds the low character firing up as well."""
    st = lgame(HILL, [("a", "crossbowman", "A", "0203"), ("e", "spearman", "B", "0403")], elevation=HILL_ELEV)
    r = shoot(st, "a", "e")  # both one hex from the slope 0303
    assert r.legal and "at least as far" in texts(r) and r.data["cover"] == "none"
    st = lgame(HILL, [("x", "crossbowman", "A", "0404"), ("f", "spearman", "B", "0104")], elevation=HILL_ELEV)
    r = shoot(st, "x", "f")  # X, low, is closer to the slope 0304 than F on the height
    assert not r.legal and "cannot see each other" in r.reason


def test_a_shooter_on_the_slope_fires_up_and_the_height_hides_the_far_side():
    """§5.5.2.3 exception: the low character on the slope hex itself may fire at the height;
    two characters below on both sides of the height do not see each other across it."""
    rows = [". / . . / ."] * 3
    elev = [". . 1 1 . ."] * 3
    st = lgame(rows, [("s", "crossbowman", "A", "0202"), ("t", "spearman", "B", "0402")], elevation=elev)
    r = shoot(st, "s", "t")
    assert r.legal and "half-way up" in texts(r) and r.data["cover"] == "none"
    st2 = lgame(rows, [("s", "crossbowman", "A", "0102"), ("u", "spearman", "B", "0602")], elevation=elev)
    r = shoot(st2, "s", "u")
    assert not r.legal and "hides" in r.reason


def test_characters_below_the_crest_do_not_block_a_shooter_on_the_height():
    """§5.5.3.1: a shooter on the height fires freely over a character below he cannot see."""
    row = ". . / . . . . . . ."
    st = lgame([row] * 3, [("a", "crossbowman", "A", "0102"), ("h", "spearman", "B", "0402"),
                           ("t", "spearman", "B", "1002")], elevation=["1 1 . . . . . . . ."] * 3)
    r = shoot(st, "a", "t")
    assert r.legal and "out of the shooter's sight" in texts(r)
    st.characters["h"].hex = H("0602")  # now far enough to be seen: he blocks a crossbow
    assert "blocks the line of fire" in shoot(st, "a", "t").reason


# --- fire from a higher level (§5.5.6) -------------------------------------------------------
def test_cover_neutralised_from_a_higher_level_at_close_range():
    """§5.5.6: one level higher cancels a brush target's cover within half the short range
    (crossbow 1-15: 7 hexes), two levels within the whole short range; beyond, it counts."""
    assert [H("0102").distance(H(h)) for h in ("0802", "0902", "1302")] == [7, 8, 12]

    def cover(level, at):
        col = H(at).col  # 0-based: brush on the target's hex only
        rows = [" ".join("b" if i == col else "." for i in range(13))] * 2
        st = lgame(rows, [("x", "crossbowman", "A", "0102"), ("t", "spearman", "B", at)],
                   elevation=[f"{level} " + " ".join("." * 12)] * 2)
        r = shoot(st, "x", "t")
        assert r.legal
        return r.data["cover"], texts(r)
    c, t = cover(1, "0802")
    assert c == "none" and "shot from 1 level(s) higher at 7 hexes (within 7)" in t
    assert cover(1, "0902")[0] == cover(1, "1302")[0] == "light"
    assert cover(2, "1302")[0] == "none"


def test_slope_cover_holds_against_the_top_but_not_from_above_it():
    """§5.5.6 with §5.5.2.3: a slope target counts at the level of its top; a shooter one level
    above the top, within half the short range, cancels its medium cover."""
    rows = [". . / . ."] * 3
    st = lgame(rows, [("x", "crossbowman", "A", "0102"), ("t", "spearman", "B", "0302")], elevation=["1 1 . . ."] * 3)
    assert shoot(st, "x", "t").data["cover"] == "medium"
    st = lgame(rows, [("x", "crossbowman", "A", "0102"), ("t", "spearman", "B", "0302")], elevation=["2 1 . . ."] * 3)
    r = shoot(st, "x", "t")
    assert r.legal and r.data["cover"] == "none" and "level(s) higher" in texts(r)


# --- water and bridges (§5.5.2.4) -------------------------------------------------------------
def test_water_cover_and_the_bank():
    """§5.5.2.4: light cover in water, none for a shooter on the bank of that water (even not
    next to the target), kept by a shooter on a beach; the line crossing brush makes it medium
    (light + light, §5.5.5)."""
    rows = [". . w w w . . . .", ". b . . . . . . .", ". . . . . . . . ."]
    st = lgame(rows, [("x", "archer", "A", "0601"), ("t", "spearman", "B", "0301"), ("y", "archer", "A", "0901"),
                      ("z", "archer", "A", "0103")])
    r = shoot(st, "x", "t")
    assert r.legal and r.data["cover"] == "none" and "water's edge" in texts(r)
    assert shoot(st, "y", "t").data["cover"] == "light"   # away from the water
    r = shoot(st, "z", "t")  # through the brush in 0202
    assert r.legal and r.data["cover"] == "medium" and "combined cover: light + light = medium" in texts(r)
    st = lgame(["_ w w w ."], [("y", "archer", "A", "0101"), ("t", "spearman", "B", "0401")])
    assert shoot(st, "y", "t").data["cover"] == "light"   # on a beach at the water's edge


def test_bridges():
    """§5.5.2.4: a target in water has no cover from a shooter on a bridge over it; a line
    crossing a wooden bridge makes its cover medium, a stone bridge with parapet total."""
    river = ["_", "_", "w", "p", "w", "w", "w"]  # one column: a straight line of fire
    st = lgame(river, [("x", "archer", "A", "0104"), ("t", "spearman", "B", "0106")])
    r = shoot(st, "x", "t")
    assert r.legal and r.data["cover"] == "none" and "from a bridge" in texts(r)
    st = lgame(river, [("x", "archer", "A", "0101"), ("t", "spearman", "B", "0107")])
    r = shoot(st, "x", "t")
    assert r.legal and r.data["cover"] == "medium" and "for a target in water" in texts(r)
    st = lgame([r.replace("p", "P") for r in river], [("x", "archer", "A", "0101"), ("t", "spearman", "B", "0107")])
    r = shoot(st, "x", "t")
    assert not r.legal and "total" in r.reason


def test_no_fire_from_a_river_or_pond():
    """§5.5.2.4: a character in a water hex cannot fire (the "case eau", SEED-NOTES D14);
    the shallows are no such hex."""
    st = lgame([". w . . . ."], [("x", "archer", "A", "0201"), ("t", "spearman", "B", "0601")])
    r = shoot(st, "x", "t")
    assert not r.legal and "cannot fire" in r.reason and "MC §5.5.2.4" in r.reason
    st = lgame([". ~ . . . ."], [("x", "archer", "A", "0201"), ("t", "spearman", "B", "0601")])
    assert shoot(st, "x", "t").legal


# --- combined cover (§5.5.5) ----------------------------------------------------------------
def test_small_targets_combine_their_cover():
    """§5.5.5: a stunned character is a small target (light); light + light = medium, light +
    medium = total; a standing target keeps the strongest of its covers."""
    rows = [". . . . . .", ". . . . . b", ". . . . . ."]
    st = lgame(rows, [("x", "archer", "A", "0101"), ("t", "spearman", "B", "0601", {"status": "stunned"}),
                      ("u", "spearman", "B", "0602", {"status": "stunned"})])
    assert shoot(st, "x", "t").data["cover"] == "light"
    r = shoot(st, "x", "u")
    assert r.data["cover"] == "medium" and "combined cover: light + light = medium" in texts(r)
    st = lgame(rows, [("x", "archer", "A", "0101"), ("u", "spearman", "B", "0602", {"status": "stunned"})],
               hexsides="0602 N,NW,SW fence")
    r = shoot(st, "x", "u")
    assert not r.legal and "total" in r.reason
    st = lgame(rows, [("x", "archer", "A", "0101"), ("u", "spearman", "B", "0602")], hexsides="0602 N,NW,SW fence")
    assert shoot(st, "x", "u").data["cover"] == "medium"


# --- firing over characters (§5.5.3, §5.5.3.1) ------------------------------------------------
#: the seed's example: A (a horse archer), B, D, E against C, F, G. A fires over B, next to him,
#: at C; D, an archer on foot, cannot fire over E at F; A cannot fire over E (not next to him)
#: at G. Every target at short range, where firing over characters is otherwise forbidden.
MOUNTED_EXAMPLE = [("a", "horse_archer", "A", "0201", {"facing": "SE"}),  # his horse behind him in 0101
                   ("b", "spearman", "A", "0301"), ("c", "spearman", "B", "0501"),
                   ("d", "archer", "A", "0103"), ("e", "spearman", "A", "0203"), ("f", "spearman", "B", "0403"),
                   ("g", "spearman", "B", "0205")]


def test_seed_mounted_archer_example():
    st = lgame([". . . . . ."] * 6, MOUNTED_EXAMPLE)
    assert st.characters["a"].mounted
    r = shoot(st, "a", "c")
    assert r.legal and "a friend next to the mounted archer" in texts(r) and r.data["band"] == "short"
    r = shoot(st, "d", "f")
    assert not r.legal and "firing over E" in r.reason
    r = shoot(st, "a", "g")
    assert not r.legal and "firing over E" in r.reason


def test_mounted_archer_still_needs_the_other_conditions():
    """§5.5.3.1: only friends next to the mounted archer are exempt; an enemy next to him, or a
    friend further along, follows §5.5.3."""
    st = lgame([". . . . . ."] * 6, [("a", "horse_archer", "A", "0201", {"facing": "SE"}), ("b", "spearman", "A", "0202"),
                                     ("k", "spearman", "A", "0203"), ("c", "spearman", "B", "0205")])
    assert not shoot(st, "a", "c").legal


def test_formation_fires_over_its_front_line():
    """§5.5.3.1: a crossbowman behind a front line of three spearmen fires straight ahead between
    the two next to him, from the fourth hex on; not at a target off that strip or closer."""
    s = H("0205")
    front = [("f1", "spearman", "A", s.neighbour(1).label), ("f2", "spearman", "A", s.neighbour(2).label),
             ("f3", "spearman", "A", s.neighbour(1).neighbour(0).label)]
    row = " ".join("." * 12)
    for t, ok in (("0605", True), ("0705", True), ("0604", False), ("0504", False)):
        st = lgame([row] * 9, [("x", "crossbowman", "A", "0205"), *front, ("t", "spearman", "B", t)])
        r = shoot(st, "x", "t")
        assert r.legal == ok, (t, r.reason)
        if ok:
            assert "front line of a formation" in texts(r)
    st = lgame([row] * 9, [("x", "crossbowman", "A", "0205"), *front[:2], ("t", "spearman", "B", "0605")])
    assert not shoot(st, "x", "t").legal  # two men are no formation


def test_arab_formation_is_of_one_nationality():
    """§5.5.3.1: "pour le camp arabe, de même nationalité": a front line of three spearmen of two
    nationalities is no formation; of one nationality it is (the scenario's ``nationality``)."""
    s = H("0205")
    row = " ".join("." * 12)
    hexes = [s.neighbour(1).label, s.neighbour(2).label, s.neighbour(1).neighbour(0).label]
    for nats, ok in ((("syrian",) * 3, True), (("syrian", "syrian", "egyptian"), False),
                     (("syrian", "egyptian", "syrian"), False)):
        front = [(f"f{i}", "spearman", "A", h, {"nationality": n}) for i, (h, n) in enumerate(zip(hexes, nats))]
        st = lgame([row] * 9, [("x", "crossbowman", "A", "0205", {"nationality": "syrian"}), *front,
                               ("t", "spearman", "B", "0605")])
        r = shoot(st, "x", "t")
        assert r.legal == ok, (nats, r.reason)
        if ok:
            assert st.characters["f0"].nationality == "syrian"


def test_characters_in_water_and_stunned_ones_do_not_block():
    st = lgame([". . w . . ."], [("x", "crossbowman", "A", "0101"), ("o", "spearman", "B", "0301"),
                                 ("s", "spearman", "B", "0201", {"status": "stunned"}), ("t", "spearman", "B", "0601")])
    r = shoot(st, "x", "t")
    assert r.legal and "does not block" in texts(r)


# --- riders' hexes (D9) ------------------------------------------------------------------------
def test_line_of_fire_may_aim_at_another_hex():
    """D9: ``target_hex``/``shooter_hex`` choose which hex of a rider the line joins."""
    st = lgame([". . T . .", ". . . . ."], [("x", "archer", "A", "0101"), ("t", "spearman", "B", "0501")])
    x, t = st.characters["x"], st.characters["t"]
    assert not line_of_fire(st, x, t, "short").clear
    lof = line_of_fire(st, x, t, "short", target_hex=H("0502"), shooter_hex=H("0102"))
    assert lof.clear and lof.hexes[0] == H("0102") and lof.hexes[-1] == H("0502")


def corpus_shots():
    """(state, action) pairs of this file's situations, for the French coverage of tests/test_i18n.py."""
    out = []
    st = lgame(HILL, SLOPE_EXAMPLE, elevation=HILL_ELEV)
    out += [(st, Fire(s, t)) for s in "abc" for t in "de"]
    st = lgame(HILL, [("a", "crossbowman", "A", "0203"), ("e", "spearman", "B", "0403")], elevation=HILL_ELEV)
    out.append((st, Fire("a", "e")))
    rows, elev = [". / . . / ."] * 3, [". . 1 1 . ."] * 3
    out.append((lgame(rows, [("s", "crossbowman", "A", "0102"), ("u", "spearman", "B", "0602")], elevation=elev), Fire("s", "u")))
    st = lgame(HILL, [("x", "crossbowman", "A", "0404"), ("f", "spearman", "B", "0104")], elevation=HILL_ELEV)
    out.append((st, Fire("x", "f")))
    st = lgame([". . / . . . . . . ."] * 3, [("a", "crossbowman", "A", "0102"), ("h", "spearman", "B", "0402"),
                                             ("t", "spearman", "B", "1002")], elevation=["1 1 . . . . . . . ."] * 3)
    out.append((st, Fire("a", "t")))
    out.append((lgame([". . . . b"] * 2, [("x", "archer", "A", "0102"), ("t", "spearman", "B", "0502")],
                      elevation=["1 . . . ."] * 2), Fire("x", "t")))
    river = ["_", "_", "w", "p", "w", "w", "w"]
    for rows, chars in ((river, [("x", "archer", "A", "0104"), ("t", "spearman", "B", "0106")]),
                        (river, [("x", "archer", "A", "0101"), ("t", "spearman", "B", "0107")]),
                        ([x.replace("p", "P") for x in river], [("x", "archer", "A", "0101"), ("t", "spearman", "B", "0107")]),
                        ([". . w w w .", ". b . . . ."], [("z", "archer", "A", "0103"), ("t", "spearman", "B", "0301")]),
                        ([". w . . . ."], [("x", "archer", "A", "0201"), ("t", "spearman", "B", "0601")]),
                        ([". . . . . .", ". . . . . b"], [("x", "archer", "A", "0101"),
                                                         ("u", "spearman", "B", "0602", {"status": "stunned"})])):
        out.append((lgame(rows, chars), Fire(chars[0][0], chars[1][0])))
    st = lgame([". . . . . ."] * 6, MOUNTED_EXAMPLE)
    out += [(st, Fire("a", "c")), (st, Fire("a", "g"))]
    s = H("0205")
    front = [("f1", "spearman", "A", s.neighbour(1).label), ("f2", "spearman", "A", s.neighbour(2).label),
             ("f3", "spearman", "A", s.neighbour(1).neighbour(0).label)]
    st = lgame([" ".join("." * 12)] * 9, [("x", "crossbowman", "A", "0205"), *front, ("t", "spearman", "B", "0705")])
    out.append((st, Fire("x", "t")))
    st = lgame([". . . . . ."], [("x", "archer", "A", "0101"), ("t", "spearman", "B", "0601")])
    st.scenario["side"][0]["sun_in_eyes"] = True  # §5.4.4 (tests/test_weather.py)
    out.append((st, Fire("x", "t")))
    for lv in (1, 3):  # height with a dagger (D11)
        out.append((lgame([". . . ."], [("x", "javelinman", "A", "0101", {"weapon": "dagger"}),
                                        ("t", "spearman", "B", "0301")], elevation=[f"{lv} . . ."]), Fire("x", "t")))
    return out


def test_height_modifiers_of_dagger_and_javelin():
    """§5.4.4 and SEED-NOTES D11: a dagger thrown across one level +1, two levels +2, three or
    more not at all (§9.6.4); a javelin across two levels or more +1, one level nothing. The
    level difference counts either way (thrown up or down)."""
    want = {("dagger", 0): 0, ("dagger", 1): 1, ("dagger", 2): 2, ("dagger", 3): None,
            ("javelin", 0): 0, ("javelin", 1): 0, ("javelin", 2): 1, ("javelin", 3): 1}
    for (weapon, lv), mod in want.items():
        for shooter_high in (True, False):
            elev = [f"{lv} . . ." if shooter_high else f". . {lv} ."]
            st = lgame([". . . ."], [("x", "javelinman", "A", "0101", {"weapon": weapon}),
                                     ("t", "spearman", "B", "0301")], elevation=elev)
            r = shoot(st, "x", "t")
            if mod is None:
                assert not r.legal and "MC §9.6.4" in r.reason and "3 levels" in r.reason
                continue
            assert r.legal, r.reason
            assert r.data["die_modifier"] == mod, (weapon, lv, shooter_high)
            cited = [s for s in r.steps if "level(s) between" in s.text]
            assert bool(cited) == (mod > 0) and all("SEED-NOTES D11" in s.ref for s in cited)
