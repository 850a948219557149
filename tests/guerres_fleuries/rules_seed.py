"""Reading the seed's printed cells the way the rules tests need them (independently of the
package's own code): d100 ranges, fractions, percentages, modifier values."""

from __future__ import annotations

import re

from guerres_fleuries.seed import line


def ref_lines(ref: str) -> list[int]:
    """The seed line numbers a ``ref`` cites (``"GF seed 003 l.1374, l.1379"`` -> [1374, 1379];
    a range ``l.1398-1400`` gives its first line)."""
    return [int(n) for n in re.findall(r"l\.(\d+)", ref)]


def cells(n: int) -> list[str]:
    return [c.strip() for c in line(n).split("\t")]


def d100_range(text: str) -> tuple[int, int]:
    """``"00-50"`` -> (1, 50), ``"89-00"`` -> (89, 100) (GF-A2)."""
    low, high = (int(x) for x in text.strip().rstrip("%").split("-"))
    return (1 if low == 0 else low), (100 if high == 0 else high)


def band_max(text: str) -> int:
    """``"6-10"`` -> 10."""
    return int(text.split("-")[1])


def fraction(text: str) -> str:
    """A printed penalty as stored: ``"-1/2"`` -> ``"1/2"``; ``"/"`` -> ``"0"`` (OR-GF1);
    ``"tour entier"`` -> ``"1"``."""
    text = text.strip()
    if text == "/":
        return "0"
    if text == "tour entier":
        return "1"
    assert text.startswith("-"), text
    return text[1:]


def no_markup(text: str) -> str:
    return re.sub(r"<sup>.*?</sup>", "", text).strip()


def printed_value(text: str):
    """A printed modifier value: ``"+ 10"`` -> 10, ``"- FC <sup>9</sup>"`` -> "-FC",
    ``"+ FC X 2"`` -> "+FC*2"."""
    v = no_markup(text).replace(" ", "").replace("X", "*")
    return int(v) if re.fullmatch(r"[+-]\d+", v) else v
