"""The web server: a JSON API over the core (docs/api.md), a WebSocket per game for live
updates, and the static browser client. The browser computes no rule.

It knows no ruleset: every game names its ruleset (registry), and everything specific (the
options, the board, the French texts) comes from the ruleset's UI hooks. Responses are built
as plain JSON and sent as they are (no ``jsonable_encoder`` pass over large views).
"""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import asynccontextmanager, suppress
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from ..core import registry
from ..core.errors import IllegalAction, UnknownRuleset
from ..store import StoreUnavailable, default_db_path, open_store
from . import armies, schema, shown
from .fanout import Fanout
from .hub import HOTSEAT, Hub, HubError, get_ruleset
from .limits import Guard, Limits, Refused
from .report import report_text
from .security import install_log_redaction, security_headers

MAX_BODY = Limits().max_body
STATIC = Path(str(resources.files("oriflamme.web").joinpath("static")))
log = logging.getLogger("oriflamme.web")

#: WebSocket close codes (docs/api.md)
WS_BAD_SEAT, WS_UNKNOWN_GAME, WS_TOO_MANY, WS_UNAVAILABLE = 4403, 4404, 4429, 4503


class NewGame(BaseModel):
    """Body of ``POST /api/games``."""
    model_config = ConfigDict(extra="forbid", strict=True)
    scenario: str = Field(min_length=1, max_length=64, description="a scenario id of the ruleset")
    ruleset: str | None = Field(default=None, min_length=1, max_length=64, description="default magna-carta")
    mode: str = Field(default="hotseat", max_length=16, description="hotseat or online (else 422 bad_mode)")
    seed: int | None = Field(default=None, ge=0, lt=2**31, description="hot seat only")
    #: computer seats (issue 14): a level for the second side, or side -> level (online games)
    ai: str | dict[str, str] | None = Field(default=None, description="computer seats: a level (easy, normal, hard, random) for the second side, or {side: level}; online games only")
    #: the lobby (docs/api.md § Lobby): an online game left open for anyone to join
    open: bool = Field(default=False, description="online: leave the other human seats open in the lobby (GET /api/lobby)")
    side: str | None = Field(default=None, min_length=1, max_length=32, description="online: the side the creator plays (default: the first human side)")
    webhook: str | None = Field(default=None, min_length=1, max_length=512, description="an http(s) URL posted to when a human side is to act (docs/api.md § Notifications)")

    #: a battle between two armies built with the army builder (rulesets with battle_from_armies)
    armies: dict[str, dict[str, Any]] | None = Field(default=None, description="side -> army document (the army builder's format): the scenario's table with these armies instead of its own (rulesets whose /api/rulesets entry says battle_from_armies)")

class JoinGame(BaseModel):
    """Body of ``POST /api/games/{id}/join`` (may be ``{}``)."""
    model_config = ConfigDict(extra="forbid", strict=True)
    side: str | None = Field(default=None, min_length=1, max_length=32, description="the open side to take (default: the first)")


class MyGame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: str = Field(min_length=1, max_length=64)
    seat: str = Field(min_length=1, max_length=128)


class GameStatuses(BaseModel):
    """Body of ``POST /api/games/status``: the games a browser keeps ("my games"), with their
    seat tokens (in the body, never in a URL)."""
    model_config = ConfigDict(extra="forbid", strict=True)
    games: list[MyGame] = Field(max_length=50)


class PostAction(BaseModel):
    """Body of ``POST /api/games/{id}/actions``: one of the offered actions, and the version
    of the view it was chosen from (required: a retried request is refused as stale, never
    applied twice)."""
    model_config = ConfigDict(extra="forbid")
    action: dict[str, Any]
    version: StrictInt = Field(ge=0, description="the view's version (number of actions taken)")


class Explain(BaseModel):
    """Body of ``POST /api/games/{id}/explain``."""
    model_config = ConfigDict(extra="forbid")
    action: dict[str, Any]


