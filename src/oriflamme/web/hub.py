"""Live games of the server: loaded from the store, played through the engine, persisted before
acknowledgement, announced to the seats' WebSockets.

The hub never decides a rule: it asks the engine (``legal_actions``, ``apply``, ``explain``,
``view``) and stores what happened.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field

from ..rulesets.magna_carta.engine import IllegalAction, explain, legal_actions, moves_of, view
from ..rulesets.magna_carta.engine import riding
from ..rulesets.magna_carta.engine.actions import (Action, Attack, AttackHorse, Carry, ClearBodies, Dismount, EndStep, EnterLitter, Fire,
                              FireAtHorse, Kneel, Lead, LeaveLitter, Mount, Move, Rise)
from ..rulesets.magna_carta.engine.errors import OriflammeError
from ..rulesets.magna_carta.engine.record import Game
from ..rulesets.magna_carta.engine.movement import reachable
from ..rulesets.magna_carta.scenario import bundled_scenario_ids, load_scenario, validate_scenario
from ..store import Store

HOTSEAT = "*"


class HubError(Exception):
    def __init__(self, status: int, code: str, message: str, **extra):
        self.status, self.code, self.message, self.extra = status, code, message, extra
        super().__init__(message)


@dataclass
class LiveGame:
    id: str
    mode: str
    scenario_id: str
    game: Game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set = field(default_factory=set)
    undo_requested_by: str | None = None
    undo_version: int | None = None
    frames_cache: tuple[int, list] | None = None
    action_sides: list = field(default_factory=list)   # who took each action (for undo requests)

    @property
    def version(self) -> int:
        return len(self.game.actions)


class Hub:
    def __init__(self, store: Store):
        self.store = store
        self.games: dict[str, LiveGame] = {}

    # --- creation and loading ---------------------------------------------------------------
    def create(self, scenario_id: str, mode: str, seed: int | None = None) -> tuple[str, dict[str, str]]:
        if scenario_id not in bundled_scenario_ids():
            raise HubError(404, "unknown_scenario", f"unknown scenario {scenario_id!r} (bundled: {', '.join(bundled_scenario_ids())})")
        if mode not in ("hotseat", "online"):
            raise HubError(422, "bad_mode", "mode must be 'hotseat' or 'online'")
        scenario, gmap = load_scenario(scenario_id)
        seed = secrets.randbits(31) if seed is None else seed
        game_id = secrets.token_urlsafe(9)
        game = Game(scenario, gmap, seed)
        if mode == "hotseat":
            seats = {HOTSEAT: secrets.token_urlsafe(24)}          # 192 bits
        else:
            seats = {side: secrets.token_urlsafe(24) for side in game.state.sides}
        self.store.create_game(game_id, scenario_id, scenario, seed, mode, seats)
        self.games[game_id] = LiveGame(game_id, mode, scenario_id, game)
        return game_id, seats

    def get(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is not None:
            return live
        stored = self.store.load(game_id)
        if stored is None:
            raise HubError(404, "unknown_game", f"no game {game_id!r}")
        try:
            scenario, gmap = validate_scenario(stored.scenario, f"game {game_id}")
            game = Game(scenario, gmap, stored.seed)
            for i, (a, digest) in enumerate(zip(stored.actions, stored.digests)):
                game.apply(a)
                if game.state.digest() != digest:
                    raise HubError(500, "corrupt", f"game {game_id}: action {i + 1} does not reproduce the stored state")
        except OriflammeError as exc:
            raise HubError(500, "corrupt", f"game {game_id} cannot be replayed: {exc}") from None
        live = LiveGame(game_id, stored.mode, stored.scenario_id, game,
                        undo_requested_by=stored.undo_requested_by, undo_version=stored.undo_version,
                        action_sides=list(stored.sides_of_actions))
        self.games[game_id] = live
        return live

    def seat(self, live: LiveGame, token: str | None) -> str:
        if not token:
            raise HubError(403, "no_seat", "this request needs a seat token (header X-Seat or ?seat=)")
        side = self.store.seat_of(live.id, token)
        if side is None:
            raise HubError(403, "bad_seat", "this seat token does not belong to this game")
        return side

    # --- reading ---------------------------------------------------------------------------
    def acting_side(self, live: LiveGame, seat: str) -> str | None:
        to_act = live.game.state.to_act()
        if seat == HOTSEAT:
            return to_act
        return seat

    def view(self, live: LiveGame, seat: str) -> dict:
        st = live.game.state
        side = self.acting_side(live, seat)
        out = view(st, side)
        can_act = to_act_ok = (side is not None and side == st.to_act())
        out.update({
            "game_id": live.id, "mode": live.mode, "seat": "hotseat" if seat == HOTSEAT else seat,
            "version": live.version, "can_act": can_act, "dice_commitment": live.game.commitment,
            "sides": [{"id": s["id"], "name": s["name"], "name_fr": s.get("name_fr") or s["name"]}
                      for s in st.scenario["side"]],
            "undo": self._undo_info(live, seat),
        })
        out.pop("legal_actions", None)
        rs = st.rules
        for ch in out["characters"]:  # display names from the rules data
            ct = rs.character_types.get(ch["type"])
            if ct is not None:
                ch["type_name"], ch["type_name_fr"] = ct.name, ct.name_fr or ct.name
            w = rs.weapons.get(ch["weapon"]) if ch.get("weapon") else None
            if w is not None:
                ch["weapon_name_fr"] = w.names[0]
                ch["weapon_name"] = w.name_en or w.names[0]
        if to_act_ok:
            out["options"] = options(st)
        return out

    def moves(self, live: LiveGame, seat: str, char_id: str) -> dict:
        """One character's moves (the list a view leaves out for riders), for the seat to act."""
        st = live.game.state
        to_act = st.to_act()
        if to_act is None:
            raise HubError(409, "over", "the game is over")
        if seat != HOTSEAT and seat != to_act:
            raise HubError(403, "not_your_turn", f"side {to_act} is to act; this seat plays side {seat}")
        if char_id not in st.characters:
            raise HubError(404, "not_found", f"no character {char_id!r} in this game")
        return {"version": live.version, "char": char_id, "moves": moves(st, char_id)}

    def _undo_info(self, live: LiveGame, seat: str) -> dict:
        g = live.game
        possible = g.can_undo and live.version > 0
        info = {"possible": possible, "requested_by": live.undo_requested_by}
        if live.mode == "hotseat":
            info["can_request"] = possible
        else:
            last_side = g.actions and self._side_of_last(live)
            info["can_request"] = possible and live.undo_requested_by is None and last_side == seat
            info["can_answer"] = live.undo_requested_by is not None and live.undo_requested_by != seat
        return info

    def _side_of_last(self, live: LiveGame) -> str | None:
        return live.action_sides[-1] if live.action_sides else None

    # --- acting ------------------------------------------------------------------------------
    async def act(self, live: LiveGame, seat: str, action_json, version: int | None) -> list[dict]:
        async with live.lock:
            st = live.game.state
            if version is not None and version != live.version:
                raise HubError(409, "stale", f"the game is at version {live.version}, not {version}: reload the view",
                               version=live.version)
            to_act = st.to_act()
            if to_act is None:
                raise HubError(409, "over", "the game is over")
            if seat != HOTSEAT and seat != to_act:
                raise HubError(403, "not_your_turn", f"side {to_act} is to act; this seat plays side {seat}")
            try:
                action = Action.from_json(action_json)
            except IllegalAction as exc:
                raise HubError(422, "bad_action", str(exc)) from None
            game = live.game
            try:
                events = game.apply(action)  # the engine refuses illegal actions, state unchanged
            except IllegalAction as exc:
                raise HubError(409, "illegal", exc.reason, ref=exc.ref) from None
            st = game.state
            try:
                self.store.append_action(live.id, live.version, to_act, action.to_json(), st.digest(),
                                         "over" if st.over else "playing", st.winner)
            except BaseException:
                # not committed, so not acknowledged: forget the in-memory game; the next
                # request rebuilds it from the database, which does not hold this action
                self.games.pop(live.id, None)
                raise
            live.action_sides.append(to_act)
            live.undo_requested_by = None
            live.undo_version = None
        await self.announce(live)
        return events

    async def undo(self, live: LiveGame, seat: str, answer: str | None = None) -> dict:
        """Hot-seat: undo at once. Online: ``answer=None`` requests, the opponent answers
        ``accept`` or ``decline``."""
        async with live.lock:
            g = live.game
            if live.mode == "hotseat" or answer == "accept":
                if live.mode != "hotseat":
                    if live.undo_requested_by is None:
                        raise HubError(409, "no_request", "there is no undo request to accept")
                    if live.undo_requested_by == seat:
                        raise HubError(403, "own_request", "the opponent must accept your undo request")
                if not g.can_undo:
                    raise HubError(409, "cannot_undo", "the last action rolled a die (or there is none): it cannot be undone")
                g.undo()
                del live.action_sides[live.version:]
                st = g.state
                self.store.truncate(live.id, live.version, "over" if st.over else "playing", st.winner)
                live.undo_requested_by = live.undo_version = None
                result = {"undone": True, "version": live.version}
            elif answer == "decline":
                if live.undo_requested_by is None or live.undo_requested_by == seat:
                    raise HubError(409, "no_request", "there is no undo request from your opponent")
                live.undo_requested_by = live.undo_version = None
                self.store.set_undo_request(live.id, None, None)
                result = {"undone": False, "declined": True}
            else:
                if not g.can_undo:
                    raise HubError(409, "cannot_undo", "the last action rolled a die (or there is none): it cannot be undone")
                if self._side_of_last(live) != seat:
                    raise HubError(403, "not_yours", "only the side that took the last action may ask to undo it")
                live.undo_requested_by, live.undo_version = seat, live.version
                self.store.set_undo_request(live.id, seat, live.version)
                result = {"requested": True}
        await self.announce(live)
        return result

    # --- live updates ------------------------------------------------------------------------
    async def announce(self, live: LiveGame) -> None:
        msg = {"type": "update", "version": live.version}
        for q in list(live.listeners):
            q.put_nowait(msg)

    # --- replay frames -----------------------------------------------------------------------
    def frames(self, live: LiveGame) -> list[dict]:
        """The position after each action (for the replay mode), computed by one replay."""
        if live.frames_cache and live.frames_cache[0] == live.version:
            return live.frames_cache[1]
        g = live.game
        scenario, gmap = g.scenario, g.gmap
        replayed = Game(scenario, gmap, g.secret_seed)
        frames = [_frame(replayed, 0)]
        for i, a in enumerate(g.actions, 1):
            replayed.apply(a)
            frames.append(_frame(replayed, i))
        live.frames_cache = (live.version, frames)
        return frames


