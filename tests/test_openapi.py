"""The OpenAPI schema (``/api/openapi.json``) describes what the server really does: live
responses — successes and errors, of every endpoint — are checked against it, with a small
validator of the JSON Schema keywords the schema uses (no dependency)."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from oriflamme.web.app import create_app
from oriflamme.web.limits import Limits


class Invalid(AssertionError):
    pass


TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is(value, t: str) -> bool:
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[t])


def validate(value, schema: dict, doc: dict, where: str = "$") -> None:
    """Check ``value`` against ``schema`` ($ref, type, enum, const, required, properties,
    additionalProperties, items, anyOf, minimum); :class:`Invalid` names the place."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        return validate(value, doc["components"]["schemas"][name], doc, where)
    if "anyOf" in schema:
        errors = []
        for sub in schema["anyOf"]:
            try:
                return validate(value, sub, doc, where)
            except Invalid as exc:
                errors.append(str(exc))
        raise Invalid(f"{where}: matches none of anyOf: {errors}")
    t = schema.get("type")
    if t is not None:
        types = t if isinstance(t, list) else [t]
        if not any(_is(value, x) for x in types):
            raise Invalid(f"{where}: {value!r:.60} is not {t}")
    if "enum" in schema and value not in schema["enum"]:
        raise Invalid(f"{where}: {value!r} not in {schema['enum']}")
    if "const" in schema and value != schema["const"]:
        raise Invalid(f"{where}: {value!r} is not {schema['const']!r}")
    if "minimum" in schema and _is(value, "number") and value < schema["minimum"]:
        raise Invalid(f"{where}: {value} < {schema['minimum']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                raise Invalid(f"{where}: required field {key!r} missing")
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, v in value.items():
            if key in props:
                validate(v, props[key], doc, f"{where}.{key}")
            elif extra is False:
                raise Invalid(f"{where}: field {key!r} not in the schema")
            elif isinstance(extra, dict):
                validate(v, extra, doc, f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            validate(v, schema["items"], doc, f"{where}[{i}]")


def test_the_validator_refuses_what_it_should():
    doc = {"components": {"schemas": {"E": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}}}}}
    validate({"error": "x"}, {"$ref": "#/components/schemas/E"}, doc)
    for bad in ({"detail": "x"}, {"error": 3}, []):
        with pytest.raises(Invalid):
            validate(bad, {"$ref": "#/components/schemas/E"}, doc)


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    app = create_app(tmp_path_factory.mktemp("oa") / "g.sqlite3", limits=Limits(requests_per_second=0))
    with TestClient(app) as c:
        yield c, c.get("/api/openapi.json").json()


def check(doc: dict, path: str, method: str, r) -> None:
    """``r`` (a live response) against the schema of ``path``/``method`` for its status."""
    op = doc["paths"][path][method]
    resp = op["responses"].get(str(r.status_code))
    if resp is None and r.status_code >= 400:
        resp = op["responses"].get("default")
    assert resp is not None, f"{method.upper()} {path}: status {r.status_code} is not documented ({r.text[:200]})"
    content = resp.get("content", {})
    ctype = r.headers["content-type"].split(";")[0]
    if ctype == "application/json":
        schema = content["application/json"]["schema"]
        validate(r.json(), schema, doc, f"{method.upper()} {path} {r.status_code}")
    else:
        assert ctype in content, (path, ctype, list(content))