class UndoAnswer(BaseModel):
    """Body of ``POST /api/games/{id}/undo``: the version of the view (required), and for an
    online game the answer to the opponent's request."""
    model_config = ConfigDict(extra="forbid", strict=True)
    version: int = Field(ge=0, description="the view's version")
    answer: str | None = Field(default=None, pattern="^(accept|decline)$")


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang", "en")
    return lang if lang in ("en", "fr") else "en"


def _token(request: Request) -> str | None:
    return request.headers.get("x-seat") or request.query_params.get("seat")


def _error(status: int, code: str, message: str, **extra) -> JSONResponse:
    return JSONResponse({"error": code, "message": message, **extra}, status_code=status)


async def _body(request: Request, model):
    data = request.app.state.guard.parse(await request.body())  # size, JSON, nesting, huge numbers
    if not isinstance(data, dict):
        raise HubError(422, "bad_request", f"the body must be a JSON object, not {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()  # a typo first: "unknown field versoin" says more than "version missing"
        e = next((x for x in errors if x["type"] == "extra_forbidden"), errors[0])
        loc = ".".join(str(p) for p in e["loc"]) or "body"
        msg = "unknown field" if e["type"] == "extra_forbidden" else e["msg"]
        raise HubError(422, "bad_request", f"field {loc}: {msg}") from None


def _log_from(request: Request) -> int | None:
    """``?log_from=N`` (None when absent; the view then echoes nothing)."""
    raw = request.query_params.get("log_from")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 9:
        raise HubError(422, "bad_request", "log_from must be a non-negative integer")
    return int(raw)


def _client(conn) -> str:
    return conn.client.host if conn.client else "?"


def _json(data, status_code: int = 200, headers: dict | None = None) -> Response:
    """A response already JSON-safe, serialised once (no ``jsonable_encoder`` pass)."""
    return Response(json.dumps(data, ensure_ascii=False, separators=(",", ":")), status_code=status_code,
                    media_type="application/json", headers=headers)


def _rendered_view(rs, v: dict, lang: str) -> dict:
    """The view as the seat reads it in ``lang`` (the ruleset's catalogue, English the source),
    the sides called by their names (web/shown.py)."""
    v = dict(v)
    sides = shown.side_infos(v.get("sides"))
    v["log"] = shown.events(rs, v["log"], lang, sides)
    if v.get("result"):
        v["result"] = shown.text(rs, rs.render_text(v["result"], lang), lang, sides)
    if v.get("options"):
        v["options"] = rs.render_options(v["options"], lang)
    return v


def create_app(db_path: str | Path | None = None, limits: Limits | None = None) -> FastAPI:
    """The app on the database ``db_path``: a SQLite file (default :func:`default_db_path`)
    or a ``postgresql://`` URL (several processes may then serve the same games)."""
    limits = limits or Limits()
    store = open_store(db_path or default_db_path())
    hub = Hub(store, limits)
    fanout = Fanout(hub, store)
    guard = Guard(limits)
    install_log_redaction()

    @asynccontextmanager
    async def lifespan(_app):
        install_log_redaction()  # again: uvicorn has configured its loggers by now
        sweeper = asyncio.create_task(_sweep())
        fanout.start()  # PostgreSQL: other processes' changes reach this one's WebSockets
        yield
        fanout.stop()
        for live in list(hub.games.values()):  # the computer seats stop with the server
            if live.bot_task is not None:
                live.bot_task.cancel()
        sweeper.cancel()
        with suppress(asyncio.CancelledError):
            await sweeper
        store.close()

    async def _sweep():
        """Idle games leave memory (Hub.evict), checked every minute at most."""
        period = max(1.0, min(60.0, (limits.idle_seconds or 60.0) / 4))
        while True:
            await asyncio.sleep(period)
            gone = hub.evict()
            if gone:
                log.info("evicted %d idle game(s) from memory", len(gone))

    app = FastAPI(title="Oriflamme", version="0.2.0", docs_url="/api/docs", openapi_url="/api/openapi.json",
                  lifespan=lifespan, description=schema.DESCRIPTION)
    app.state.hub = hub
    app.state.store = store
    app.state.guard = guard

    @app.exception_handler(HubError)
    async def _hub_error(request: Request, exc: HubError):
        message, extra = exc.message, dict(exc.extra)
        live = hub.games.get(request.path_params.get("game_id", ""))
        if exc.code == "illegal" and live is not None:  # the ruleset's refusal: in the player's language
            rs, lang = live.ruleset, _lang(request)
            message = shown.text(rs, rs.render_text(message, lang), lang, shown.side_infos(rs.sides(live.game.scenario)))
        elif exc.code == "over" and live is not None:  # the result as the view shows it (the sides named)
            rs, sides = live.ruleset, shown.side_infos(live.ruleset.sides(live.game.scenario))
            message = shown.text(rs, rs.render_text(message, "en"), "en", sides)
            if extra.get("result"):
                extra["result"] = shown.text(rs, rs.render_text(extra["result"], "en"), "en", sides)
        return _error(exc.status, exc.code, message, **extra)

    @app.exception_handler(Refused)
    async def _refused(request: Request, exc: Refused):
        r = _error(exc.status, exc.code, exc.message)
        if exc.retry_after:
            r.headers["Retry-After"] = str(exc.retry_after)
        return r

    @app.exception_handler(StoreUnavailable)
    async def _store_down(request: Request, exc: StoreUnavailable):
        # the cause (SQLite's message) goes to the log; the client learns that nothing was saved
        log.error("storage unavailable (%s %s): %s", request.method, request.url.path, exc)
        r = _error(503, "storage_unavailable", "the server cannot use its game store right now "
                   "(disk full or read-only?); nothing was changed: try again later")
        r.headers["Retry-After"] = "30"
        return r

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception):
        log.exception("internal error on %s %s", request.method, request.url.path)
        return _error(500, "internal", "internal server error (logged)")

    @app.middleware("http")
    async def _guard(request: Request, call_next):
        try:
            guard.request(_client(request))
            cl = request.headers.get("content-length")
            if cl and cl.isdigit() and int(cl) > limits.max_body:
                raise Refused(413, "too_large", f"request body over {limits.max_body} bytes")
        except Refused as exc:
            response = await _refused(request, exc)
        else:
            response = await call_next(request)
        response.headers.update(security_headers(request.url.path))
        return response

    # --- pages -------------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def home():
        return FileResponse(STATIC / "index.html")

    @app.get("/rules/diff", response_class=HTMLResponse, include_in_schema=False)
    async def rules_diff_page():
        return FileResponse(STATIC / "rules.html")

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

    armies.register(app, store, STATIC)
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

    @app.get("/api/rulesets/{ruleset_id}/diff")
    async def rules_diff(ruleset_id: str, request: Request):
        """The rules that differ between a ruleset (an edition) and ``?against=`` (default: its
        base), each side cited: the ruleset's own ``rules_diff`` (core contract)."""
        rs = get_ruleset(ruleset_id)
        against = request.query_params.get("against") or rs.base
        if not against:
            return _error(422, "bad_request", f"{rs.id!r} is not an edition: give ?against=<ruleset id>")
        other = get_ruleset(against)
        d = rs.rules_diff(other)
        if d is None:
            d = other.rules_diff(rs)
        if d is None:
            return _error(422, "not_comparable", f"{rs.id!r} and {other.id!r} cannot be compared (not editions of one ruleset)")
        return _json(d)

    @app.get("/api/rules/sections")
    async def sections(request: Request):
        return _json(get_ruleset(request.query_params.get("ruleset")).rules_sections())

    # --- games ---------------------------------------------------------------------------------
    @app.post("/api/games", status_code=201, **schema.route("NewGame", "CreatedGame", seat=False))
    async def new_game(request: Request):
        body = await _body(request, NewGame)
        guard.new_game(_client(request))
        try:
            game_id, seats = await hub.run_in_thread(hub.create, body.scenario, body.mode, body.seed, body.ruleset, body.ai,
                                                     body.open, body.side, body.webhook, body.armies)
        except BaseException:
            guard.game_not_created(_client(request))  # only games made count against the hourly cap
            raise
        live = hub.get(game_id)
        hub.kick(live)  # the computer seats start (here, on the event loop)
        links = {("hotseat" if side == HOTSEAT else side): f"/play/{game_id}#seat={token}" for side, token in seats.items()}
        return _json({"id": game_id, "mode": body.mode, "ruleset": live.ruleset.id, "ai": dict(live.bots),
                      "dice_commitment": live.game.commitment,
                      "seats": {("hotseat" if side == HOTSEAT else side): token for side, token in seats.items()},
                      "links": links, "open_seats": list(live.open_sides)}, status_code=201)

    @app.get("/api/lobby", **schema.route(None, "Lobby", seat=False))
    async def lobby():
        return _json({"games": await hub.run_in_thread(hub.lobby)})

    @app.post("/api/games/status", **schema.route("GameStatuses", "Statuses", seat=False))
    async def game_statuses(request: Request):
        body = await _body(request, GameStatuses)

        out = []
        for g in body.games:
            try:
                out.append(await hub.status(g.id, g.seat))
            except HubError as exc:
                out.append({"id": g.id, "error": exc.code, "message": exc.message})
        return _json({"games": out})

    @app.post("/api/games/{game_id}/join", **schema.route("JoinGame", "Joined", seat=False))
    async def join_game(game_id: str, request: Request):
        body = await _body(request, JoinGame)
        side, token = await hub.join(game_id, body.side)
        live = hub.get(game_id)
        await hub.announce(live)  # the creator's page learns its opponent came
        return _json({"id": game_id, "side": side, "seat": token, "link": f"/play/{game_id}#seat={token}"})

    @app.get("/api/scenarios/{ruleset_id}/{scenario_id}/briefing", **schema.route(None, "Briefing", params=["lang"], seat=False))
    async def briefing(ruleset_id: str, scenario_id: str, request: Request):
        brief = await hub.run_in_thread(hub.briefing, ruleset_id, scenario_id)
        lang = _lang(request)
        return _json(dict(brief, view=_rendered_view(registry.get(brief["ruleset"]), brief["view"], lang)))

    @app.get("/api/games/{game_id}", **schema.route(None, "View", params=["lang", "log_from"]))
    async def game_view(game_id: str, request: Request):
        live, seat = await hub.enter(game_id, _token(request))
        log_from, lang = _log_from(request), _lang(request)
        return _json(await hub.read(live, lambda: _rendered_view(live.ruleset, hub.view(live, seat, log_from), lang)))

    @app.get("/api/games/{game_id}/map", **schema.route(None, "Map"))
    async def game_map(game_id: str, request: Request):
        live, _seat = await hub.enter(game_id, _token(request))
        return _json(await hub.read(live, live.ruleset.board, live.game.scenario))

    @app.get("/api/games/{game_id}/moves/{char_id}", **schema.route(None, "Moves"))
    async def game_moves(game_id: str, char_id: str, request: Request):
        live, seat = await hub.enter(game_id, _token(request))
        return _json(await hub.read(live, hub.moves, live, seat, char_id))

    @app.post("/api/games/{game_id}/actions", **schema.route("PostAction", "ActionResult", params=["lang", "log_from"]))
    async def post_action(game_id: str, request: Request):
        live, seat = await hub.enter(game_id, _token(request))
        body = await _body(request, PostAction)
        lang, log_from = _lang(request), _log_from(request)
        rs = live.ruleset

        def answer(events):  # in the worker thread, under the game's lock: exactly this version
            v = hub.view(live, seat, log_from)
            # the events of this action, as the seat may see them
            seen = rs.visible_events(live.game.state, hub.acting_side(live, seat),
                                     len(rs.events(live.game.state)) - len(events)) if events else []
            return {"version": live.version, "events": shown.events(rs, seen, lang, shown.side_infos(v.get("sides"))),
                    "view": _rendered_view(rs, v, lang)}

        return _json(await hub.act(live, seat, body.action, body.version, then=answer))

    @app.post("/api/games/{game_id}/explain", **schema.route("Explain", "Ruling", params=["lang"]))
    async def post_explain(game_id: str, request: Request):
        live, seat = await hub.enter(game_id, _token(request))
        body = await _body(request, Explain)
        rs, lang = live.ruleset, _lang(request)

        def explain():
            hub.refuse_if_not_to_act(live, seat)  # a ruling is the acting seat's (hidden information)
            try:
                action = rs.action_from_json(body.action)
                ruling = rs.explain(live.game.state, action)
            except IllegalAction as exc:
                raise HubError(422, "bad_action", str(exc)) from None
            return rs.render_ruling(ruling, lang)

        return _json(await hub.read(live, explain))

    @app.post("/api/games/{game_id}/undo", **schema.route("UndoAnswer", "UndoResult"))
    async def post_undo(game_id: str, request: Request):
        live, seat = await hub.enter(game_id, _token(request))
        body = await _body(request, UndoAnswer)
        return _json(await hub.undo(live, seat, body.answer, body.version))

    @app.get("/api/games/{game_id}/record", **schema.route(None, "Record"))
    async def record(game_id: str, request: Request):
        live, seat = await hub.enter(game_id, _token(request))
        return _json(await hub.read(live, hub.record, live, seat),
                     headers={"Content-Disposition": f'attachment; filename="oriflamme-{game_id}.json"'})

    @app.get("/api/games/{game_id}/report", **schema.route(None, None, params=["lang"], text=True))
    async def report(game_id: str, request: Request):
        live, seat = await hub.enter(game_id, _token(request))
        lang = _lang(request)
        text = await hub.read(live, lambda: report_text(hub.record(live, seat), live.ruleset,
                                                        live.game.outcome().text, lang,
                                                        live.ruleset.sides(live.game.scenario)))
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="oriflamme-{game_id}-{lang}.md"'})

    @app.get("/api/games/{game_id}/frames", **schema.route(None, "Frames"))
    async def frames(game_id: str, request: Request):
        live, seat = await hub.enter(game_id, _token(request))
        return _json(await hub.read(live, lambda: {"version": live.version, "frames": hub.frames(live, seat)}))

    @app.websocket("/api/games/{game_id}/ws")
    async def ws(websocket: WebSocket, game_id: str):
        """Accepted, then closed at once with a code when refused (a close before the
        handshake would reach the browser as a bare HTTP 403, without the code)."""
        token = websocket.query_params.get("seat")
        client = _client(websocket)
        refusal = None
        try:
            guard.request(client)
            live, _seat = await hub.enter(game_id, token)
            guard.open_socket(client, len(live.listeners))
        except HubError as exc:
            refusal = (WS_BAD_SEAT if exc.status == 403 else WS_UNKNOWN_GAME if exc.status == 404 else WS_UNAVAILABLE,
                       exc.message)
        except Refused as exc:
            refusal = (WS_TOO_MANY, exc.message)
        except StoreUnavailable as exc:
            log.error("storage unavailable (WebSocket): %s", exc)
            refusal = (WS_UNAVAILABLE, "the server cannot use its game store right now")
        if refusal is not None:
            await websocket.accept()
            await websocket.close(code=refusal[0], reason=refusal[1][:120])
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
            guard.close_socket(client)

    schema.install(app)
    return app