def _frame(g: Game, version: int) -> dict:
    st = g.state
    return {
        "version": version, "turn": st.turn, "active": st.active, "step": st.step, "log_length": len(st.log),
        "characters": [{"id": c.id, "hex": c.hex.label if c.hex else None, "status": c.status,
                        "attack": c.current_attack, "defence": c.current_defence,
                        "movement": c.current_movement, "mounted": c.mounted,
                        "rear": c.rear.label if c.mounted and c.hex else None, "facing": c.facing}
                       for c in sorted(st.characters.values(), key=lambda c: c.id)],
        "horses": [{"id": h.id, "hexes": [x.label for x in h.hexes], "facing": h.facing, "side": h.side, "alive": h.alive, "kind": h.kind,
                    "led_by": h.led_by}
                   for h in sorted(st.horses.values(), key=lambda h: h.id)],
        "carcasses": [{"hex": h.label, **kinds} for h, kinds in sorted(st.carcasses.items(), key=lambda x: x[0].label)],
        "carts": [{"id": x.id, "hexes": [x.front.label, x.rear.label], "facing": x.facing, "animal": x.animal,
                   "moving": x.moving} for x in sorted(st.carts.values(), key=lambda x: x.id)],  # §4.5
        "over": st.over, "result": st.result_text,
    }


