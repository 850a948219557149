"""Scenarios (gf-engine): the bundled battle, a battle from any two armies of the army builder,
errors naming the field, units mustered from the army documents (OR-GF30, 31, 35), codecs, the web
API keeping the orders hidden from the other seat, and the decisions' data."""

from __future__ import annotations

import copy
import json

import pytest
from fastapi.testclient import TestClient

from guerres_fleuries.battle_engine_kit import ruleset, state
from guerres_fleuries.seed import line
from oriflamme.core.errors import ScenarioError
from oriflamme.rulesets.guerres_fleuries import builder
from oriflamme.rulesets.guerres_fleuries.battle.muster import units_of
from oriflamme.rulesets.guerres_fleuries.battle.rules import rules


def test_the_bundled_scenario_is_listed_and_sets_up():
    rs = ruleset()
    assert "battle-of-the-flowers" in rs.scenario_ids()
    info = rs.scenario_info("battle-of-the-flowers").to_json()
    assert [s["id"] for s in info["sides"]] == ["A", "B"] and info["turns"] == 12
    st = state()
    assert {u.side for u in st.units.values()} == {"A", "B"}
    assert st.start_points["A"] == builder.validate(builder.examples()["aztec-host"])["total_points"] - 110  # pochteca


def test_a_battle_from_any_two_builder_armies():
    rs = ruleset()
    ex = builder.examples()
    sc = rs.scenario_from_json({"armies": {"A": ex["saurian-warband"], "B": ex["aztec-host"]}})
    assert sc.sides[0].name == ex["saurian-warband"]["name"]
    again = rs.scenario_from_json(json.loads(json.dumps(rs.scenario_to_json(sc))))
    assert rs.scenario_to_json(again) == rs.scenario_to_json(sc)
    st = rs.setup(sc, __import__("oriflamme.core.dice", fromlist=["Dice"]).Dice("x"))
    assert st.units["A1"].race == "saurien"


@pytest.mark.parametrize("data, field", [
    ({"armies": {"A": "aztec-host"}}, "armies"),
    ({"armies": {"A": "aztec-host", "B": "nobody"}}, "armies.B"),
    ({"armies": {"A": "aztec-host", "B": "aztec-host"}, "turns": 0}, "turns"),
    ({"armies": {"A": "aztec-host", "B": "aztec-host"}, "colour": 1}, "colour"),
    ({"armies": {"A": "aztec-host", "B": "aztec-host"}, "battlefield": {"width": "big"}}, "battlefield"),
])
def test_a_bad_scenario_names_its_field(data, field):
    with pytest.raises(ScenarioError, match=field.replace(".", r"\.")):
        ruleset().scenario_from_json(data, "my.json")


def test_an_invalid_army_is_refused_with_the_broken_rule():
    bad = copy.deepcopy(builder.examples()["aztec-host"])
    bad["units"][0]["groups"][0]["figures"] = 5  # under the 20-figure minimum (GF-B2)
    with pytest.raises(ScenarioError, match="armies.A.*not valid"):
        ruleset().scenario_from_json({"armies": {"A": bad, "B": "saurian-warband"}})


def test_units_are_mustered_with_their_profile():
    units = {u.id: u for u in units_of(builder.examples()["aztec-host"], "A", "test")}
    jag = units["A1"]
    assert (jag.kind, jag.race, jag.klass, jag.figures, jag.melee_weapon, jag.armour, jag.shields) == \
        ("troop", "homme", "A", 20, "maquahuitl", "coton", True)
    assert units["A4"].missile == "fronde" and units["A5"].missile == "arc" and units["A5"].mercenary
    assert units["A5"].cls == "M"  # GF-B4: mercenaries test as class M
    hero = units["A6"]
    assert hero.kind == "character" and hero.FC == 4 and hero.open_order
    # a line is one regimental stand of 10 bases in front (l.13, OR-GF31), 25 mm bases (l.12)
    assert "10 bases par socle" in line(13) and "25 mm" in line(12)
    assert jag.frontage == 10 and jag.ranks == 2 and jag.width == pytest.approx(25.0)
    saur = {u.id: u for u in units_of(builder.examples()["saurian-warband"], "B", "test")}
    assert saur["B7"].flyer and saur["B7"].kind == "creature" and saur["B8"].kind == "monster"


def test_casualties_shrink_the_footprint_rank_by_rank():
    units = {u.id: u for u in units_of(builder.examples()["aztec-host"], "A", "test")}
    u = units["A2"]  # 30 figures: 3 ranks of 10
    assert u.ranks == 3
    from oriflamme.rulesets.guerres_fleuries.battle.casualties import remove_figures
    remove_figures(u, 10)
    assert u.ranks == 2 and u.depth == pytest.approx(2 * rules().bases["troop"].depth_cm)


