"""Les Guerres Fleuries in the terminal (``terminal.py``): the table as text, the units listed,
orders given in secret (the other side's stay face down until phase 4, and the keyboard changes
hands between the two sides' orders), a move ruled then made, and bad commands answered with
the reason."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from fixtures import gf_view as fx
from oriflamme.core.record import Game
from oriflamme.rulesets.guerres_fleuries import terminal
from oriflamme.rulesets.guerres_fleuries.ruleset import GuerresFleuries

SCENARIO = "battle-of-the-flowers"


class Term:
    """A console writing to a string and a scripted keyboard."""

    def __init__(self):
        self.buf = io.StringIO()
        self.console = Console(file=self.buf, width=220, color_system=None)
        self.prompts: list[str] = []

    def type(self, game, *lines) -> str:
        """Run play_turn once per line typed (a hand-over prompt takes the first Enter)."""
        feed = list(lines)
        start = self.buf.tell()

        def inp(prompt):
            self.prompts.append(prompt)
            if not feed:
                raise EOFError
            return feed.pop(0)
        while feed:
            if not terminal.play_turn(self.console, game, inp):
                break
        return self.buf.getvalue()[start:]


def forward_to(game: Game, phase: str) -> None:
    rs = game.ruleset
    for _ in range(400):
        side = rs.to_act(game.state)
        if rs.view(game.state, side)["phase"]["id"] == phase:
            return
        acts = rs.legal_actions(game.state, side)
        game.apply(next((a for a in acts if a.type == "end_phase"), acts[0]))
    raise AssertionError(f"phase {phase} not reached")


@pytest.fixture
def game():
    rs = GuerresFleuries()
    return Game(rs, rs.load_scenario(SCENARIO), 11)


# --- on a recorded view --------------------------------------------------------------------------
def test_the_table_as_text_shows_terrain_and_every_unit():
    v = fx.view()
    text = terminal.render_view(v, full=True)
    rows = [r for r in text.splitlines() if r[:4].strip().isdigit() and "|" in r]
    assert len(rows) == terminal.MAP_ROWS and all(len(r.split("|")[1]) == terminal.MAP_COLS for r in rows)
    grid = "\n".join(r.split("|")[1] for r in rows)
    for kind, ch in (("gentle_hill", "^"), ("wood", "T"), ("marsh", "~"), ("hamlet", "#"), ("stream", "-"), ("road", "=")):
        assert kind in {t["kind"] for t in v["table"]["terrain"]} and ch in grid, kind
    letters = terminal.unit_letters(v)
    for u in v["units"]:
        assert letters[u["id"]] in grid, u["id"]
    assert {letters[u["id"]] for u in v["units"] if u["side"] == "A" and u["kind"] != "character"} <= set("ABCDEFGHIJ")
    assert {letters[u["id"]] for u in v["units"] if u["side"] == "B" and u["kind"] != "character"} <= set("abcdefghij")
    # a unit is drawn where it stands: the jaguar knights' centre (60, 100) is their letter's cell
    r, c = int(100 / (120 / terminal.MAP_ROWS)), int(60 / (180 / terminal.MAP_COLS))
    assert rows[r].split("|")[1][c] == letters["a1"]


def test_every_terrain_kind_of_the_data_has_its_map_character():
    """Each kind of data/terrain.toml (gf-geom) is drawn with a character of its own family,
    not the fallback: the legend's letters are true for every table."""
    import tomllib
    from pathlib import Path

    import oriflamme.rulesets.guerres_fleuries as gf
    kinds = tomllib.loads((Path(gf.__file__).parent / "data" / "terrain.toml").read_text(encoding="utf-8"))
    ids = [k["id"] for rows in kinds.values() if isinstance(rows, list) for k in rows if isinstance(k, dict) and "id" in k]
    assert len(ids) > 10, ids
    family = {"colline_basse": "^", "colline_abrupte": "^", "bois": "T", "jungle": "T", "marais": "~", "marecage": "~",
              "champ": ":", "hameau": "#", "grande_construction": "#", "route": "=", "ruisseau": "-", "haie": "+",
              "terrain_irregulier": "%", "broussailles": "%"}
    for kind, ch in family.items():
        if kind in ids:
            assert terminal._terrain_char(kind) == ch, kind


