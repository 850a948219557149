"""The web server: a JSON API over the core (docs/api.md), a WebSocket per game for live
updates, and the static browser client. The browser computes no rule.

It knows no ruleset: every game names its ruleset (registry), and everything specific (the
options, the board, the French texts) comes from the ruleset's UI hooks. Responses are built
as plain JSON and sent as they are (no ``jsonable_encoder`` pass over large views).
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

from ..core import registry
from ..core.errors import IllegalAction, UnknownRuleset
from ..store import Store, default_db_path
from .hub import HOTSEAT, Hub, HubError, get_ruleset
from .report import report_text

MAX_BODY = 64 * 1024
STATIC = Path(str(resources.files("oriflamme.web").joinpath("static")))


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    scenario: str = Field(min_length=1, max_length=64)
    ruleset: str | None = Field(default=None, min_length=1, max_length=64)
    mode: str = Field(default="hotseat", pattern="^(hotseat|online)$")
    seed: int | None = Field(default=None, ge=0, lt=2**31)
    #: computer seats (issue 14): a level for the second side, or side -> level (online games)
    ai: str | dict[str, str] | None = None


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


def _log_from(request: Request) -> int:
    raw = request.query_params.get("log_from", "0")
    if not raw.isdigit():
        raise HubError(422, "bad_request", "log_from must be a non-negative integer")
    return int(raw)


def _json(data, status_code: int = 200, headers: dict | None = None) -> Response:
    """A response already JSON-safe, serialised once (no ``jsonable_encoder`` pass)."""
    return Response(json.dumps(data, ensure_ascii=False, separators=(",", ":")), status_code=status_code,
                    media_type="application/json", headers=headers)


def _rendered_view(rs, v: dict, lang: str) -> dict:
    """The view in ``lang`` (the ruleset's catalogue; English is the source)."""
    if lang == "en":
        return v
    v = dict(v)
    v["log"] = rs.render_events(v["log"], lang)
    if v.get("result"):
        v["result"] = rs.render_text(v["result"], lang)
    if v.get("options"):
        v["options"] = rs.render_options(v["options"], lang)
    return v


def create_app(db_path: str | Path | None = None) -> FastAPI:
    store = Store(db_path or default_db_path())
    hub = Hub(store)
    @asynccontextmanager
    async def lifespan(_app):
        yield
        for live in list(hub.games.values()):  # the computer seats stop with the server
            if live.bot_task is not None:
                live.bot_task.cancel()
        store.close()

    app = FastAPI(title="Oriflamme", version="0.2.0", docs_url="/api/docs", openapi_url="/api/openapi.json",
                  lifespan=lifespan)
    app.state.hub = hub
    app.state.store = store

    @app.exception_handler(HubError)
    async def _hub_error(request: Request, exc: HubError):
        message = exc.message
        if exc.code == "illegal":  # the ruleset's refusal: in the player's language
            live = hub.games.get(request.path_params.get("game_id", ""))
            if live is not None:
                message = live.ruleset.render_text(message, _lang(request))
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

    @app.get("/static/rulesets/{ruleset_id}/{path:path}", include_in_schema=False)
    async def ruleset_static(ruleset_id: str, path: str):
        """A ruleset's browser files (its module, board drawing), from its package's folder
        (``Ruleset.static_dir``), found through the registry. 404 for an unknown ruleset, a
        ruleset without files, a missing file or a path leaving the folder."""
        try:
            rs = registry.get(ruleset_id)
        except UnknownRuleset:
            return _error(404, "not_found", f"no ruleset {ruleset_id!r}")
        root = rs.static_dir()
        if root is None:
            return _error(404, "not_found", f"the ruleset {ruleset_id!r} has no browser files")
        root = Path(root).resolve()
        target = (root / path).resolve()
        if root not in target.parents or not target.is_file():
            return _error(404, "not_found", f"no file {path!r} for the ruleset {ruleset_id!r}")
        return FileResponse(target)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # --- rules and scenarios ----------------------------------------------------------------------
    @app.get("/api/rulesets")
    async def rulesets():
        return _json({"rulesets": [rs.info() for rs in registry.all_rulesets()]})

    @app.get("/api/scenarios")
    async def scenarios(request: Request):
        rid = request.query_params.get("ruleset")
        chosen = [get_ruleset(rid)] if rid else registry.all_rulesets()
        return _json({"scenarios": [dict(rs.scenario_info(s).to_json(), ruleset=rs.id)
                                    for rs in chosen for s in rs.scenario_ids()]})

    @app.get("/api/rules/sections")
    async def sections(request: Request):
        return _json(get_ruleset(request.query_params.get("ruleset")).rules_sections())

    # --- games ---------------------------------------------------------------------------------
    @app.post("/api/games", status_code=201)
    async def new_game(request: Request):
        body = await _body(request, NewGame)
        game_id, seats = hub.create(body.scenario, body.mode, body.seed, body.ruleset, body.ai)
        live = hub.get(game_id)
        links = {("hotseat" if side == HOTSEAT else side): f"/play/{game_id}#seat={token}" for side, token in seats.items()}
        return _json({"id": game_id, "mode": body.mode, "ruleset": live.ruleset.id, "ai": dict(live.bots),
                      "dice_commitment": live.game.commitment,
                      "seats": {("hotseat" if side == HOTSEAT else side): token for side, token in seats.items()},
                      "links": links}, status_code=201)

    @app.get("/api/games/{game_id}")
    async def game_view(game_id: str, request: Request):
        live = hub.get(game_id)
        seat = hub.seat(live, _token(request))
        return _json(_rendered_view(live.ruleset, hub.view(live, seat, _log_from(request)), _lang(request)))

    @app.get("/api/games/{game_id}/map")
    async def game_map(game_id: str, request: Request):
        live = hub.get(game_id)
        hub.seat(live, _token(request))
        return _json(live.ruleset.board(live.game.scenario))

    @app.get("/api/games/{game_id}/moves/{char_id}")
    async def game_moves(game_id: str, char_id: str, request: Request):
        live = hub.get(game_id)
        seat = hub.seat(live, _token(request))
        return _json(hub.moves(live, seat, char_id))

    @app.post("/api/games/{game_id}/actions")
    async def post_action(game_id: str, request: Request):
        live = hub.get(game_id)
        seat = hub.seat(live, _token(request))
        body = await _body(request, PostAction)
        events = await hub.act(live, seat, body.action, body.version)
        lang = _lang(request)
        rs = live.ruleset
        v = hub.view(live, seat, _log_from(request))
        # the events of this action, as the seat may see them
        events = rs.visible_events(live.game.state, hub.acting_side(live, seat),
                                   len(rs.events(live.game.state)) - len(events)) if events else []
        return _json({"version": live.version, "events": rs.render_events(events, lang),
                      "view": _rendered_view(rs, v, lang)})

    @app.post("/api/games/{game_id}/explain")
    async def post_explain(game_id: str, request: Request):
        live = hub.get(game_id)
        hub.seat(live, _token(request))
        body = await _body(request, Explain)
        rs = live.ruleset
        try:
            action = rs.action_from_json(body.action)
            ruling = rs.explain(live.game.state, action)
        except IllegalAction as exc:
            raise HubError(422, "bad_action", str(exc)) from None
        return _json(rs.render_ruling(ruling, _lang(request)))

    @app.post("/api/games/{game_id}/undo")
    async def post_undo(game_id: str, request: Request):
        live = hub.get(game_id)
        seat = hub.seat(live, _token(request))
        body = await _body(request, UndoAnswer)
        return _json(await hub.undo(live, seat, body.answer))

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, request: Request):
        live = hub.get(game_id)
        seat = hub.seat(live, _token(request))
        return _json(hub.record(live, seat),
                            headers={"Content-Disposition": f'attachment; filename="oriflamme-{game_id}.json"'})

    @app.get("/api/games/{game_id}/report")
    async def report(game_id: str, request: Request):
        live = hub.get(game_id)
        seat = hub.seat(live, _token(request))
        lang = _lang(request)
        return PlainTextResponse(report_text(hub.record(live, seat), live.ruleset, live.game.outcome().text, lang),
                                 headers={"Content-Disposition": f'attachment; filename="oriflamme-{game_id}-{lang}.md"'})

    @app.get("/api/games/{game_id}/frames")
    async def frames(game_id: str, request: Request):
        live = hub.get(game_id)
        seat = hub.seat(live, _token(request))
        return _json({"version": live.version, "frames": hub.frames(live, seat)})

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
