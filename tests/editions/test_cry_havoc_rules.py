"""Cry Havoc's own rules in play (seed 002): the two-step fire, no defensive fire, the recovery
phase, the lost melee tables said in the ruling, the jump table, the turn's titles."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from gamekit import ScriptedDice, game
from oriflamme.core import registry
from oriflamme.core.chance import enumerate_outcomes
from oriflamme.core.record import Game
from oriflamme.rulesets.magna_carta.engine import Attack, EndStep, Fire, IllegalAction, apply, explain, legal_actions
from oriflamme.rulesets.magna_carta.engine.actions import Declare, Decline
from oriflamme.rulesets.magna_carta.engine.state import MOVEMENT, OFFENSIVE_FIRE
from oriflamme.rulesets.magna_carta.resolve.fire import FireSituation
from oriflamme.rulesets.magna_carta.resolve.jump import jump_test
from oriflamme.rulesets.magna_carta.rulesdata import load_ruleset
from oriflamme.rulesets.cry_havoc.fire import two_step_fire

CH = load_ruleset("cry-havoc")
OPEN = [". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . .",
        ". . . . . . . . . . . . . . .", ". . . . . . . . . . . . . . ."]


def expected(sit: FireSituation, band: str, weapon: str) -> dict[str, Fraction]:
    """The distribution enumerated over both dice, independently of the resolver: the seed's
    rules read from the data."""
    fs = CH.fire_steps
    hit_mod = (2 if band == "long" else 0) + (2 if sit.cover != "none" else 0) + (1 if sit.shooter_wounded else 0) \
        + (1 if sit.shooter_in_tree else 0)
    dmg_mod = (2 if sit.target_armour else 0) + (-2 if weapon == "crossbow" else 0)
    col = "cavalry" if sit.target_mounted else "infantry"
    rows = {r.die: getattr(r, col) for r in fs.damage}
    out: dict[str, Fraction] = {}
    for a, b in product(range(1, 11), repeat=2):
        if not 1 <= a + hit_mod <= 6:
            k = "-"
        else:
            k = rows[min(max(b + dmg_mod, 1), 10)]
        out[k] = out.get(k, Fraction(0)) + Fraction(1, 100)
    return out


@pytest.mark.parametrize("weapon, distance, band", [("short_bow", 4, "short"), ("short_bow", 18, "long"),
                                                    ("crossbow", 12, "short"), ("crossbow", 25, "long"),
                                                    ("javelin", 9, "long")])
@pytest.mark.parametrize("mounted, armour, cover, wounded, tree", [
    (False, False, "none", False, False), (False, True, "light", False, True), (True, False, "none", True, False),
    (True, True, "light", True, True)])
def test_two_step_fire_probabilities_are_exact(weapon, distance, band, mounted, armour, cover, wounded, tree):
    if tree and not CH.weapons[weapon].from_tree:
        tree = False
    sit = FireSituation(weapon=weapon, distance=distance, target_mounted=mounted, target_armour=armour, cover=cover,
                        shooter_wounded=wounded, shooter_in_tree=tree)
    r = two_step_fire(CH, sit)
    assert r.legal and r.data["band"] == band
    assert r.probabilities == {k: v for k, v in sorted(expected(sit, band, weapon).items()) if v}
    assert sum(r.probabilities.values()) == 1


def test_both_steps_are_explained_and_cited():
    r = two_step_fire(CH, FireSituation(weapon="crossbow", distance=20, target_armour=True, cover="light"), 1, 9)
    assert r.data["hit"] is True and r.data["to_hit_modified"] == 5 and r.data["damage"] == "R2"
    text = r.explanation
    assert any("Longue portée: +2 (CH seed 002 l.238)" == t for t in text)
    assert any("Couverture: +2 (CH seed 002 l.239)" == t for t in text)
    assert any(t.startswith("damage die 9 +0 = 9: row 9, Infanterie: R2") and "CH seed 002 l.209" in t for t in text)
    miss = two_step_fire(CH, FireSituation(weapon="crossbow", distance=20, cover="light"), 3, 1)
    assert miss.result == "-" and miss.data["hit"] is False and miss.data["damage"] is None
    assert "damage_die" not in miss.data  # the damage die is not read after a miss


def test_out_of_range_and_unseen_targets_are_refused_as_in_magna_carta():
    r = two_step_fire(CH, FireSituation(weapon="javelin", distance=13))
    assert not r.legal and "beyond" in r.reason


def test_a_fire_in_play_rolls_the_damage_die_only_on_a_hit():
    st = game(OPEN, [("s", "archer", "A", "0103"), ("t", "spearman", "B", "0603"), ("u", "spearman", "B", "1405")],
              dice=[2, 3], ruleset="cry-havoc")
    apply(st, Fire("s", "t"))
    ev = next(e for e in st.log if e["type"] == "fire")
    assert ev["result"] == "B" and st.characters["t"].status == "wounded"
    st = game(OPEN, [("s", "archer", "A", "0103"), ("t", "spearman", "B", "0603"), ("u", "spearman", "B", "1405")],
              dice=[7], ruleset="cry-havoc")  # a miss: one die only (ScriptedDice fails on a second), no stray shot
    apply(st, Fire("s", "t"))
    assert next(e for e in st.log if e["type"] == "fire")["result"] == "-"
    assert not [e for e in st.log if e["type"] == "stray_shot"]


def test_chance_outcomes_of_a_fire_match_the_ruling():
    rs = registry.get("cry-havoc")
    game_ = Game(rs, rs.load_scenario("the-village"), "chance")
    st = game_.state
    fire = next(a for a in rs.legal_actions(st) if getattr(a, "type", "") == "fire") if any(
        getattr(a, "type", "") == "fire" for a in rs.legal_actions(st)) else None
    if fire is None:
        pytest.skip("no shot at the start of the village")
    ruling = rs.explain(st, fire)

    def result(events):  # the fire event's result key
        return next(e["result"] for e in events if e.get("type") == "fire")
    outs = enumerate_outcomes(rs, st, fire, label_of=result)
    assert sum(o.probability for o in outs) == 1
    assert max(len(o.dice) for o in outs) == 2 and min(len(o.dice) for o in outs) == 1  # a miss rolls once
    assert {o.label: float(o.probability) for o in outs} == pytest.approx(ruling["probabilities"])


def test_no_defensive_fire_and_no_declaration():
    st = game(OPEN, [("s", "archer", "A", "0103"), ("t", "spearman", "B", "0903")], ruleset="cry-havoc")
    assert not [a for a in legal_actions(st) if isinstance(a, Declare)]
    with pytest.raises(IllegalAction, match="no defensive fire"):
        apply(st, Declare("s", "offensive_and_defensive"))
    mc = game(OPEN, [("s", "archer", "A", "0103"), ("t", "spearman", "B", "0903")])
    assert [a for a in legal_actions(mc) if isinstance(a, Declare)]  # Magna Carta has it (§5.1)
    assert "defensive_fire.new_phase" not in CH.sequence.hook_names()


def test_recovery_phase_raises_every_stunned_character_of_the_active_side():
    """l.136-137: at the end of A's phase, A's stunned characters get up — one stunned in A's own
    phase too (Magna Carta §2.1 (4) waits for his side's next phase)."""
    for rid, recovered in (("cry-havoc", True), ("magna-carta", False)):
        st = game(OPEN, [("a", "spearman", "A", "0302"), ("x", "spearman", "A", "0101", {"status": "stunned"}),
                         ("d", "spearman", "B", "1405")], ruleset=rid, step=MOVEMENT)
        st.characters["x"].stunned_in_phase = st.phase_no  # stunned during his own side's phase
        while st.active == "A" and not st.over:
            apply(st, EndStep())
        assert (st.characters["x"].status == "healthy") is recovered, rid


def test_melee_ruling_says_the_table_is_lost():
    st = game(OPEN, [("a", "man_at_arms", "A", "0302"), ("d", "spearman", "B", "0303")], ruleset="cry-havoc", step="melee")
    r = explain(st, Attack(("a",), ("d",)))
    lost = "table lost: Magna Carta §6.5 used (CH seed 002 l.149-155, l.282-309; SEED-NOTES §3)"
    assert lost in r.explanation
    assert r.data["table_lost"]["fr"] == "table perdue : Magna Carta §6.5 appliquée"
    assert r.steps[r.explanation.index(lost)].msg == "data.bilingual"
    mc = game(OPEN, [("a", "man_at_arms", "A", "0302"), ("d", "spearman", "B", "0303")], step="melee")
    assert not any("table lost" in t for t in explain(mc, Attack(("a",), ("d",))).explanation)


def test_jump_table_with_armour():
    assert [jump_test(CH, armour=False, wounded=False, two_hexes=False, die=d).result for d in (7, 8, 9, 10)] == \
        ["success", "refusal", "refusal", "bad_landing"]
    assert jump_test(CH, armour=True, wounded=False, two_hexes=False, die=6).result == "refusal"   # 6 + 2 = 8
    assert jump_test(CH, armour=True, wounded=True, two_hexes=True, die=5).modified_die == 7     # armour only
    r = jump_test(CH, armour=True, wounded=False, two_hexes=False)
    assert r.probabilities == {"success": Fraction(1, 2), "refusal": Fraction(1, 5), "bad_landing": Fraction(3, 10)}


def test_the_turn_follows_the_four_phases_with_their_titles():
    st = game(OPEN, [("s", "archer", "A", "0103"), ("t", "spearman", "B", "1405")], ruleset="cry-havoc")
    assert st.step == OFFENSIVE_FIRE
    apply(st, EndStep())
    ev = [e for e in st.log if e["type"] == "step"][-1]
    assert ev["text"] == "Movement (Phase de mouvement)" and ev["ref"] == "CH seed 002 l.132-133"


WATER_ROW = [" ".join("." * 12)] * 5 + [". . . . . w . . . . . ."] + [" ".join("." * 12)] * 6  # 0606 is water


@pytest.mark.parametrize("die, status", [(5, None), (6, "stunned"), (7, "stunned"), (8, "wounded")])
def test_a_riders_jump_under_cry_havoc(die, status):
    """l.259-272 with armour +2 (a knight): 1-7 over; 8-9 falls stunned (before the obstacle);
    10 falls wounded — beyond it, his horse alive (the aid does not kill it, unlike MC §4.4.3)."""
    from oriflamme.rulesets.magna_carta.engine.actions import Move
    st = game(WATER_ROW, [("k", "knight", "A", "0607", {"facing": "N"}), ("z", "spearman", "B", "1212")],
              step="movement", dice=[die], ruleset="cry-havoc")
    apply(st, Move("k", ("0605", "0604")))
    k = st.characters["k"]
    jump = next(e for e in st.log if e["type"] == "jump")
    assert jump["ruling"]["modified_die"] == die + 2
    assert "CH seed 002" in jump["ruling"]["explanation"][-1]
    if status is None:
        assert k.mounted and [h.label for h in k.hexes] == ["0604", "0605"]
        return
    assert not k.mounted and k.status == status
    assert len(st.riders.horses) == 1 and not st.bodies.carcasses  # the horse lives, riderless
    if status == "wounded":
        assert next(e for e in st.log if e["type"] == "status")["ref"].startswith("CH seed 002 l.264")
