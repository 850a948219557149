"""The Magna Carta board's own browser files (issue 15, item 2): its stylesheet and its
strings are served from the ruleset's package beside the module, and every string the board
shows exists in English and in French."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from oriflamme.web.app import create_app

STATIC = Path(__file__).resolve().parents[1] / "src/oriflamme/rulesets/magna_carta/static"


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "static.sqlite3")) as c:
        yield c


def test_the_boards_stylesheet_and_strings_are_served_beside_the_module(client):
    css = client.get("/static/rulesets/magna-carta/board.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    assert ".board-svg.mc" in css.text
    js = client.get("/static/rulesets/magna-carta/board_texts.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]
    module = client.get("/static/rulesets/magna-carta/module.js").text
    assert 'from "./board_texts.js"' in module and '"./board.css"' in module


def _strings(lang: str) -> dict[str, str]:
    text = (STATIC / "board_texts.js").read_text()
    block = re.search(rf"\n  {lang}: {{\n(.*?)\n  }},", text, re.S).group(1)
    return dict(re.findall(r'^\s*"([\w.]+)": "((?:[^"\\]|\\.)*)",$', block, re.M))


def test_every_board_string_exists_in_both_languages():
    en, fr = _strings("en"), _strings("fr")
    assert len(en) > 30 and set(en) == set(fr)
    for key in en:
        assert en[key] and fr[key], key
        # the same placeholders on both sides
        assert set(re.findall(r"\{(\w+)\}", en[key])) == set(re.findall(r"\{(\w+)\}", fr[key])), key


def test_every_key_the_board_uses_is_defined():
    """The keys the board's files ask `t()` for, under the board's own prefixes, are in its strings."""
    en = _strings("en")
    used = set()
    for name in ("module.js", "board.js"):
        used |= set(re.findall(r'\bt\("((?:card|animal|victory|die|board|legend)\.[\w.]+)"', (STATIC / name).read_text()))
        used |= set(re.findall(r'"((?:card|animal|victory|die|board)\.[\w.]+)"', (STATIC / name).read_text()))
    page = (STATIC.parents[3] / "oriflamme/web/static/i18n.js").read_text()
    assert len(used) > 20
    missing = sorted(k for k in used if k not in en and f'"{k}"' not in page)
    assert not missing
