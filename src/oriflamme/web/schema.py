"""The OpenAPI description of what the server really does (``/api/openapi.json``).

FastAPI alone would describe its own ``{"detail": …}`` validation errors, which this server
never sends (every error is ``{"error", "message", …}``), and nothing of the request bodies
(the endpoints read them through :func:`oriflamme.web.app._body`), the ``X-Seat`` header or the
WebSocket. :func:`route` gives each route its request body, parameters and responses;
:func:`install` replaces FastAPI's validation-error schemas with :data:`ERROR` and adds the
components and the WebSocket (``x-websocket``; OpenAPI has no WebSocket operation).

The response schemas name the fields every ruleset's answers carry; a ruleset adds its own
(``additionalProperties``), listed in docs/api.md. ``tests/test_openapi.py`` checks live
responses against them.
"""

from __future__ import annotations

from typing import Any

DESCRIPTION = ("The Oriflamme JSON API (docs/api.md). Every error is `{\"error\": CODE, \"message\": TEXT, ...}`. "
               "Game endpoints need a seat token: header `X-Seat` (or query `seat`). Live updates: "
               "`WS /api/games/{id}/ws?seat=TOKEN` (see `x-websocket`).")

ERROR = {
    "type": "object", "required": ["error", "message"],
    "properties": {
        "error": {"type": "string", "description": "a code of the table in docs/api.md"},
        "message": {"type": "string"},
        "ref": {"type": "string", "description": "illegal: the rule that forbids the action"},
        "version": {"type": "integer", "description": "stale: the game's version"},
    },
}

EVENT = {
    "type": "object", "required": ["n", "type", "text"],
    "properties": {
        "n": {"type": "integer", "minimum": 0, "description": "the event's index in the game's log"},
        "turn": {"type": ["integer", "null"]}, "phase": {"type": ["integer", "null"]},
        "side": {"type": ["string", "null"]}, "type": {"type": "string"}, "text": {"type": "string"},
        "ref": {"type": "string"}, "ruling": {"type": "object"},
    },
}

STR_MAP = {"type": "object", "additionalProperties": {"type": "string"}}

