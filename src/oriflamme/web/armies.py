"""The army builder's JSON API and page (docs/api.md § Armies).

Generic: it knows only the core Ruleset's optional army methods (``army_catalog``,
``validate_army``, ``army_sheet``, ``army_examples``, ``army_roll``) and the store's armies.
The builder's page (``/army/<ruleset>``) is a shell; the ruleset's own editor is its browser file
``/static/rulesets/<id>/army.js``.

Who owns an army: the ``X-Owner`` token the server mints (``POST /api/owners``) and the browser
keeps; see :mod:`oriflamme.store.armies`. Every bad input is a 4xx naming the field and the
reason (never a 500): malformed JSON (with its line and column), an unknown ruleset, a ruleset
without a builder, a malformed army (the ruleset's message names the field).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from ..core import registry
from ..core.dice import Dice, new_secret
from ..core.errors import OriflammeError, UnknownRuleset
from ..core.ruleset import army_envelope
from ..store import VersionConflict
from .hub import HubError

MAX_ARMY = 64 * 1024
FIELD = re.compile(r"^field ([^:]+):")


def _json(data, status_code: int = 200, headers: dict | None = None) -> Response:
    return Response(json.dumps(data, ensure_ascii=False, separators=(",", ":")), status_code=status_code,
                    media_type="application/json", headers=headers)


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang", "en")
    return lang if lang in ("en", "fr") else "en"


def builder_of(ruleset_id: str | None):
    """The ruleset ``ruleset_id`` if it has an army builder (404 / 422 otherwise)."""
    if not ruleset_id or not isinstance(ruleset_id, str):
        raise HubError(422, "bad_request", "field ruleset: required (the id of a ruleset with an army builder)",
                       field="ruleset")
    try:
        rs = registry.get(ruleset_id)
    except UnknownRuleset as exc:
        raise HubError(404, "unknown_ruleset", f"field ruleset: {exc}", field="ruleset") from None
    if not rs.has_army_builder():
        raise HubError(422, "no_army_builder", f"field ruleset: the ruleset {rs.id!r} has no army builder",
                       field="ruleset")
    return rs


def refused(exc: OriflammeError) -> HubError:
    """A ruleset's refusal of a malformed army, as a 422 naming the field."""
    message = str(exc)
    m = FIELD.match(message)
    return HubError(422, "bad_army", message, **({"field": m.group(1)} if m else {}))