def test_the_other_sides_orders_are_listed_face_down():
    hidden = fx.view(to_act="B", submitted={"A": True, "B": False}, a_orders={"a1": fx.SECRET_ORDER})
    rows = "\n".join(terminal.unit_rows(hidden))
    secret = next(o for o in fx.orders() if o["id"] == fx.SECRET_ORDER)
    a1 = next(r for r in rows.splitlines() if "Jaguar knights" in r)
    assert "order face down" in a1 and secret["name"] not in rows
    shown = fx.view(to_act="A", phase="p4", reveal=True, a_orders={"a1": fx.SECRET_ORDER})
    a1 = next(r for r in terminal.unit_rows(shown).__iter__() if "Jaguar knights" in r)
    assert secret["name"] in a1
    fr = "\n".join(terminal.unit_rows(hidden, "fr"))
    assert "ordre face cachée" in fr and "figurines" in fr


# --- on a real game --------------------------------------------------------------------------------
def test_orders_given_in_secret_and_revealed_together(game):
    rs = game.ruleset
    forward_to(game, "orders")
    first = rs.to_act(game.state)
    t = Term()
    opts = rs.options(game.state, first)["units"]
    uid = next(u for u, o in opts.items() if o.get("orders"))
    wait = next(o for o in opts[uid]["orders"] if o["id"] == "attendre")
    out = t.type(game, "", "units", f"orders {uid}", f"order {uid} attendre")
    names = {x.id: x.name for x in rs.sides(game.scenario)}
    assert f"{names[first]} gives its orders in secret" in t.prompts[0]   # the keyboard handed over first
    assert "attendre" in out and wait["ref"] in out            # the orders a unit may receive, cited
    assert f"{uid}: wait" in out
    assert not any(game.state.orders_in.values())              # chosen, not given yet
    out = t.type(game, "give")
    assert game.state.orders_in[first] and rs.to_act(game.state) != first, out
    second = rs.to_act(game.state)
    out = t.type(game, "", "units")
    assert f"{names[first]} has given its orders, face down. Pass the keyboard to {names[second]}" in t.prompts[-2]
    row = next(r for r in out.splitlines() if f" {uid} " in r)
    assert "order face down" in row and "wait" not in row and "attendre" not in row.lower()
    # the second side gives its orders: phase 4 reveals both sides' orders to everyone
    out = t.type(game, "give")
    name = next(u["name"] for u in rs.view(game.state, None)["units"] if u["id"] == uid)
    assert "The orders are revealed" in out
    assert f"{uid} {name}: attendre" in out


def test_a_move_ruled_then_made(game):
    rs = game.ruleset
    forward_to(game, "moves")
    side = rs.to_act(game.state)
    opts = rs.options(game.state, side)["units"]
    uid, o = next((u, o) for u, o in opts.items() if o.get("moves", {}).get("samples"))
    x, y, h = o["moves"]["samples"][0]
    t = Term()
    before = rs.clone(game.state)
    out = t.type(game, f"?move {uid} {x} {y} {h}")
    assert "allowance" in out and "GF seed 003" in out
    assert rs.digest(game.state) == rs.digest(before)          # a ruling changes nothing
    n = len(rs.events(game.state))
    out = t.type(game, f"move {uid} {x} {y} {h}")
    assert len(rs.events(game.state)) > n and "moves" in out
    u = next(u for u in rs.view(game.state, side)["units"] if u["id"] == uid)
    assert (round(u["x"], 1), round(u["y"], 1)) == (round(x, 1), round(y, 1))
    # a move beyond the allowance is refused with the rule, the state unchanged
    digest = rs.digest(game.state)
    uid2, o2 = next(((u, o) for u, o in rs.options(game.state, side)["units"].items() if o.get("moves")), (None, None))
    if uid2:
        u2 = next(u for u in rs.view(game.state, side)["units"] if u["id"] == uid2)
        far = u2["y"] - 100 if side == "A" else u2["y"] + 100
        out = t.type(game, f"move {uid2} {u2['x']} {far}")
        assert "Refused" in out and "GF seed 003" in out
        assert rs.digest(game.state) == digest


