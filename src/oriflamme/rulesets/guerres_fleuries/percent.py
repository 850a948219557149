"""Percentages sliced into certain casualties and a residual chance (GF-E6, GF-H1): each full
100 % is a casualty (a wound against characters, creatures and monsters, GF-E9), then one more
if a d100 is at most the remainder. Kept exact as fractions."""

from __future__ import annotations

import math
from fractions import Fraction


def sliced(pct: Fraction) -> tuple[int, Fraction, int]:
    """``(eliminated, residual, extra_if_d100_at_most)`` of a non-negative percentage."""
    pct = max(Fraction(0), Fraction(pct))
    eliminated = math.floor(pct / 100)
    residual = pct - 100 * eliminated
    return eliminated, residual, math.floor(residual)


def number(x: Fraction):
    """An exact fraction as JSON: an int when whole, else a float rounded to 4 places."""
    x = Fraction(x)
    return x.numerator if x.denominator == 1 else round(float(x), 4)


def exact(x: Fraction) -> str:
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