SCHEMAS: dict[str, dict] = {
    "Error": ERROR,
    "Event": EVENT,
    "CreatedGame": {
        "type": "object", "required": ["id", "mode", "ruleset", "dice_commitment", "seats", "links"],
        "properties": {"id": {"type": "string"}, "mode": {"type": "string", "enum": ["hotseat", "online"]},
                       "ruleset": {"type": "string"}, "dice_commitment": {"type": "string"},
                       "seats": STR_MAP, "links": STR_MAP},
    },
    "View": {
        "type": "object",
        "required": ["game_id", "mode", "seat", "ruleset", "web_module", "version", "can_act", "dice_commitment",
                     "sides", "undo", "log"],
        "properties": {
            "game_id": {"type": "string"}, "mode": {"type": "string", "enum": ["hotseat", "online"]},
            "seat": {"type": "string"}, "ruleset": {"type": "string"}, "web_module": {"type": ["string", "null"]},
            "version": {"type": "integer", "minimum": 0}, "can_act": {"type": "boolean"},
            "dice_commitment": {"type": "string"}, "dice_seed": {"type": ["string", "integer"]},
            "sides": {"type": "array", "items": {"type": "object", "required": ["id", "name"],
                                                 "properties": {"id": {"type": "string"}, "name": {"type": "string"},
                                                                "name_fr": {"type": "string"}}}},
            "undo": {"type": "object", "required": ["possible", "requested_by", "can_request"],
                     "properties": {"possible": {"type": "boolean"}, "requested_by": {"type": ["string", "null"]},
                                    "can_request": {"type": "boolean"}, "can_answer": {"type": "boolean"}}},
            "log": {"type": "array", "items": {"$ref": "#/components/schemas/Event"}},
            "log_from": {"type": "integer", "minimum": 0, "description": "echoes ?log_from"},
            "options": {"type": "object", "description": "the ruleset's offered actions (docs/api.md)"},
        },
    },
    "ActionResult": {
        "type": "object", "required": ["version", "events", "view"],
        "properties": {"version": {"type": "integer"}, "events": {"type": "array", "items": {"$ref": "#/components/schemas/Event"}},
                       "view": {"$ref": "#/components/schemas/View"}},
    },
    "Ruling": {"type": "object", "required": ["legal"], "properties": {"legal": {"type": "boolean"},
                                                                       "reason": {"type": ["string", "null"]}}},
    "UndoResult": {"type": "object", "properties": {"undone": {"type": "boolean"}, "declined": {"type": "boolean"},
                                                    "requested": {"type": "boolean"}, "version": {"type": "integer"}}},
    "Moves": {"type": "object", "required": ["version"], "properties": {"version": {"type": "integer"}}},
    "Map": {"type": "object"},
    "Record": {"type": "object", "required": ["format", "version", "ruleset", "scenario", "actions"],
               "properties": {"format": {"type": "string"}, "version": {"type": "integer"}, "ruleset": {"type": "string"},
                              "scenario": {"type": "object"}, "actions": {"type": "array", "items": {"type": "object"}},
                              "events": {"type": "array"}, "seed": {"type": ["string", "integer", "null"]}}},
    "Frames": {"type": "object", "required": ["version", "frames"],
               "properties": {"version": {"type": "integer"}, "frames": {"type": "array", "items": {
                   "type": "object", "required": ["version"], "properties": {"version": {"type": "integer"}}}}}},
    "Rulesets": {"type": "object", "required": ["rulesets"], "properties": {"rulesets": {"type": "array", "items": {
        "type": "object", "required": ["id", "title"], "properties": {"id": {"type": "string"}, "title": {"type": "string"}}}}}},
    "Scenarios": {"type": "object", "required": ["scenarios"], "properties": {"scenarios": {"type": "array", "items": {
        "type": "object", "required": ["id", "ruleset", "name", "sides"],
        "properties": {"id": {"type": "string"}, "ruleset": {"type": "string"}, "name": {"type": "string"},
                       "sides": {"type": "array"}}}}}},
    "Sections": {"type": "object", "required": ["sections"], "properties": {"sections": {"type": "object"}}},
    "LobbyGame": {"type": "object", "required": ["id", "ruleset", "scenario", "scenario_name", "side", "opened_at"],
                  "properties": {"id": {"type": "string"}, "ruleset": {"type": "string"},
                                 "ruleset_title": {"type": "string"}, "ruleset_title_fr": {"type": "string"},
                                 "scenario": {"type": "string"}, "scenario_name": {"type": "string"},
                                 "scenario_name_fr": {"type": "string"},
                                 "side": {"type": "object", "description": "the open side: id, name, name_fr"},
                                 "opened_at": {"type": "number", "description": "Unix time"},
                                 "version": {"type": "integer"}}},
    "Lobby": {"type": "object", "required": ["games"],
              "properties": {"games": {"type": "array", "items": {"$ref": "#/components/schemas/LobbyGame"}}}},
    "Joined": {"type": "object", "required": ["id", "side", "seat", "link"],
               "properties": {"id": {"type": "string"}, "side": {"type": "string"}, "seat": {"type": "string"},
                              "link": {"type": "string"}}},
    "Statuses": {"type": "object", "required": ["games"], "properties": {"games": {"type": "array", "items": {
        "type": "object", "required": ["id"], "description": "a game's status, or {id, error, message}",
        "properties": {"id": {"type": "string"}, "your_turn": {"type": "boolean"}, "over": {"type": "boolean"},
                       "to_act": {"type": ["string", "null"]}, "winner": {"type": ["string", "null"]},
                       "version": {"type": "integer"}, "error": {"type": "string"}, "message": {"type": "string"}}}}}},
    "Briefing": {"type": "object", "required": ["ruleset", "scenario", "board", "view", "sides"],
                 "properties": {"ruleset": {"type": "string"}, "web_module": {"type": ["string", "null"]},
                                "scenario": {"type": "object"}, "board": {"type": "object"},
                                "view": {"type": "object", "description": "the opening position, as a spectator sees it"},
                                "sides": {"type": "array"}}},
}

PARAMS = {
    "seat_header": {"name": "X-Seat", "in": "header", "required": False, "schema": {"type": "string"},
                    "description": "the seat token (or the `seat` query parameter); 403 no_seat / bad_seat otherwise"},
    "seat": {"name": "seat", "in": "query", "required": False, "schema": {"type": "string"},
             "description": "the seat token, when a header cannot be set"},
    "lang": {"name": "lang", "in": "query", "required": False, "schema": {"type": "string", "enum": ["en", "fr"]},
             "description": "language of the engine's texts (default en)"},
    "log_from": {"name": "log_from", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 0},
                 "description": "send the log from this index on (echoed as `log_from`)"},
    "ruleset": {"name": "ruleset", "in": "query", "required": False, "schema": {"type": "string"}},
}

#: statuses a route may answer with an Error, by kind of route
GAME_ERRORS = {"403": "no or foreign seat token (no_seat, bad_seat, not_your_turn)", "404": "unknown_game / not_found",
               "429": "rate_limited", "503": "storage_unavailable", "500": "internal (a bug; logged)"}