def test_bad_commands_are_answered_with_the_reason(game):
    forward_to(game, "orders")
    t = Term()
    out = t.type(game, "", "order nosuch attendre", "move x 1", "move nosuch a b", "odds nosuch", "frobnicate", "lang fr", "units")
    assert "no unit 'nosuch' of yours" in out
    assert "Commands:" in out                                   # an unknown command shows the help
    assert "Langue : français." in out and "unités" in out
    assert all("Traceback" not in p for p in t.prompts)


def test_ruleset_plugs_the_terminal_into_oriflamme_play():
    assert GuerresFleuries().terminal() is terminal
    for name in ("title", "render", "status", "summary", "play_turn"):
        assert callable(getattr(terminal, name))


def test_the_browser_module_names_every_marker_of_the_engine():
    """Each marker the state knows (battle/state.py MARKERS) has a colour and a name in both
    languages in the browser module (else it would be a grey dot without a legend)."""
    import re
    from pathlib import Path

    import oriflamme.rulesets.guerres_fleuries as gf
    from oriflamme.rulesets.guerres_fleuries.battle.state import MARKERS

    js = (Path(gf.__file__).parent / "static" / "module.js").read_text(encoding="utf-8")
    colours = re.search(r"const MARKERS = \{(.*?)\};", js, re.S).group(1)
    names = re.search(r"function markerName\(m\) \{(.*?)\}\[m\]", js, re.S).group(1)
    for m in MARKERS:
        assert re.search(rf"\b{m}: \"#[0-9a-f]{{6}}\"", colours), m
        assert re.search(rf"\b{m}: L\(\"[^\"]+\", \"[^\"]+\"\)", names), m


def test_oriflamme_play_opens_the_battle_in_the_terminal(tmp_path):
    """`oriflamme play battle-of-the-flowers --ruleset guerres-fleuries`: the title, the table as text,
    the units, then the prompt; 'units' and 'quit' answered."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    src = Path(__file__).resolve().parents[2] / "src"
    env = dict(os.environ, PYTHONPATH=str(src) + os.pathsep + os.environ.get("PYTHONPATH", ""), COLUMNS="200")
    r = subprocess.run([sys.executable, "-c", "import sys; from oriflamme.cli.main import main; sys.exit(main())",
                        "play", SCENARIO, "--ruleset", "guerres-fleuries", "--seed", "7"],
                       input="units\nquit\n", capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "The battle of the flowers" in out and "180 × 120 cm" in out
    assert "Map: 1 character = 3 cm across" in out
    assert "Deployment (GF seed 003 l.489-495)" in out
    assert out.count("Jaguar knights") >= 2            # the roster, then 'units'
    assert "Game left unfinished." in out


def test_odds_before_the_roll_in_the_terminal():
    """'odds UNIT' prints the unit's fire percentage per target and its melee percentages, as the
    ruleset's option_detail gives them (the combat code's previews)."""
    from guerres_fleuries.test_battle_ui_odds import facing
    rs, g = facing()
    side = rs.to_act(g.state)
    t = Term()
    fire = rs.option_detail(g.state, "A4")["fire"][0]
    melee = rs.option_detail(g.state, "A3")["melee"][0]
    assert side == "A"                                   # the deployment: side A places first
    text = t.type(g, "", "odds A4", "odds A3")
    b8, b2 = g.state.units["B8"].name, g.state.units["B2"].name
    assert f"fire at {b8}: {fire['percent']} %" in text and fire["steps"][0] in text
    assert f"melee against {b2}: {melee['percent']} % (theirs: {melee['enemy_percent']} %)" in text


def test_a_fire_order_announces_up_to_three_targets_in_the_terminal(game):
    """l.840: "Le joueur annonce quelles sont ces cibles" (OR-GF110): order UNIT tirer T1 T2."""
    rs = game.ruleset
    forward_to(game, "orders")
    side = rs.to_act(game.state)
    opts = rs.options(game.state, side)["units"]
    uid = next((u for u, o in opts.items() if any(x["id"] == "tirer" for x in o.get("orders", []))), None)
    if uid is None:
        pytest.skip("no unit of the side to act may fire")
    foes = [u.id for u in game.state.enemies(side)][:2]
    t = Term()
    out = t.type(game, "", f"order {uid} tirer {foes[0]} {foes[1]}", "orders", "give")
    assert f"→ {foes[0]}, {foes[1]}" in out
    u = game.state.units[uid]
    assert u.order == "tirer" and u.fire_targets == foes


def test_a_fire_order_at_three_targets_prints_each_volley_before_the_orders_are_given(game):
    """l.830, l.840 (OR-GF110, OR-GF140): 'order UNIT tirer T1 T2 T3' prints the server's ruling of that
    order — each target's files, firing figures and percentage before the roll, with the citations —
    as the page's fire form does. The shooter is set within range of the three (the table as it stands)."""
    rs = game.ruleset
    forward_to(game, "orders")
    side = rs.to_act(game.state)
    opts = rs.options(game.state, side)["units"]
    from oriflamme.rulesets.guerres_fleuries.battle import fire_play
    shooters = [u for u, o in opts.items() if any(x["id"] == "tirer" for x in o.get("orders", []))]
    if not shooters:
        pytest.skip("no unit of the side to act may fire")
    uid = max(shooters, key=lambda k: (fire_play.max_range(game.state.units[k]), k))
    u = game.state.units[uid]
    # the three narrowest enemy troops brought side by side 12 cm in front of the shooter
    foes = sorted((e for e in game.state.enemies(side) if e.kind == "troop" and e.base is None), key=lambda e: (e.width, e.id))[:3]
    ahead = -1 if side == "A" else 1    # side A faces y = 0
    u.x, u.y, u.heading = 90.0, 60.0, (0.0 if side == "A" else 180.0)
    gap = max(e.width for e in foes) + 1
    for i, e in enumerate(sorted(foes, key=lambda e: e.id)):
        e.x, e.y, e.heading = 90.0 + (i - 1) * gap, 60.0 + ahead * (12 + u.depth / 2 + e.depth / 2), (180.0 if side == "A" else 0.0)
    ids = [e.id for e in foes]
    action = {"type": "orders", "side": side, "orders": {uid: {"order": "tirer", "target": ids}}}
    ruling = rs.explain(game.state, rs.action_from_json(action))
    volleys = ruling["fire"][uid]["volleys"]
    out = Term().type(game, "", f"order {uid} tirer {' '.join(ids)}")
    assert f"→ {', '.join(ids)}" in out
    assert volleys, ruling["steps"]
    for v in volleys:
        name = game.state.units[v["target"]].name
        assert f"at {name}: " in out and f"{v['firing_figures']} figure(s) firing, {v['percent']} %" in out
    assert "OR-GF110" in out and "OR-GF140" in out
    assert game.state.units[uid].order is None        # nothing given yet: the draft only


