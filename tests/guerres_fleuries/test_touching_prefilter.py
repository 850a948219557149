"""``fighters.touching`` skips Shapely for units whose centres are farther apart than their
half-diagonals and the contact slack: it must agree with Shapely's test everywhere (OR-GF21)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from oriflamme.geometry import tabletop
from oriflamme.rulesets.guerres_fleuries.battle import fighters
from oriflamme.rulesets.guerres_fleuries.battle.state import Unit

coord = st.floats(min_value=0.0, max_value=60.0, allow_nan=False)
unit = st.builds(
    lambda side, x, y, heading, figures, frontage, ranks, w, d: Unit(
        id=f"{side}1", side=side, figures=figures, figures_max=figures, frontage=frontage, ranks=ranks,
        base_w=w, base_d=d, x=x, y=y, heading=heading),
    st.just("A"), coord, coord, st.floats(min_value=0.0, max_value=359.9),
    st.integers(1, 30), st.integers(1, 10), st.integers(1, 4),
    st.sampled_from([2.0, 2.5, 4.0, 5.0]), st.sampled_from([2.0, 2.5, 4.0, 5.0]))


@settings(max_examples=400, deadline=None)
@given(unit, unit)
def test_touching_agrees_with_shapely(a, b):
    b.id, b.side = "B1", "B"
    exact = tabletop.in_contact(fighters.shape(a), fighters.shape(b), fighters.tolerance())
    assert fighters.touching(a, b) == exact


def test_touching_near_the_prefilter_bound():
    # two 10 × 2.5 cm lines end to end, 0.4 cm apart: in contact within the slack, not at 3 cm
    a = Unit(id="A1", side="A", figures=4, figures_max=4, frontage=4, ranks=1, x=10.0, y=10.0, heading=90.0)
    b = Unit(id="B1", side="B", figures=4, figures_max=4, frontage=4, ranks=1, x=10.0, y=20.4, heading=90.0)
    assert fighters.touching(a, b) == tabletop.in_contact(fighters.shape(a), fighters.shape(b), fighters.tolerance())
    b.y = 23.0
    assert not fighters.touching(a, b)
