"""The magic items that change a roll in play (GF Table des objets magiques, seed 003 l.224-242; OR-GF151,
data/items_play.toml): the Masque's -5 to the blows at its bearer (or at the unit he controls) and -2 to
the morale of those who lose to him, the Ceinture's +15 to its bearer's blows, the Miroir's -15 to the
shots at its bearer, the Relique's +5 to its bearer's casts. Each is read in the preview (the percentage
before the roll) and in the ruling, with the printed sentence and its line."""

from __future__ import annotations

import pytest
from guerres_fleuries.battle_combat_kit import battle, troop
from guerres_fleuries.seed import line

from oriflamme.rulesets.guerres_fleuries import army_rows
from oriflamme.rulesets.guerres_fleuries import modifiers as mods
from oriflamme.rulesets.guerres_fleuries.battle import fire_play, items_play, magic_play, melee_play, morale_play

MELEE_TABLES = ("melee", "melee_creatures", "melee_monsters", "melee_pteradon")
MORALE_TABLES = ("morale", "morale_creatures", "morale_monsters")


def test_every_item_effect_names_an_item_of_the_army_builder_and_a_printed_modifier():
    items = army_rows.magic_items()
    for e in items_play.effects():
        assert e.item in items, e.item
        # the item's sentence in the seed is the modifier's printed sentence, at the cited line
        n = int(e.ref.rsplit("l.", 1)[1])
        assert e.item in line(n)
        tables = {"fire": ("fire",), "magic": ("magic",), "morale": MORALE_TABLES,
                  "melee": MELEE_TABLES if e.on == "at_bearer" else ("melee",)}[e.kind]
        for t in tables:
            row = mods.modifiers(t)[e.modifier]
            assert row.printed in line(n), (t, row.printed)
    values = {e.modifier: mods.modifiers({"morale": "morale"}.get(e.kind, e.kind))[e.modifier].value
              for e in items_play.effects() if e.kind != "melee"}
    assert values == {"item_masque_huitzilopochtli": -2, "item_miroir_tezcatlipoca": -15, "item_relique_sacree": 5}
    assert mods.modifiers("melee")["item_masque_huitzilopochtli"].value == -5
    assert mods.modifiers("melee")["item_ceinture_de_force"].value == 15


def hero(side="A", **kw):
    base = dict(kind="character", klass=None, figures=1, figures_max=1, frontage=1, ranks=1,
                melee_weapon="maquahuitl", armour="coton", CM=40, FM=3, FC=4, x=90, y=79)
    base.update(kw)
    return troop("hero", side, **base)


def clubs(**kw):
    base = dict(race="saurien", figures=30, figures_max=30, ranks=3, melee_weapon="club", armour="saurien",
                x=90, y=75)
    base.update(kw)
    return troop("clubs", "B", **base)


def pct(preview: dict) -> int:
    """The percentage a figure strikes with (the PMC, before it is multiplied by the figures in contact)."""
    return preview["ruling"]["pmc"]


def hero_against_clubs(item: str):
    """The melee previews of the hero and the clubs, without then with ``item`` on the hero."""
    h, b = hero(), clubs()
    st = battle(h, b, phase=10)
    plain = melee_play.preview(st, "hero", "clubs")
    h.magic_item = item
    return plain, melee_play.preview(st, "hero", "clubs")


def test_the_belt_adds_fifteen_to_its_bearer_blows_and_nothing_to_the_enemy():
    plain, belt = hero_against_clubs("Ceinture de force")
    assert pct(belt["a_on_b"]) == pct(plain["a_on_b"]) + 15
    assert pct(belt["b_on_a"]) == pct(plain["b_on_a"])
    assert belt["a_on_b"]["percent"] == plain["a_on_b"]["percent"] + 15   # one figure: the same
    assert any("Ceinture de force" in s for s in belt["a_on_b"]["explanation"])


