"""The web server: a JSON API over the engine (docs/api.md), a WebSocket per game for live
updates, and the static browser client. The browser computes no rule.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..rulesets.magna_carta import i18n
from ..rulesets.magna_carta.engine import explain
from ..rulesets.magna_carta.engine.actions import Action
from ..rulesets.magna_carta.engine.errors import IllegalAction
from ..rulesets.magna_carta.rulesdata import load_ruleset
from ..rulesets.magna_carta.scenario import bundled_scenario_ids, load_scenario
from ..store import Store, default_db_path
from .hub import HOTSEAT, Hub, HubError
from .report import report_text

MAX_BODY = 64 * 1024
STATIC = Path(str(resources.files("oriflamme.web").joinpath("static")))


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    scenario: str = Field(min_length=1, max_length=64)
    mode: str = Field(default="hotseat", pattern="^(hotseat|online)$")
    seed: int | None = Field(default=None, ge=0, lt=2**31)


class PostAction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: dict[str, Any]
    version: int | None = Field(default=None, ge=0)


class Explain(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: dict[str, Any]


class UndoAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    answer: str | None = Field(default=None, pattern="^(accept|decline)$")


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang", "en")
    return lang if lang in ("en", "fr") else "en"


def _token(request: Request) -> str | None:
    return request.headers.get("x-seat") or request.query_params.get("seat")


def _error(status: int, code: str, message: str, **extra) -> JSONResponse:
    return JSONResponse({"error": code, "message": message, **extra}, status_code=status)


async def _body(request: Request, model):
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise HubError(413, "too_large", f"request body over {MAX_BODY} bytes")
    try:
        data = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        where = f" at line {exc.lineno} column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise HubError(400, "bad_json", f"the body is not valid JSON{where}") from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        e = exc.errors()[0]
        loc = ".".join(str(p) for p in e["loc"]) or "body"
        msg = "unknown field" if e["type"] == "extra_forbidden" else e["msg"]
        raise HubError(422, "bad_request", f"field {loc}: {msg}") from None


def _scenario_summary(sid: str) -> dict:
    sc, m = load_scenario(sid)
    return {
        "id": sid, "name": sc["name"], "name_fr": sc.get("name_fr") or sc["name"],
        "description": sc.get("description", ""), "description_fr": sc.get("description_fr") or sc.get("description", ""),
        "sides": [{"id": s["id"], "name": s["name"], "name_fr": s.get("name_fr") or s["name"]} for s in sc["side"]],
        "turns": sc["turns"], "weather": sc.get("weather", "clear"), "size": [m.width, m.height],
        "victory": sc.get("victory", {}).get("text", ""), "victory_fr": sc.get("victory", {}).get("text_fr", ""),
        "characters": len(sc["character"]),
    }


def _map_json(gmap) -> dict:
    rs = load_ruleset()
    return {
        "id": gmap.id, "name": gmap.name, "width": gmap.width, "height": gmap.height,
        "hexes": [{"label": h.label, "q": h.q, "r": h.r, "col": h.col, "row": h.row,
                   "terrain": gmap.terrain(h), "elevation": gmap.elevation(h)} for h in gmap.hexes],
        "hexsides": [{"a": a.label, "b": b.label, "feature": f}
                     for pair, f in sorted(gmap.hexside_features().items(), key=lambda kv: sorted(kv[0]))
                     for a, b in [sorted(pair)]],
        "name_fr": gmap.name_fr,
        "terrain": {t.id: {"name_fr": t.names[0], "name_en": t.name_en or t.id.replace("_", " "),
                           "foot": t.foot, "foot_armoured": t.foot_armoured if t.foot_armoured is not None else t.foot,
                           "mounted": t.mounted, "cover": t.cover, "combat": t.combat, "blocks_los": t.blocks_los,
                           "ref": t.ref} for t in rs.terrain.values()},
        "hexside_features": {f.id: {"name_fr": f.names[0], "name_en": f.name_en or f.id.replace("_", " "),
                                    "crossing": f.crossing, "cover": f.cover, "ref": f.ref} for f in rs.hexsides.values()},
    }


def _log_from(request: Request) -> int:
    raw = request.query_params.get("log_from", "0")
    if not raw.isdigit():
        raise HubError(422, "bad_request", "log_from must be a non-negative integer")
    return int(raw)


def _translated_view(v: dict, lang: str, log_from: int = 0) -> dict:
    if log_from:
        v = dict(v, log=v["log"][log_from:], log_from=log_from)
    if lang == "en":
        return v
    v = dict(v)
    v["log"] = [i18n.translate_event(e, lang) for e in v["log"]]
    if v.get("result"):
        v["result"] = i18n.translate(v["result"], lang)
    opts = v.get("options")
    if opts:
        opts = dict(opts)
        for key in ("fires", "attacks"):
            opts[key] = [dict(o, ruling=i18n.translate_ruling(o["ruling"], lang)) for o in opts[key]]
        v["options"] = opts
    return v


def create_app(db_path: str | Path | None = None) -> FastAPI:
    store = Store(db_path or default_db_path())
    hub = Hub(store)
    @asynccontextmanager
    async def lifespan(_app):
        yield
        store.close()

    app = FastAPI(title="Oriflamme", version="0.2.0", docs_url="/api/docs", openapi_url="/api/openapi.json",
                  lifespan=lifespan)
    app.state.hub = hub
    app.state.store = store

    @app.exception_handler(HubError)
    async def _hub_error(request: Request, exc: HubError):
        message = exc.message
        if exc.code == "illegal":  # the engine's refusal: in the player's language
            message = i18n.translate(message, _lang(request))
        return _error(exc.status, exc.code, message, **exc.extra)

    @app.middleware("http")
    async def _limit(request: Request, call_next):
        cl = request.headers.get("content-length")
        if cl and cl.isdigit() and int(cl) > MAX_BODY:
            return _error(413, "too_large", f"request body over {MAX_BODY} bytes")
        return await call_next(request)

    # --- pages -------------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def home():
        return FileResponse(STATIC / "index.html")

    @app.get("/play/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    async def play_page(game_id: str):
        return FileResponse(STATIC / "play.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # --- rules and scenarios ----------------------------------------------------------------------
    @app.get("/api/scenarios")
    async def scenarios():
        return {"scenarios": [_scenario_summary(s) for s in bundled_scenario_ids()]}

    @app.get("/api/rules/sections")
    async def sections():
        rs = load_ruleset()
        return {"ruleset": rs.id, "title": rs.title,
                "sections": {s.id: {"fr": s.title, "en": s.title_en or s.title} for s in rs.sections.values()}}

    # --- games ---------------------------------------------------------------------------------
    @app.post("/api/games", status_code=201)
    async def new_game(request: Request):
        body = await _body(request, NewGame)
        game_id, seats = hub.create(body.scenario, body.mode, body.seed)
        links = {("hotseat" if side == HOTSEAT else side): f"/play/{game_id}#seat={token}" for side, token in seats.items()}
        return {"id": game_id, "mode": body.mode,
                "seats": {("hotseat" if side == HOTSEAT else side): token for side, token in seats.items()},
                "links": links}

    @app.get("/api/games/{game_id}")
    async def game_view(game_id: str, request: Request):
        live = hub.get(game_id)
        seat = hub.seat(live, _token(request))
        return _translated_view(hub.view(live, seat), _lang(request), _log_from(request))

    @app.get("/api/games/{game_id}/map")
    async def game_map(game_id: str, request: Request):
        live = hub.get(game_id)
        hub.seat(live, _token(request))
        # the carts move (§4.5.4): the board draws them from the view's "carts" over the map
        # without them (engine/carts.py)
        from ..rulesets.magna_carta.maps import cart_base
        return _map_json(cart_base(live.game.gmap))

    @app.get("/api/games/{game_id}/moves/{char_id}")
    async def game_moves(game_id: str, char_id: str, request: Request):
        live = hub.get(game_id)
        seat = hub.seat(live, _token(request))
        return hub.moves(live, seat, char_id)

    @app.post("/api/games/{game_id}/actions")
    async def post_action(game_id: str, request: Request):
        live = hub.get(game_id)
        seat = hub.seat(live, _token(request))
        body = await _body(request, PostAction)
        events = await hub.act(live, seat, body.action, body.version)
        lang = _lang(request)
        return {"version": live.version, "events": [i18n.translate_event(e, lang) for e in events],
                "view": _translated_view(hub.view(live, seat), lang, _log_from(request))}

    @app.post("/api/games/{game_id}/explain")
    async def post_explain(game_id: str, request: Request):
        live = hub.get(game_id)
        hub.seat(live, _token(request))
        body = await _body(request, Explain)
        try:
            action = Action.from_json(body.action)
        except IllegalAction as exc:
            raise HubError(422, "bad_action", str(exc)) from None
        return i18n.translate_ruling(explain(live.game.state, action).to_json(), _lang(request))

    @app.post("/api/games/{game_id}/undo")
    async def post_undo(game_id: str, request: Request):
        live = hub.get(game_id)
        seat = hub.seat(live, _token(request))
        body = await _body(request, UndoAnswer)
        return await hub.undo(live, seat, body.answer)

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, request: Request):
        live = hub.get(game_id)
        hub.seat(live, _token(request))
        return JSONResponse(live.game.record(),
                            headers={"Content-Disposition": f'attachment; filename="oriflamme-{game_id}.json"'})

    @app.get("/api/games/{game_id}/report")
    async def report(game_id: str, request: Request):
        live = hub.get(game_id)
        hub.seat(live, _token(request))
        lang = _lang(request)
        return PlainTextResponse(report_text(live.game, lang),
                                 headers={"Content-Disposition": f'attachment; filename="oriflamme-{game_id}-{lang}.md"'})

    @app.get("/api/games/{game_id}/frames")
    async def frames(game_id: str, request: Request):
        live = hub.get(game_id)
        hub.seat(live, _token(request))
        return {"version": live.version, "frames": hub.frames(live)}

    @app.websocket("/api/games/{game_id}/ws")
    async def ws(websocket: WebSocket, game_id: str):
        token = websocket.query_params.get("seat")
        try:
            live = hub.get(game_id)
            hub.seat(live, token)
        except HubError as exc:
            await websocket.close(code=4403 if exc.status == 403 else 4404, reason=exc.message[:100])
            return
        await websocket.accept()
        q: asyncio.Queue = asyncio.Queue()
        live.listeners.add(q)
        try:
            await websocket.send_json({"type": "hello", "version": live.version})
            while True:
                getter = asyncio.ensure_future(q.get())
                receiver = asyncio.ensure_future(websocket.receive_text())
                done, pending = await asyncio.wait({getter, receiver}, return_when=asyncio.FIRST_COMPLETED)
                for p in pending:
                    p.cancel()
                if receiver in done:
                    receiver.result()  # raises WebSocketDisconnect when the client leaves
                    continue
                await websocket.send_json(getter.result())
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            live.listeners.discard(q)

    return app