def test_an_encounter_deployment_passes_the_keyboard_before_each_side():
    """l.491-507, OR-GF100, OR-GF141: each side deploys on its battle plan, unseen; the terminal clears and
    waits for Enter before each side's deployment, as before its orders."""
    rs = GuerresFleuries()
    g = Game(rs, rs.load_scenario("encounter-in-the-valley"), 2)
    first = rs.to_act(g.state)
    t = Term()
    out = t.type(g, "", "list")
    assert "battle plan in secret" in t.prompts[0] and "OR-GF141" in t.prompts[0]
    assert len([p for p in t.prompts if "battle plan" in p]) == 1      # once per side, not before each command
    end = next(a for a in rs.legal_actions(g.state) if a.type == "end_phase")
    g.apply(end)
    assert rs.to_act(g.state) != first
    t.prompts.clear()
    t.type(g, "", "list")
    assert "battle plan in secret" in t.prompts[0]
    assert out


def test_a_unit_hides_behind_a_building_from_the_terminal():
    """l.786, OR-GF144: in the orders phase the terminal lists the hide of a unit against a house (its rule
    in the line), and choosing it takes the unit off the table with the ruling's steps and citations. The
    position is test_battle_buildings_behind's (a band against a house's south wall, unseen from the
    north), put in a game record for the terminal."""
    from guerres_fleuries.test_battle_buildings_behind import setting
    rs = GuerresFleuries()
    g = Game(rs, rs.load_scenario(SCENARIO), 11)
    g.state, a, _ = setting()
    t = Term()
    out = t.type(g, "", "list")
    line = next(x for x in out.splitlines() if "Hide a behind a building" in x)
    n = line.split(".")[0].strip()
    out = t.type(g, n)
    assert "taken off the table, hidden behind" in out and "OR-GF144" in out and "l.786" in out
    assert g.state.units["a"].hidden and g.state.units["a"].behind["building"] == "house"
