"""The shared rules tests re-run under each edition wherever the rule exists: Magna Carta's rule
tests whose rule an edition keeps (its data does not change it) run again with the edition's
rules (``gamekit.RULESET``). Tests of a rule an edition changes are left out, with the reason."""

from __future__ import annotations

import pytest

import gamekit
from oriflamme.rulesets.magna_carta.rulesdata import editions

# Rules Cry Havoc keeps from Magna Carta: movement and infiltration (§4, the terrain rows it does
# not reprint), melee (its own tables are lost: MC §6.4, §6.5 are used), retreats and advances,
# casualties, stunned characters, the refusal of an illegal action, undo.
from test_engine_rules import (  # noqa: F401  (collected again here, under each edition)
    test_armoured_cannot_enter_deep_shallows_and_reason_is_cited,
    test_attack_odds_and_armour,
    test_attacker_retreats_on_b_and_cannot_retreat_next_to_enemy_combatants,
    test_casualty_choice_goes_to_the_side_hit,
    test_combat_restriction_armoured_cannot_attack_into_water,
    test_defender_retreats_and_attacker_advances,
    test_enemy_hex_cannot_be_crossed_unless_stunned,
    test_illegal_attack_refused_with_rule_and_state_unchanged,
    test_infiltration_results,
    test_infiltration_test_on_crossed_hex_only,
    test_infiltration_wounded_continues_within_wounded_allowance,
    test_one_live_character_per_hex_but_friends_can_be_crossed,
    test_several_attackers_shift_one_column,
    test_stunned_then_wounded_is_dead_and_stunned_forced_to_retreat_is_dead,
    test_terrain_costs_and_allowance,
)
# Left out under Cry Havoc: fire (two steps, tests/editions/test_cry_havoc_rules.py), stray shots
# (none in the aid), the stunned recovery (all stunned characters of the active side, l.136-137),
# the turn's step events (its own titles).

EDITIONS = sorted(editions())


@pytest.fixture(autouse=True, params=EDITIONS)
def edition(request, monkeypatch):
    monkeypatch.setattr(gamekit, "RULESET", request.param)
    return request.param


def test_the_games_follow_the_edition(edition):
    st = gamekit.game([". . . ."], [("a", "spearman", "A", "0101"), ("b", "spearman", "B", "0401")])
    assert st.ruleset_id == edition and st.rules.id == edition
