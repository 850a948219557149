"""Lookups of rules rows by id or printed name."""

from oriflamme.rulesets.magna_carta.rulesdata import fold, load_ruleset


def test_ids_never_collide_with_another_rows_names():
    """An exact id is returned at once by ``Ruleset._find``: no other row may be known by it."""
    rs = load_ruleset()
    for table in (rs.terrain, rs.hexsides, rs.weapons, rs.weather):
        for rid in table:
            for other in table.values():
                assert other.id == rid or all(fold(n) != fold(rid) for n in other.names), (rid, other.id)


def test_names_case_and_accents_optional():
    rs = load_ruleset()
    assert rs.find_weapon("ARBALETE").id == "crossbow"
    assert rs.find_terrain("broussailles").id == "brush"
    assert rs.find_weather("Tempete").id == "storm"
    assert rs.find_cover("Lourde") == "heavy"