#: Riders have one move per (front hex, facing) reached, each with its whole path: about 600 a
#: rider, 540 KB for the four riders of ``the-ford``. Their lists are not put in the view; the
#: client asks ``GET /api/games/{id}/moves/{char}`` when the player selects the rider. A foot
#: character's list (one move a hex) stays inline.
def _lazy(c) -> bool:
    return c.mounted


def _move_costs(state, c) -> dict:
    """Move path (labels) -> (cost, facing) for ``c`` now (facing None on foot)."""
    if c.mounted:
        from ..rulesets.magna_carta.engine.movement import points_left
        return {tuple(x.label for x in path): (cost, facing)
                for (_, facing), (cost, path) in riding.reachable(state, c, points_left(state, c)).items()}
    return {tuple(x.label for x in path): (cost, None) for _, (cost, path) in reachable(state, c).items()}


def _move_entries(state, c, acts) -> list[dict]:
    costs = _move_costs(state, c)
    out = []
    for a in acts:
        cost, facing = costs.get(a.path, (None, None))
        entry = {"to": a.path[-1], "path": list(a.path), "action": a.to_json(), "cost": cost}
        if c.mounted:
            entry["facing"] = facing
        out.append(entry)
    return out


def moves(state, char_id: str) -> list[dict]:
    """One character's legal moves now, each with its path, cost (and a rider's final facing)."""
    c = state.characters.get(char_id)
    return _move_entries(state, c, moves_of(state, char_id)) if c is not None else []