def test_the_mask_takes_five_from_every_blow_at_its_bearer_and_at_the_unit_he_controls():
    plain, mask = hero_against_clubs("Masque de Huitzilopochtli")
    assert pct(mask["b_on_a"]) == pct(plain["b_on_a"]) - 5 and pct(mask["a_on_b"]) == pct(plain["a_on_b"])
    assert "OR-GF151" in mask["b_on_a"]["citations"] and "GF seed 003 l.229" in str(mask["b_on_a"]["citations"])
    # his unit: the clubs striking the jaguars he directly controls fight him too
    h, b = hero(magic_item="Masque de Huitzilopochtli"), clubs()
    jag = troop("jaguars", "A", klass="A", melee_weapon="maquahuitl", armour="coton", x=90, y=80, led_by="hero")
    h.x, h.y = 90, 95
    st = battle(jag, b, h, phase=10)
    led = pct(melee_play.preview(st, "jaguars", "clubs")["b_on_a"])
    h.magic_item = None
    assert led == pct(melee_play.preview(st, "jaguars", "clubs")["b_on_a"]) - 5
    # ... and the unit that lost the round against them tests its morale at -2
    h.magic_item = "Masque de Huitzilopochtli"
    sit, why = morale_play.situation(st, b, "lost_combat", jag)
    assert {"modifier": "item_masque_huitzilopochtli", "count": 1} in sit["modifiers"]
    assert any("Masque" in w for w in why)
    assert "item_masque_huitzilopochtli" not in str(morale_play.situation(st, b, "fire_losses", jag)[0])
    h.magic_item = None
    assert "item_masque_huitzilopochtli" not in str(morale_play.situation(st, b, "lost_combat", jag)[0])


def test_a_dead_bearer_item_does_nothing():
    h, b = hero(), clubs()
    h.magic_item = "Masque de Huitzilopochtli"
    jag = troop("jaguars", "A", klass="A", melee_weapon="maquahuitl", armour="coton", x=90, y=80, led_by="hero")
    st = battle(jag, b, h, phase=10)
    h.figures = 0
    assert items_play.modifiers(st, "melee", b, jag) == []


def test_the_mirror_takes_fifteen_from_every_shot_at_its_bearer():
    archers = troop("archers", "B", klass="C", missile="arc", order="tirer", x=90, y=60, heading=180.0)
    h = hero(x=90, y=80, heading=0.0)
    st = battle(archers, h)
    plain = fire_play.preview(st, "archers", "hero")
    assert plain["eligible"], plain
    h.magic_item = "Miroir de Tezcatlipoca"
    mirror = fire_play.preview(st, "archers", "hero")
    assert {"modifier": "item_miroir_tezcatlipoca"} in mirror["situation"]["modifiers"]
    assert mirror["ruling"]["final_pct"] < plain["ruling"]["final_pct"]
    assert any("Miroir" in s for s in mirror["explanation"])


def test_the_relic_adds_five_to_its_bearer_casts():
    p = troop("priest", "A", kind="character", type="Prêtre mineur", name="Ixtlil", figures=1, figures_max=1,
              frontage=1, ranks=1, x=90, y=90, FM=2, FC=2)
    foe = troop("foe", "B", x=90, y=80, figures=10, figures_max=10, ranks=1)
    st = battle(p, foe)
    plain = magic_play.preview(st, "priest", "Blessure", "foe")["success_if_d100_below"]
    p.magic_item = "Relique sacrée"
    assert magic_play.preview(st, "priest", "Blessure", "foe")["success_if_d100_below"] == plain + 5


@pytest.mark.parametrize("item", ["Casque de Tezcatlipoca", "Sandales de Yacatecuhtli", None])
def test_the_items_played_elsewhere_add_no_modifier(item):
    h, b = hero(magic_item=item), clubs()
    st = battle(h, b, phase=10)
    for kind in ("melee", "fire", "magic", "morale"):
        assert items_play.modifiers(st, kind, h, b) == [] and items_play.modifiers(st, kind, b, h) == []


# --- the Conque d'Ehecatl (l.232, OR-GF152) ----------------------------------------------------------------

def conch_game():
    from .battle_engine_kit import game, to_phase
    g = game("conch")
    g.state.units["A6"].magic_item = "Conque d'Ehecatl"   # Cuauhtli carries the conch instead of the helmet
    to_phase(g, 3)
    return g


