"""The weather the spells bring (GF La magie: *Pluie diluvienne de Tlaloc* l.1270, *Vent d'Ehecatl* l.1314;
OR-GF122): a table-wide lasting effect read by the moves, the fire and the burning buildings."""

from __future__ import annotations

from guerres_fleuries.battle_combat_kit import ByDie, battle
from guerres_fleuries.seed import line

from oriflamme.rulesets.guerres_fleuries.battle import buildings_play, fire_play, magic_play, turn, weather
from oriflamme.rulesets.guerres_fleuries.battle.actions import record


def troop(uid, side, **kw):
    from guerres_fleuries.battle_combat_kit import troop as kit_troop
    kw.setdefault("melee_weapon", "club")
    return kit_troop(uid, side, **kw)


def _priest(**kw):
    base = dict(kind="character", type="Prêtre majeur", name="Ixtlil", figures=1, figures_max=1, frontage=1,
                ranks=1, x=150, y=100, FM=2, FC=2, armour="coton")
    base.update(kw)
    return troop("priest", "A", **base)


def _cast(st, spell, target, **dice):
    dice.setdefault("d100", [1])
    record(st, magic_play.cast(st, "priest", spell, target, ByDie(**dice)))


# --- the wind of Ehecatl (l.1314) ---------------------------------------------------------------------------

def test_the_wind_takes_5_from_every_shot_and_halves_the_ranges_for_two_turns():
    """l.1314: "Tous les tirs subissent un malus de -5 et la distance est diminuée de moitié" "pendant 2 tours"."""
    assert "Tous les tirs subissent un malus de -5 et la distance est diminuée de moitié" in line(1314)
    archers = troop("archers", "B", missile="arc", order="tirer", x=90, y=40, figures=2, figures_max=2,
                    frontage=2, ranks=1)
    foe = troop("foe", "A", x=90, y=50, figures=2, figures_max=2, frontage=2, ranks=1)
    st = battle(_priest(), archers, foe)
    calm = fire_play.preview(st, "archers", "foe")
    _cast(st, "vent_d_ehecatl", "priest")
    windy = fire_play.preview(st, "archers", "foe")
    terms = {t["modifier"]: t["total"] for t in windy["ruling"]["modifiers_applied"]}
    assert terms["spell_vent"] == -5
    assert windy["situation"]["distance_cm"] == 2 * calm["situation"]["distance_cm"]
    assert any("l.1314" in c for c in windy["citations"])
    # a target beyond half the longest range is out of range in the wind
    far = fire_play.max_range(archers) * 0.75
    foe.y = 40 + far - 2
    assert fire_play.eligibility(st, archers, foe)["eligible"] is False
    st.turn += 1
    assert not fire_play.eligibility(st, archers, foe)["eligible"]
    st.turn += 1
    assert fire_play.eligibility(st, archers, foe)["eligible"]
    foe.y = 50
    assert fire_play.preview(st, "archers", "foe")["percent"] == calm["percent"]


def test_the_wind_sweeps_the_mist_away():
    """l.1314: "Tous les sorts de nuages, brouillards, etc. sont balayés" (the blur of Brume, l.1186)."""
    hero = troop("hero", "A", kind="character", type="Héros mineur", figures=1, figures_max=1, frontage=1, ranks=1,
                 x=150, y=80, armour="coton")
    archers = troop("archers", "B", missile="arc", order="tirer", x=150, y=70, figures=2, figures_max=2,
                    frontage=2, ranks=1)
    st = battle(_priest(y=92), hero, archers)
    _cast(st, "brume_de_tezcatlipoca", "hero", d4=[4])
    names = lambda: [m["modifier"] for m in fire_play.preview(st, "archers", "hero")["situation"].get("modifiers", [])]
    assert "spell_brume" in names()
    st.turn += 1
    _cast(st, "vent_d_ehecatl", "priest")
    assert "spell_brume" not in names()
    st.turn += 2  # the wind is over, the mist stays swept
    assert "spell_brume" not in names()


def test_the_wind_doubles_the_fires():
    """l.1314: "les incendies doublent d'intensité. Doublez les dégâts." (a burning building: 1 point the
    first turn, l.814, 2 in the wind)."""
    hut = {"id": "hut", "kind": "hameau", "name": "Hut", "material": "batiment_en_bois", "floors": 1,
           "points": [[80, 50], [90, 50], [90, 58], [80, 58]]}
    st = battle(_priest(), troop("e", "B", x=30, y=10), elements=[hut])
    buildings_play.set_alight(st, "hut")
    _cast(st, "vent_d_ehecatl", "priest")
    st.dice = ByDie(d4=[4, 4, 4, 4], d100=[100])
    buildings_play.burn(st, st.dice)
    assert st.buildings["hut"]["damage"] == 2


# --- the rain of Tlaloc (l.1270) ----------------------------------------------------------------------------

def test_the_rain_stops_the_units_under_it_then_leaves_mud():
    """l.1270: "La pluie va durer 1d4 tours. Si une unité se trouve sous celle-ci, elle ne pourra pas bouger ce
    tour. Le terrain … devient boueux pour la journée et les unités se déplaçant à travers subissent un malus de
    - ¼ au mouvement"; "50cm de diamètre" around the unit it is cast at (OR-GF122)."""
    assert "ne pourra pas bouger ce tour" in line(1270)
    wet = troop("wet", "B", x=150, y=60, figures=10, figures_max=10, frontage=10, ranks=1, order="avancer")
    dry = troop("dry", "B", x=30, y=60, figures=10, figures_max=10, frontage=10, ranks=1, order="avancer")
    st = battle(_priest(y=75), wet, dry, phase=6)
    plain = turn.move_budget(wet, st)[0]
    _cast(st, "pluie_diluvienne_de_tlaloc", "wet", d4=[2])
    assert not wet.disorder  # weather, not a magic attack on the unit (OR-GF122)
    movers = turn.movers(st, "B")
    assert wet not in movers and dry in movers
    st.turn += 1
    assert wet not in turn.movers(st, "B")
    st.turn += 1  # the rain is over (2 turns): the mud stays
    assert wet in turn.movers(st, "B")
    budget, _, _, steps = turn.move_budget(wet, st)
    assert budget == plain * 3 / 4 and "GF seed 003 l.1270" in [s["ref"] for s in steps]
    assert turn.move_budget(dry, st)[0] == plain


def test_the_rain_puts_out_the_fires_under_it():
    """l.1270: "Les incendies sont arrêtés immédiatement"."""
    hut = {"id": "hut", "kind": "hameau", "name": "Hut", "material": "batiment_en_bois", "floors": 1,
           "points": [[140, 50], [150, 50], [150, 58], [140, 58]]}
    far = {**hut, "id": "far", "points": [[20, 50], [30, 50], [30, 58], [20, 58]]}
    wet = troop("wet", "B", x=150, y=65, figures=10, figures_max=10, frontage=10, ranks=1)
    st = battle(_priest(y=80), wet, elements=[hut, far])
    buildings_play.set_alight(st, "hut")
    buildings_play.set_alight(st, "far")
    _cast(st, "pluie_diluvienne_de_tlaloc", "wet", d4=[1])
    assert not buildings_play.burning(st, "hut") and buildings_play.burning(st, "far")
    assert weather.rained_on(st, wet) is not None