def options(state) -> dict:
    """The legal actions now, grouped for the board and enriched with costs and odds so the
    player sees them before committing (all computed by the engine).

    ``reach`` gives, for every character who can move, each hex he can reach with its cheapest
    cost (the board's highlights); ``moves`` the full move list of the characters on foot; a
    rider's list is fetched on demand (:func:`moves`)."""
    acts = legal_actions(state)
    by_char: dict[str, list] = {}
    fires, attacks, prompts, extras, declarations, horse_targets = [], [], [], [], [], []
    end = None
    for a in acts:
        if isinstance(a, Move):
            by_char.setdefault(a.char, []).append(a)
        elif isinstance(a, (FireAtHorse, AttackHorse)):  # fire and attacks at a riderless horse (§6.8)
            horse_targets.append({"action": a.to_json(), "ruling": explain(state, a).to_json()})
        elif isinstance(a, (Mount, Dismount, Carry, ClearBodies, Lead, Kneel, Rise, EnterLitter, LeaveLitter)) \
                or a.type in ("drive_cart", "harness", "unharness"):
            # movement-step actions beside the moves (§4.4.2, §4.4.4, §4.2.3, §4.2.4): not prompts
            extras.append({"action": a.to_json(), "ruling": explain(state, a).to_json()})
        elif isinstance(a, (Fire, Attack)):
            r = explain(state, a).to_json()
            entry = {"action": a.to_json(), "ruling": r}
            (fires if isinstance(a, Fire) else attacks).append(entry)
        elif isinstance(a, EndStep):
            end = a.to_json()
        elif a.type == "declare":  # fire frequency declarations (§5.1), beside the step's actions
            declarations.append({"action": a.to_json(), "ruling": explain(state, a).to_json()})
        elif a.type in ("designate", "volley", "grab"):  # defensive fire (§5.3), a grab (§4.4.4): the odds
            prompts.append({"action": a.to_json(), "ruling": explain(state, a).to_json()})
        else:
            prompts.append({"action": a.to_json()})
    moves_inline, reach = {}, {}
    for cid, lst in by_char.items():
        c = state.characters[cid]
        entries = _move_entries(state, c, lst)
        cheapest: dict[str, int | None] = {}
        for e in entries:
            old = cheapest.get(e["to"], -1)
            if old == -1 or (e["cost"] is not None and (old is None or e["cost"] < old)):
                cheapest[e["to"]] = e["cost"]
        reach[cid] = cheapest
        if not _lazy(c):
            moves_inline[cid] = entries
    return {"moves": moves_inline, "reach": reach, "fires": fires, "attacks": attacks, "prompts": prompts, "extras": extras,
            "declarations": declarations, "horse_targets": horse_targets, "end_step": end}