def test_the_schema_shows_no_detail_errors_and_names_bodies_seats_and_the_websocket(live):
    _c, doc = live
    text = json.dumps(doc)
    assert "HTTPValidationError" not in text and '"detail"' not in text
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            # the lobby's routes take no seat header: joining gives one, "my games" sends its
            # tokens in the body (docs/api.md § Lobby)
            if path.startswith("/api/games/") and path not in ("/api/games/status", "/api/games/{game_id}/join"):
                names = {p["name"] for p in op.get("parameters", [])}
                assert {"X-Seat", "seat"} <= names, path
            if method == "post" and (path == "/api/games" or path.startswith("/api/games/")):
                assert op["requestBody"]["required"] is True, path
            for status, resp in op["responses"].items():
                if status.startswith(("4", "5")):
                    assert resp["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}, (path, status)
    assert doc["components"]["schemas"]["PostAction"]["required"] == ["action", "version"]
    ws = doc["x-websocket"]
    assert set(ws["close_codes"]) == {"4403", "4404", "4429", "4503"}


def test_live_responses_match_the_schema(live):
    c, doc = live
    check(doc, "/api/rulesets", "get", c.get("/api/rulesets"))
    check(doc, "/api/scenarios", "get", c.get("/api/scenarios"))
    check(doc, "/api/scenarios", "get", c.get("/api/scenarios", params={"ruleset": "nope"}))
    check(doc, "/api/rules/sections", "get", c.get("/api/rules/sections"))
    for body in ({"scenario": "the-hill", "seed": 4}, {"scenario": "the-hill", "mode": "online"},
                 {"scenario": "nope"}, {"scenario": "the-hill", "mode": "x"}, {"scenarioo": 1}):
        check(doc, "/api/games", "post", c.post("/api/games", json=body))
    check(doc, "/api/games", "post", c.post("/api/games", content=b"[" * 100 + b"]" * 100))
    g = c.post("/api/games", json={"scenario": "the-ford", "seed": 4}).json()
    gid, h = g["id"], {"X-Seat": g["seats"]["hotseat"]}
    P = "/api/games/{game_id}"
    check(doc, P, "get", c.get(f"/api/games/{gid}", headers=h, params={"log_from": 0}))
    check(doc, P, "get", c.get(f"/api/games/{gid}"))
    check(doc, P, "get", c.get(f"/api/games/{gid}", headers={"X-Seat": "forged"}))
    check(doc, P, "get", c.get("/api/games/nosuch", headers=h))
    check(doc, P + "/map", "get", c.get(f"/api/games/{gid}/map", headers=h))
    version = 0
    for _ in range(12):  # play into the movement step, every answer checked
        v = c.get(f"/api/games/{gid}", headers=h).json()
        if v["step"] == "movement":
            break
        r = c.post(f"/api/games/{gid}/actions", headers=h, json={"action": v["options"]["end_step"], "version": v["version"]})
        check(doc, P + "/actions", "post", r)
        version = r.json()["version"]
    v = c.get(f"/api/games/{gid}", headers=h).json()
    rider = sorted(set(v["options"]["reach"]) - set(v["options"]["moves"]))[0]
    check(doc, P + "/moves/{char_id}", "get", c.get(f"/api/games/{gid}/moves/{rider}", headers=h))
    check(doc, P + "/moves/{char_id}", "get", c.get(f"/api/games/{gid}/moves/nobody", headers=h))
    for body in ({"action": {"type": "end_step"}, "version": version + 5}, {"action": {"type": "teleport"}, "version": version},
                 {"action": {"type": "retreat", "char": rider, "path": []}, "version": version}, {"version": "1"}):
        check(doc, P + "/actions", "post", c.post(f"/api/games/{gid}/actions", headers=h, json=body))
    check(doc, P + "/actions", "post", c.post(f"/api/games/{gid}/actions", headers=h, content=b"{x"))
    move = next(iter(v["options"]["moves"].values()))[0]["action"] if v["options"]["moves"] else None
    for a in filter(None, ({"type": "end_step"}, {"type": "retreat", "char": rider, "path": []}, move)):
        check(doc, P + "/explain", "post", c.post(f"/api/games/{gid}/explain", headers=h, json={"action": a}))
    check(doc, P + "/explain", "post", c.post(f"/api/games/{gid}/explain", headers=h, json={"action": {"type": 5}}))
    if move:
        r = c.post(f"/api/games/{gid}/actions", headers=h, json={"action": move, "version": v["version"]})
        check(doc, P + "/actions", "post", r)
        version = r.json()["version"]
    check(doc, P + "/undo", "post", c.post(f"/api/games/{gid}/undo", headers=h, json={"version": version}))
    check(doc, P + "/undo", "post", c.post(f"/api/games/{gid}/undo", headers=h, json={"version": version + 9}))
    check(doc, P + "/undo", "post", c.post(f"/api/games/{gid}/undo", headers=h, json={}))
    check(doc, P + "/record", "get", c.get(f"/api/games/{gid}/record", headers=h))
    check(doc, P + "/report", "get", c.get(f"/api/games/{gid}/report", headers=h))
    check(doc, P + "/frames", "get", c.get(f"/api/games/{gid}/frames", headers=h))
    # the lobby's routes (docs/api.md § Lobby)
    o = c.post("/api/games", json={"scenario": "the-hill", "mode": "online", "open": True})
    check(doc, "/api/games", "post", o)
    check(doc, "/api/lobby", "get", c.get("/api/lobby"))
    for body in ({}, {"side": "A"}, {"side": 3}):
        check(doc, P + "/join", "post", c.post(f"/api/games/{o.json()['id']}/join", json=body))
    for body in ({"games": [{"id": gid, "seat": g["seats"]["hotseat"]}, {"id": "x", "seat": "y"}]}, {"games": 3}):
        check(doc, "/api/games/status", "post", c.post("/api/games/status", json=body))
    B = "/api/scenarios/{ruleset_id}/{scenario_id}/briefing"
    for path in ("/api/scenarios/magna-carta/the-hill/briefing", "/api/scenarios/magna-carta/nope/briefing"):
        check(doc, B, "get", c.get(path, params={"lang": "fr"}))
    # the WebSocket's messages
    msgs = doc["x-websocket"]["server_messages"]
    with c.websocket_connect(f"/api/games/{gid}/ws?seat={g['seats']['hotseat']}") as ws:
        validate(ws.receive_json(), msgs["hello"], doc)
        v = c.get(f"/api/games/{gid}", headers=h).json()
        c.post(f"/api/games/{gid}/actions", headers=h, json={"action": v["options"]["end_step"], "version": v["version"]})
        validate(ws.receive_json(), msgs["update"], doc)
