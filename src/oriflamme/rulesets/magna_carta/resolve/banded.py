"""Die tests read on a banded table (SEED-NOTES D16 for out-of-range results)."""

from __future__ import annotations

from .ruling import Ruling, distribution, face_keys, read_bands


def banded(r: Ruling, bands, mods: list, die: int | None, what: str) -> Ruling:
    total = 0
    for m in mods:
        total += m.value
        r.step(f"{m.label}: {m.value:+d}", m.ref)
    r.data["die_modifier"] = total
    r.probabilities = distribution(lambda d: read_bands(bands, d + total).result)
    r.faces = face_keys(lambda d: _band_key(read_bands(bands, d + total)))  # the band read: its result, text and citation
    if die is not None:
        if not 1 <= die <= 10:
            return r.refuse(f"die {die} is not a d10 value (1-10)")
        m = die + total
        band = read_bands(bands, m)
        r.die, r.modified_die, r.result = die, m, band.result
        clamp = ""
        if m < bands[0].low or m > bands[-1].high:
            clamp = " (beyond the table: nearest band, SEED-NOTES D16)"
        r.step(f"{what}: die {die} {total:+d} = {m}{clamp}: {band.label}", band.ref)
    return r



def _band_key(band) -> tuple:
    return band.result, band.low