def parse(raw: bytes, what: str = "the body") -> object:
    if len(raw) > MAX_ARMY:
        raise HubError(413, "too_large", f"{what} is over {MAX_ARMY} bytes")
    try:
        return json.loads(raw or b"")
    except UnicodeDecodeError:
        raise HubError(400, "bad_json", f"{what} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise HubError(400, "bad_json", f"{what} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
                       line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise HubError(400, "bad_json", f"{what} nests too deeply to be an army") from None
    except ValueError as exc:  # an integer past int's 4,300 digits (issue 15, hardening)
        raise HubError(400, "bad_json", f"{what} is not acceptable JSON: {str(exc).split(';')[0]}") from None


async def army_body(request: Request) -> dict:
    data = parse(await request.body())
    if not isinstance(data, dict):
        raise HubError(422, "bad_army", f"army: expected a JSON object, got {type(data).__name__}", field="army")
    return data


def verdict(rs, doc: dict) -> dict:
    try:
        return rs.validate_army(doc)
    except OriflammeError as exc:
        raise refused(exc) from None


def points(result: dict) -> int | None:
    total = result.get("total_points")
    return total if isinstance(total, int) and not isinstance(total, bool) else None


def register(app: FastAPI, store, static: Path) -> None:
    armies = store.armies

    def owner(request: Request) -> str:
        token = request.headers.get("x-owner") or ""
        if not token:
            raise HubError(401, "no_owner", "header X-Owner: required (get a token from POST /api/owners)",
                           field="X-Owner")
        if not re.fullmatch(r"[0-9a-f]{64}", token) or not armies.is_owner(token):
            raise HubError(403, "bad_owner", "header X-Owner: unknown owner token", field="X-Owner")
        return token

    def mine(token: str, army_id: str):
        found = armies.get(token, army_id)
        if found is None:
            raise HubError(404, "not_found", f"no army {army_id!r} for this owner")
        return found

    def wanted_version(request: Request) -> int:
        """The army's version a change was made from (``?version=N``, required: a change of an
        older version is refused with 409 stale, never applied over a newer one)."""
        raw = request.query_params.get("version")
        if raw is None:
            raise HubError(422, "bad_request", "query version: required — the army's version from its last answer "
                                               "(a change of an older version is refused, not applied)", field="version")
        if not re.fullmatch(r"\d{1,9}", raw):
            raise HubError(422, "bad_request", f"query version: expected a whole number, got {raw[:20]!r}", field="version")
        return int(raw)

    def changed(write, *args):
        """A store write checked against the version: 409 stale with the army's version."""
        try:
            return write(*args)
        except VersionConflict as exc:
            current = armies.get(args[0], args[1])
            raise HubError(409, "stale", str(exc), version=current.version if current else None) from None

    def stored_json(a, result: dict | None = None) -> dict:
        return {**a.summary(), "army": a.army, **({"validation": result} if result is not None else {})}

    # --- pages ------------------------------------------------------------------------------------
    @app.get("/army/{ruleset_id}", response_class=HTMLResponse, include_in_schema=False)
    async def army_page(ruleset_id: str):
        return FileResponse(static / "army.html")

    # --- what a ruleset offers ---------------------------------------------------------------------
    @app.get("/api/rulesets/{ruleset_id}/army/catalog")
    async def catalog(ruleset_id: str):
        rs = builder_of(ruleset_id)
        try:
            return _json(rs.army_catalog())
        except OriflammeError as exc:
            raise HubError(503, "no_catalog", str(exc)) from None

    @app.get("/api/rulesets/{ruleset_id}/army/examples")
    async def examples(ruleset_id: str):
        rs = builder_of(ruleset_id)
        return _json({"examples": rs.army_examples()})

    @app.post("/api/rulesets/{ruleset_id}/army/validate")
    async def validate(ruleset_id: str, request: Request):
        rs = builder_of(ruleset_id)
        return _json(verdict(rs, await army_body(request)))

    @app.post("/api/rulesets/{ruleset_id}/army/sheet")
    async def sheet_of(ruleset_id: str, request: Request):
        rs = builder_of(ruleset_id)
        doc = await army_body(request)
        try:
            return HTMLResponse(rs.army_sheet(doc, _lang(request)))
        except OriflammeError as exc:
            raise refused(exc) from None

    # --- owners and their armies ---------------------------------------------------------------------
    @app.post("/api/owners", status_code=201)
    async def new_owner():
        return _json({"owner": armies.new_owner()}, status_code=201)

    @app.get("/api/armies")
    async def list_armies(request: Request):
        token = owner(request)
        rid = request.query_params.get("ruleset")
        return _json({"armies": armies.list(token, rid)})

    @app.post("/api/armies", status_code=201)
    async def create(request: Request):
        """Create, or import an exported file (the same body)."""
        token = owner(request)
        doc = await army_body(request)
        rs = builder_of(doc.get("ruleset"))
        doc = army_envelope(doc, rs.id)
        result = verdict(rs, doc)
        a = armies.create(token, rs.id, doc, bool(result.get("valid")), points(result))
        return _json(stored_json(a, result), status_code=201)

    @app.get("/api/armies/{army_id}")
    async def get(army_id: str, request: Request):
        a = mine(owner(request), army_id)
        rs = builder_of(a.ruleset)
        return _json(stored_json(a, verdict(rs, a.army)))

    @app.put("/api/armies/{army_id}")
    async def update(army_id: str, request: Request):
        token = owner(request)
        version = wanted_version(request)
        a = mine(token, army_id)
        doc = await army_body(request)
        if doc.get("ruleset", a.ruleset) != a.ruleset:
            raise HubError(422, "bad_army", f"field ruleset: this army is for {a.ruleset!r}; "
                           "create a new army for another ruleset", field="ruleset")
        doc = army_envelope(doc, a.ruleset)
        rs = builder_of(a.ruleset)
        result = verdict(rs, doc)
        a = changed(armies.update, token, army_id, doc, bool(result.get("valid")), points(result), version)
        if a is None:
            raise HubError(404, "not_found", f"no army {army_id!r} for this owner")
        return _json(stored_json(a, result))

    @app.delete("/api/armies/{army_id}", status_code=204)
    async def delete(army_id: str, request: Request):
        if not changed(armies.delete, owner(request), army_id, wanted_version(request)):
            raise HubError(404, "not_found", f"no army {army_id!r} for this owner")
        return Response(status_code=204)

    @app.get("/api/armies/{army_id}/export")
    async def export(army_id: str, request: Request):
        a = mine(owner(request), army_id)
        slug = re.sub(r"[^A-Za-z0-9_-]+", "-", a.name).strip("-")[:40] or a.id
        return _json(a.army, headers={"Content-Disposition": f'attachment; filename="army-{slug}.json"'})

    @app.get("/api/armies/{army_id}/sheet")
    async def sheet(army_id: str, request: Request):
        a = mine(owner(request), army_id)
        rs = builder_of(a.ruleset)
        try:
            return HTMLResponse(rs.army_sheet(a.army, _lang(request)))
        except OriflammeError as exc:
            raise refused(exc) from None

    @app.post("/api/armies/{army_id}/roll")
    async def roll(army_id: str, request: Request):
        """A roll the army list asks for (a magic weapon's curse), rolled by the server and
        recorded in the saved army."""
        token = owner(request)
        version = wanted_version(request)
        a = mine(token, army_id)
        if a.version != version:
            raise HubError(409, "stale", f"the army is at version {a.version}, not {version}: reload it", version=a.version)
        body = parse(await request.body())
        if not isinstance(body, dict):
            raise HubError(422, "bad_request", "body: expected a JSON object (the roll's request)", field="body")
        rs = builder_of(a.ruleset)
        try:
            out = rs.army_roll(a.army, body, Dice(new_secret()))
        except OriflammeError as exc:
            raise refused(exc) from None
        result = verdict(rs, out["army"])
        a = changed(armies.update, token, army_id, out["army"], bool(result.get("valid")), points(result), version)
        if a is None:
            raise HubError(404, "not_found", f"no army {army_id!r} for this owner")
        return _json({**stored_json(a, result), "roll": out["roll"]})