def test_the_conch_gives_the_units_within_thirty_cm_five_to_their_morale_for_two_turns():
    import json

    from oriflamme.core.errors import IllegalAction
    from oriflamme.geometry import tabletop
    from oriflamme.rulesets.guerres_fleuries.battle.fighters import shape
    g = conch_game()
    rs, st = g.ruleset, g.state
    side = "A"
    offered = [a for a in rs.legal_actions(st, side) if a.type == "conch"]
    assert [a.unit for a in offered] == ["A6"]
    assert not any(a.type == "conch" for a in rs.legal_actions(st, "B"))
    bearer = st.units["A6"]
    near = {v.id for v in st.side_units(side) if v.kind == "troop" and v.alive
            and tabletop.nearest_distance(shape(bearer), shape(v)) <= 30}
    far = {v.id for v in st.side_units(side) if v.kind == "troop" and v.alive} - near
    assert near and far, (near, far)   # the bundled deployment puts some within 30 cm, some beyond
    r = rs.explain(st, offered[0].to_json())
    assert r["legal"] and set(r["units"]) == near and "GF seed 003 l.232" in r["citations"], r
    g.apply(offered[0])
    ev = st.log[-1]
    assert ev["type"] == "conch" and set(ev["units"]) == near and ev["until_turn"] == st.turn + 1
    for uid in near:
        sit, why = morale_play.situation(st, st.units[uid], "fire_losses")
        assert {"modifier": "item_conque_ehecatl", "count": 1} in sit["modifiers"], why
    for uid in far:
        assert "item_conque_ehecatl" not in str(morale_play.situation(st, st.units[uid], "fire_losses")[0])
    # the turn after still, not the third
    some = sorted(near)[0]
    for turn, heard in ((st.turn + 1, True), (st.turn + 2, False)):
        later = st.clone()
        later.turn = turn
        assert ("item_conque_ehecatl" in str(morale_play.situation(later, later.units[some], "fire_losses")[0])) is heard
    # once a battle: refused with the rule, the state unchanged
    assert not any(a.type == "conch" for a in rs.legal_actions(st, side))
    before = json.dumps(st.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as exc:
        rs.apply(st, {"type": "conch", "side": side, "unit": "A6"})
    assert "l.232" in exc.value.ref and "once a battle" in exc.value.reason
    assert json.dumps(st.to_json(), sort_keys=True) == before


def test_only_the_conch_bearer_may_sound_it():
    import json

    from oriflamme.core.errors import IllegalAction
    g = conch_game()
    rs, st = g.ruleset, g.state
    before = json.dumps(st.to_json(), sort_keys=True)
    for uid, words in (("A7", "does not carry"), ("A1", "does not carry"), ("B5", "not a character of side A")):
        r = rs.explain(st, {"type": "conch", "side": "A", "unit": uid})
        assert r["legal"] is False and words in r["reason"] and "l.232" in r["ref"], r
        with pytest.raises(IllegalAction):
            rs.apply(st, {"type": "conch", "side": "A", "unit": uid})
    assert json.dumps(st.to_json(), sort_keys=True) == before


# --- the Plume de Quetzalcoatl (l.237, OR-GF153) -------------------------------------------------------------

def feather_game():
    from .battle_engine_kit import game, to_phase
    g = game("feather")
    g.state.units["A6"].magic_item = "Plume de Quetzalcoatl"
    to_phase(g, 6)
    assert g.ruleset.to_act(g.state) == "A" and g.state.units["A6"].order == "avancer"
    return g


def test_the_feather_flies_its_bearer_over_a_friendly_unit_instead_of_his_move():
    import math
    g = feather_game()
    rs, st = g.ruleset, g.state
    u = st.units["A6"]
    offered = [a for a in rs.legal_actions(st, "A") if a.type == "feather"]
    assert [a.unit for a in offered] == ["A6"]
    assert not any(a.type == "feather" for a in rs.legal_actions(st, "B"))
    # a friendly unit straight in front of him: he flies over it (no interpenetration, l.638-642)
    dest = (u.x, u.y - 40.0, u.heading)
    friend = st.units["A1"]
    friend.x, friend.y, friend.heading = u.x, u.y - 20.0, 0.0
    r = rs.explain(st, {"type": "feather", "side": "A", "unit": "A6", "x": dest[0], "y": dest[1], "heading": dest[2]})
    assert r["legal"] and "GF seed 003 l.237" in r["citations"] and "40.0 cm of 50" in r["steps"][-1], r
    n = len(st.log)
    g.apply(rs.action_from_json({"type": "feather", "side": "A", "unit": "A6", "x": dest[0], "y": dest[1],
                                 "heading": dest[2]}))
    assert (u.x, u.y) == dest[:2] and u.moved and math.isclose(u.moved_cm, 40.0)
    assert [e["type"] for e in st.log[n:]] == ["feather"] and not friend.disorder
    # his move is spent, and the feather too
    assert not any(getattr(a, "unit", None) == "A6" for a in rs.legal_actions(st, "A"))


def test_the_feather_is_refused_too_far_near_an_enemy_twice_or_to_another_character():
    import json

    from oriflamme.core.errors import IllegalAction
    g = feather_game()
    rs, st = g.ruleset, g.state
    u = st.units["A6"]
    enemy = st.units["B1"]
    enemy.x, enemy.y, enemy.heading = u.x, u.y - 45.0, 180.0
    before = json.dumps(st.to_json(), sort_keys=True)
    near_enemy = enemy.y + enemy.depth / 2 + 2.0 + u.depth / 2
    for act, words, ref in (
            ({"unit": "A6", "x": u.x, "y": u.y - 60.0}, "50 cm at most", "l.237"),
            ({"unit": "A6", "x": u.x, "y": near_enemy}, "within 5 cm of the enemy", "l.590"),
            ({"unit": "A7", "x": st.units["A7"].x, "y": st.units["A7"].y - 10.0}, "does not carry", "l.237")):
        doc = {"type": "feather", "side": "A", "heading": 0.0, **act}
        r = rs.explain(st, doc)
        assert r["legal"] is False and words in r["reason"] and ref in r["ref"], r
        with pytest.raises(IllegalAction):
            rs.apply(st, doc)
    assert json.dumps(st.to_json(), sort_keys=True) == before
    # once a battle: the next turn, with a move order again, no feather
    g.apply(rs.action_from_json({"type": "feather", "side": "A", "unit": "A6", "x": u.x, "y": u.y - 10.0, "heading": 0.0}))
    later = st.clone()
    later.turn += 1
    u2 = later.units["A6"]
    u2.moved = False
    r = rs.explain(later, {"type": "feather", "side": "A", "unit": "A6", "x": u2.x, "y": u2.y - 10.0, "heading": 0.0})
    assert r["legal"] is False and "once a battle" in r["reason"], r


# --- the Armure de Teteoinnan (l.233, OR-GF154) ---------------------------------------------------------------

class Script:
    """d100s from a script, any other die 1."""

    def __init__(self, *d100):
        self.d100 = list(d100)
        self.rolled = []

    def roll(self, sides=10):
        v = self.d100.pop(0) if sides == 100 and self.d100 else 1
        self.rolled.append((sides, v))
        return v


def test_the_armour_ignores_the_wounds_of_weapons_that_are_not_magic():
    from oriflamme.rulesets.guerres_fleuries.battle.casualties import Ledger
    h, b = hero(magic_item="Armure de Teteoinnan"), clubs()
    st = battle(h, b, phase=10)
    ledger = Ledger()
    ledger.note(h, 3, b)
    dice = Script()
    events = ledger.apply(st, dice)
    assert h.wounds == [] and h.alive and dice.rolled == []       # no wound rolled: all ignored
    assert [e["type"] for e in events] == ["armour"] and events[0]["ignored"] == 3
    assert ledger.ignored == {("hero", "clubs"): 3} and "OR-GF154" in events[0]["citations"]
    # without the armour the same blows wound him
    h2 = hero()
    st2 = battle(h2, clubs(), phase=10)
    plain = Ledger()
    plain.note(h2, 1, st2.units["clubs"])
    assert [e["type"] for e in plain.apply(st2, Script(50))] == ["wound"]


def test_the_armour_ignores_a_magic_weapon_wound_on_thirty_or_less():
    from oriflamme.rulesets.guerres_fleuries.battle.casualties import Ledger
    h = hero(magic_item="Armure de Teteoinnan")
    foe = hero("B", magic_weapon="Crainte", x=90, y=75, heading=180.0)
    foe.id = "foe"
    st = battle(h, foe, phase=10)
    ledger = Ledger()
    ledger.note(h, 2, foe)
    dice = Script(30, 31, 50)          # the first ignored (30), the second wounds (31), then its wound's d100
    events = ledger.apply(st, dice)
    assert events[0]["type"] == "armour" and events[0]["d100"] == [30, 31] and events[0]["ignored"] == 1
    assert [e["type"] for e in events[1:]] == ["wound"] and ledger.wounds == {"hero": 1}
    assert ledger.ignored == {("hero", "foe"): 1}


def test_a_wound_the_armour_ignores_is_no_loss_in_the_melee(monkeypatch):
    """The combat's loser is the side that lost more (l.1554): the clubs strike the hero twice, he strikes
    them once; his armour wards both wounds, so the clubs lose the round."""
    from oriflamme.rulesets.guerres_fleuries.battle import melee_play as mp

    def strike(state, x, y, dice):
        return {"type": "melee", "unit": x.id, "side": x.side, "target": y.id, "hits": 2 if x.id == "clubs" else 1,
                "explanation": [f"{x.id} strikes"], "citations": ["GF seed 003 l.1541"]}
    monkeypatch.setattr(mp, "_strike", strike)
    for item, loser in (("Armure de Teteoinnan", "clubs"), (None, "hero")):
        h, b = hero(magic_item=item), clubs()
        st = battle(h, b, phase=10)
        events = mp.resolve(st, Script(*([50] * 20)))
        outcome = [e for e in events if e.get("type") == "melee_outcome"]
        assert outcome and f"{loser} loses the combat" in outcome[0]["text"].lower(), outcome
        assert (h.wounds == []) is (item is not None)


# --- the Bouclier de Tonatiuh (l.239, OR-GF155) -----------------------------------------------------------------

def test_the_shield_deflects_its_potential_of_enemy_spells_then_breaks_on_its_bearer():
    from guerres_fleuries.battle_combat_kit import ByDie

    from oriflamme.rulesets.guerres_fleuries.battle.actions import record
    priest = troop("priest", "B", kind="character", type="Prêtre mineur", name="Hssith", figures=1, figures_max=1,
                   frontage=1, ranks=1, x=90, y=80, heading=180.0, FM=2, FC=2)
    h = hero(x=90, y=92, magic_item="Bouclier de Tonatiuh")
    st = battle(priest, h)
    st.log = []

    def cast(dice):
        events = magic_play.cast(st, "priest", "Blessure", "hero", dice)
        record(st, events)
        st.turn += 1   # one spell a turn (l.1136)
        return events
    first = cast(ByDie(d100=[10], d4=[2]))          # works; the shield's potential: 2
    assert first[0]["shield"] == {"unit": "hero", "potential": 2, "deflected": True, "broken": False}
    assert h.wounds == [] and "deflected" in first[0]["text"] and "OR-GF155" in first[0]["citations"]
    second = cast(ByDie(d100=[10]))                   # the potential is rolled once
    assert second[0]["shield"]["deflected"] and h.wounds == []
    assert items_play.shield_record(st, "hero") == (2, 2, False)
    third = cast(ByDie(d100=[10, 42, 50], d4=[1]))    # breaks: the failure table's 42 wounds the bearer (l.1692)
    assert third[0]["shield"]["broken"] and len(h.wounds) == 1 and [e["type"] for e in third[1:]] == ["wound"]
    assert "breaks" in third[0]["text"]
    # broken: the next spell takes effect as without it (Blessure wounds him)
    fourth = cast(ByDie(d100=[10, 50], d4=[1]))
    assert "shield" not in fourth[0] and any(e["type"] == "wound" and e["unit"] == "hero" for e in fourth[1:])


def test_the_shield_does_not_deflect_a_friend_spell_nor_a_failed_one():
    from guerres_fleuries.battle_combat_kit import ByDie
    friend = troop("priest", "A", kind="character", type="Prêtre mineur", name="Ixtlil", figures=1, figures_max=1,
                   frontage=1, ranks=1, x=90, y=80, FM=2, FC=2)
    h = hero(x=90, y=92, magic_item="Bouclier de Tonatiuh")
    st = battle(friend, h)
    assert magic_play._deflect(st, friend, h, ByDie(), {"explanation": [], "citations": []}) is None
    foe = troop("foe", "B", kind="character", type="Prêtre mineur", figures=1, figures_max=1, frontage=1, ranks=1,
                x=90, y=80, FM=2, FC=2)
    st = battle(foe, h)
    events = magic_play.cast(st, "foe", "Blessure", "hero", ByDie(d100=[99, 50]))   # fails: no shield read
    assert "shield" not in events[0]