BODY_ERRORS = {"400": "bad_json, too_deep", "409": "illegal, stale, over, cannot_undo, no_request, seat_taken",
               "413": "too_large", "422": "bad_request, bad_action, bad_mode"}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def route(body: str | None, answer: str | None, params: list[str] | None = None, seat: bool = True,
          text: bool = False) -> dict[str, Any]:
    """The decorator arguments describing a route: ``body`` and ``answer`` name schemas (the
    request models' come from pydantic), ``params`` extra query parameters."""
    parameters = [PARAMS["seat_header"], PARAMS["seat"]] if seat else []
    parameters += [PARAMS[p] for p in params or ()]
    extra: dict[str, Any] = {"parameters": parameters}
    if body:
        extra["requestBody"] = {"required": True, "content": {"application/json": {"schema": _ref(body)}}}
    ok = {"text/plain": {"schema": {"type": "string", "description": "Markdown"}}} if text else \
        {"application/json": {"schema": _ref(answer) if answer else {"type": "object"}}}
    errors = dict(GAME_ERRORS if seat else {"429": GAME_ERRORS["429"], "503": GAME_ERRORS["503"], "404": "unknown_*"})
    if body:
        errors.update(BODY_ERRORS)
    responses: dict[Any, Any] = {"200": {"description": "OK", "content": ok}}
    for status, what in errors.items():
        responses[status] = {"description": what, "content": {"application/json": {"schema": _ref("Error")}}}
    return {"openapi_extra": extra, "responses": responses}


WEBSOCKET = {
    "path": "/api/games/{id}/ws?seat=TOKEN",
    "server_messages": {
        "hello": {"type": "object", "required": ["type", "version"],
                  "properties": {"type": {"const": "hello"}, "version": {"type": "integer"}}},
        "update": {"type": "object", "required": ["type", "version"],
                   "properties": {"type": {"const": "update"}, "version": {"type": "integer"}}},
    },
    "client_messages": "none expected; anything received is ignored",
    "close_codes": {"4403": "missing or foreign seat token", "4404": "unknown game",
                    "4429": "too many connections (per game or per client) or requests",
                    "4503": "the game store is unavailable, or the stored game cannot be replayed"},
}


def install(app) -> None:
    """Replace ``app.openapi`` by one describing the real errors, bodies and WebSocket."""
    from .app import Explain, GameStatuses, JoinGame, NewGame, PostAction, UndoAnswer  # the request models

    def openapi() -> dict:
        if app.openapi_schema:
            return app.openapi_schema
        from fastapi.openapi.utils import get_openapi
        doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        comps = doc.setdefault("components", {}).setdefault("schemas", {})
        for name in ("HTTPValidationError", "ValidationError"):
            comps.pop(name, None)
        comps.update(SCHEMAS)
        for model in (NewGame, PostAction, Explain, UndoAnswer, JoinGame, GameStatuses):
            one = model.model_json_schema(ref_template="#/components/schemas/{model}")
            comps.update(one.pop("$defs", {}))  # nested models (GameStatuses' MyGame) beside it
            comps[model.__name__] = one
        for path, ops in doc.get("paths", {}).items():
            for op in ops.values():
                ok = op.get("responses", {}).get("200", {}).get("content", {})
                if "text/plain" in ok:  # FastAPI's default JSON beside a text answer
                    ok.pop("application/json", None)
                # every route (the armies' too) answers its errors in the one shape
                op.setdefault("responses", {}).setdefault("default", {
                    "description": "an error (docs/api.md)", "content": {"application/json": {"schema": _ref("Error")}}})
                for status, resp in list(op.get("responses", {}).items()):
                    schema = resp.get("content", {}).get("application/json", {}).get("schema", {})
                    if "HTTPValidationError" in str(schema):
                        resp["content"]["application/json"]["schema"] = _ref("Error")
                        resp["description"] = BODY_ERRORS.get(status, resp.get("description", ""))
        for path, answer in (("/api/rulesets", "Rulesets"), ("/api/scenarios", "Scenarios"),
                             ("/api/rules/sections", "Sections")):
            op = doc["paths"][path]["get"]
            op["responses"]["200"]["content"]["application/json"]["schema"] = _ref(answer)
            if path != "/api/rulesets":
                op.setdefault("parameters", []).append(PARAMS["ruleset"])
                op["responses"]["404"] = {"description": "unknown_ruleset",
                                          "content": {"application/json": {"schema": _ref("Error")}}}
        doc["x-websocket"] = WEBSOCKET
        app.openapi_schema = doc
        return doc

    app.openapi = openapi