def test_the_decisions_are_in_the_data():
    r = rules()
    assert r.bases["character"].decision == "OR-GF30" and r.formations["column"].decision == "OR-GF31"
    assert r.deployment.decision == "OR-GF32" and r.victory.decision == "OR-GF33"
    assert r.mover_alias["condor"].decision == "OR-GF34"
    assert r.order_play["demi_tour"].decision == "OR-GF36, OR-GF111"
    # the deployment zone: 30 cm from the midline and from each side (l.495)
    assert "30cm de la ligne médiane" in line(495) and r.deployment.depth_from_midline_cm == 30


# --- the web API: the other seat never sees the orders ---------------------------------------------
@pytest.fixture
def client(tmp_path):
    from oriflamme.web.app import create_app
    from oriflamme.web.limits import Limits
    with TestClient(create_app(tmp_path / "g.sqlite3", limits=Limits(requests_per_second=0))) as c:
        yield c


def test_hidden_orders_through_the_web_api(client):
    r = client.post("/api/games", json={"scenario": "battle-of-the-flowers", "ruleset": "guerres-fleuries",
                                        "mode": "online"})
    assert r.status_code == 201, r.text
    g = r.json()
    gid, a, b = g["id"], g["seats"]["A"], g["seats"]["B"]

    def view(tok):
        r = client.get(f"/api/games/{gid}", headers={"X-Seat": tok})
        assert r.status_code == 200, r.text
        return r.json()

    def post(tok, action):
        r = client.post(f"/api/games/{gid}/actions", headers={"X-Seat": tok},
                        json={"action": action, "version": view(tok)["version"]})
        assert r.status_code == 200, r.text

    with client.websocket_connect(f"/api/games/{gid}/ws?seat={b}") as ws:
        assert ws.receive_json()["type"] == "hello"
        for _ in range(200):
            va = view(a)
            if va["phase"]["number"] == 3 and va["to_act"] == "A":
                break
            tok = a if va["to_act"] == "A" else b
            acts = view(tok)["options"]["actions"]
            pick = next((x["action"] for x in acts if x["action"]["type"] == "end_phase"), acts[0]["action"])
            post(tok, pick)
        orders = {uid: {"order": "attendre", "target": None} for uid, u in view(a)["options"]["units"].items()}
        post(a, {"type": "orders", "side": "A", "orders": orders})
        message = ws.receive_json()
        while message.get("type") != "update":
            message = ws.receive_json()
        assert "attendre" not in json.dumps(message)
    vb = view(b)
    assert vb["orders_submitted"]["A"] and not vb["revealed"]
    own_choices = vb.pop("options")  # B's own order menu lists "attendre" among its choices
    assert set(own_choices["units"]) <= {u["id"] for u in vb["units"] if u["side"] == "B"}
    assert "attendre" not in json.dumps(vb)
    assert all(u["order"] is None for u in vb["units"] if u["side"] == "A")
    assert any(u["order"] for u in view(a)["units"] if u["side"] == "A")
    # nor through the running game's record: A's orders action is reduced to who acted
    rec = client.get(f"/api/games/{gid}/record", headers={"X-Seat": b}).json()
    assert rec["seed"] is None and "attendre" not in json.dumps(rec)
    assert {"type": "orders", "side": "A", "private": True} in rec["actions"]
    own = client.get(f"/api/games/{gid}/record", headers={"X-Seat": a}).json()
    assert "attendre" in json.dumps(own["actions"])


def test_a_computer_sides_orders_stay_hidden_in_its_notes(tmp_path, monkeypatch):
    """A computer plays side A: its face-down orders reach side B's seat neither through the view,
    the log, nor the computer's explanations (ai_notes) before the reveal."""
    import time

    from oriflamme.web.app import create_app
    from oriflamme.web.limits import Limits
    monkeypatch.setattr("oriflamme.web.hub.BOT_PACE", 0.0)
    with TestClient(create_app(tmp_path / "b.sqlite3", limits=Limits(requests_per_second=0))) as c:
        r = c.post("/api/games", json={"scenario": "battle-of-the-flowers", "ruleset": "guerres-fleuries",
                                       "mode": "online", "ai": {"A": "random"}})
        assert r.status_code == 201, r.text
        g = r.json()
        gid, b = g["id"], g["seats"]["B"]
        seen_hidden = False
        end = time.monotonic() + 60
        while time.monotonic() < end:
            v = c.get(f"/api/games/{gid}", headers={"X-Seat": b}).json()
            if v["orders_submitted"]["A"] and not v["revealed"]:
                seen_hidden = True
                mine = v.pop("options", None)
                notes = json.dumps(v["ai_notes"])
                assert '"orders"' not in notes and "avancer" not in notes and "attendre" not in notes
                assert any(n.get("private") for n in v["ai_notes"])
                assert all(u["order"] is None for u in v["units"] if u["side"] == "A")
                assert mine is not None
                break
            if v["can_act"]:
                acts = v["options"]["actions"]
                pick = next((x["action"] for x in acts if x["action"]["type"] == "end_phase"), acts[0]["action"])
                c.post(f"/api/games/{gid}/actions", headers={"X-Seat": b}, json={"action": pick, "version": v["version"]})
            else:
                time.sleep(0.05)
        assert seen_hidden
