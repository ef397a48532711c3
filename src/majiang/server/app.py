"""The FastAPI application: rooms and seats over HTTP, play over a websocket per client.

``create_app(db_url)`` builds it; ``majiang serve`` runs it with uvicorn. HTTP endpoints are
documented in the OpenAPI page (``/docs``); the websocket schema is ``protocol.py`` and
``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from anyio import from_thread
from fastapi import FastAPI, HTTPException, Path, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import TypeAdapter, ValidationError
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..bots import UnknownBotError, check_bot
from ..errors import MajiangError
from ..rules.registry import make_rules, rules_options
from .clients import SEND_TIMEOUT, SPECTATOR, Client
from .limits import WEBSOCKET_BURST, WEBSOCKET_RATE, AddressBuckets, Limits, TokenBucket
from .models import HandRow, MatchRow, Player, Room, Seat
from .organiser_routes import MAX_BODY
from .organiser_routes import router as organiser_router
from .protocol import (
    MAX_MESSAGE_BYTES,
    VERSION,
    ActMessage,
    ClientMessage,
    HandSummary,
    HintMessage,
    NextMessage,
    PingMessage,
    PlayerStats,
    Replay,
    ResyncMessage,
    RoomCreate,
    RoomCreated,
    RoomSummary,
    RoomView,
    RuleSetListing,
    SeatGrant,
    SeatRequest,
)
from .records import hand_record
from .room import RoomError, RoomGone, RoomRuntime
from .rooms import Rooms, RoomsFull
from .store import Store, new_code, new_token, token_hash, token_matches
from .web import STATIC_DIR, RevalidatedFiles, replay_steps, rule_sets

_MESSAGES: TypeAdapter[Any] = TypeAdapter(ClientMessage)
CREATOR_HEADER = "X-Creator-Token"
"""The header that carries a room creator's token."""
RELOAD_TRIES = 3
"""How many times a seat request is tried on a room dropped from memory meanwhile."""
MAX_BODY_BYTES = MAX_BODY
"""A request body over this (the organiser's limit, 64 KB) is refused with 413 unparsed."""


class _BodyLimit:
    """ASGI middleware: a request body longer than ``MAX_BODY_BYTES`` gets a 413, whether its
    ``Content-Length`` says so or its chunks add up to it."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            await _too_large(scope, receive, send)
            return
        body = bytearray()  # read whole (it is small) before the application sees it
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if len(body) > MAX_BODY_BYTES:
                await _too_large(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)




async def _too_large(scope: Any, receive: Any, send: Any) -> None:
    response = JSONResponse({"detail": f"the body is larger than {MAX_BODY_BYTES // 1024} KB"},
                            status_code=413, headers=SECURITY_HEADERS)
    await response(scope, receive, send)


def _id() -> Any:
    """A database id in a path: larger ones are a 422, not a database overflow."""
    return Path(ge=1, lt=2**63)


SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
"""Sent with every HTTP answer: only the server's own scripts run, nothing is sniffed into
another type, no other site frames the pages."""


def create_app(
    db_url: str = "sqlite:///majiang.db",
    *,
    rate: float = WEBSOCKET_RATE,
    burst: float = WEBSOCKET_BURST,
    chosen_seeds: bool = True,
    origins: list[str] | None = None,
    limits: Limits = Limits(),  # noqa: B008 (frozen: never changed)
) -> FastAPI:
    """The server application on the database at ``db_url``; each websocket may send ``rate``
    messages a second on average, ``burst`` at once (more get an error frame). Without
    ``chosen_seeds`` (a public server), a room with a chosen seed is refused (403). A websocket
    whose ``Origin`` header names another site is refused unless listed in ``origins``
    (``["*"]``: any); clients that send no ``Origin`` (not browsers) are let in. ``limits``:
    what one client address may ask over HTTP (see :class:`Limits`)."""
    store = Store(db_url)
    rooms = Rooms(store, limits)
    room_buckets = AddressBuckets(limits.room_rate, limits.room_burst)
    seat_buckets = AddressBuckets(limits.seat_rate, limits.seat_burst)
    created_by: dict[str, set[str]] = {}
    """The codes of the rooms each address created that may not be finished yet."""
    created_lock = threading.Lock()

    def address(request: Request) -> str:
        return request.client.host if request.client is not None else "unknown"

    def throttle(buckets: AddressBuckets, request: Request, what: str) -> None:
        wait = buckets.wait(address(request))
        if wait:
            raise HTTPException(429, f"too many {what} from your address: try again in {wait} s",
                                headers={"Retry-After": str(wait)})

    def unfinished(codes: set[str]) -> set[str]:
        """The rooms among ``codes`` not finished."""
        if not codes:
            return set()
        with store.session() as session:
            return store.unfinished_codes(session, codes)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await rooms.resume_all()
        keeper = asyncio.create_task(rooms.keep())
        yield
        keeper.cancel()
        await asyncio.gather(keeper, return_exceptions=True)
        store.close()

    app = FastAPI(
        title="majiang",
        version=str(VERSION),
        summary="Rooms, seats and play for Guobiao and Huangyan mahjong.",
        lifespan=lifespan,
    )
    app.state.rooms = rooms
    app.state.store = store
    app.add_middleware(_BodyLimit)

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    @app.exception_handler(UnicodeEncodeError)
    async def not_text(request: Request, error: UnicodeEncodeError) -> JSONResponse:
        """A lone surrogate (``"\\ud800"`` in JSON) is no text: refused, never stored."""
        return JSONResponse({"detail": "the request holds a string that is not valid text "
                                       "(a lone surrogate)"}, status_code=422)

    @app.exception_handler(RoomsFull)
    async def rooms_full(request: Request, error: RoomsFull) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=503, headers={"Retry-After": "60"})

    async def room_or_404(code: str) -> RoomRuntime:
        runtime = await rooms.get(code.upper())
        if runtime is None:
            raise HTTPException(404, f"no room {code!r}")
        return runtime

    async def on_live_room(code: str, change: Callable[[RoomRuntime], Awaitable[Any]]) -> Any:
        """``change`` on the room ``code``; if the room was dropped from memory before it got
        the room's lock (:class:`RoomGone`, nothing changed), on the room read back again.
        A 503 (``Retry-After: 1``) if it keeps being dropped."""
        for _ in range(RELOAD_TRIES):
            runtime = await room_or_404(code)
            try:
                return await change(runtime)
            except RoomGone:
                continue
        raise HTTPException(503, "the room is being reloaded: try again",
                            headers={"Retry-After": "1"})

    @app.get("/", include_in_schema=False)
    def home() -> FileResponse:
        """The browser table (lobby, table, score sheets, replays): one page."""
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", RevalidatedFiles(directory=STATIC_DIR), name="static")
    app.include_router(organiser_router)
    from .review_routes import router as review_router  # its own module: reviews of hands

    app.include_router(review_router)

    @app.get("/rules", response_model=list[RuleSetListing])
    def rules_catalog() -> list[dict[str, Any]]:
        """Each rule set's options (type, default, choices, meaning) and the bots that play it."""
        return rule_sets()

    @app.get("/rooms", response_model=list[RoomSummary])
    def list_rooms(
        status: str | None = Query(None, pattern="^(waiting|playing|finished)$"),
        limit: int = Query(50, ge=1, le=200),
    ) -> list[dict[str, Any]]:
        """The most recent rooms first (``status`` to keep one kind): to join, watch or replay."""
        query = select(Room).options(selectinload(Room.seats).selectinload(Seat.player))
        if status is not None:
            query = query.where(Room.status == status)
        with store.session() as session:
            rooms_found = session.scalars(query.order_by(Room.id.desc()).limit(limit)).all()
            return [
                {
                    "code": room.code,
                    "rules": room.rules,
                    "status": room.status,
                    "stake": room.stake,
                    "hands": room.hands,
                    "rounds": room.rounds,
                    "chosen_seed": room.seed_chosen,
                    "paused": room.status == "playing" and rooms.paused(room.code),
                    "seats": [
                        {
                            "seat": row.seat,
                            "player": row.player.name if row.player is not None else None,
                            "bot": row.bot,
                        }
                        for row in room.seats
                    ],
                    "open_seats": [
                        row.seat
                        for row in room.seats
                        if room.status == "waiting" and row.player_id is None and row.bot is None
                    ],
                }
                for room in rooms_found
            ]

    @app.post("/rooms", response_model=RoomCreated, status_code=201)
    def create_room(request: RoomCreate, http: Request) -> dict[str, Any]:
        """Create a room: rule set, options, stake, match length, timers and bots; the answer
        carries the creator's token (shown only here). Refused with 429 (and ``Retry-After``)
        past the address's rate or its unfinished rooms, 503 when the server has as many
        waiting rooms as it takes."""
        if request.seed is not None and not chosen_seeds:
            raise HTTPException(403, "this server does not allow chosen seeds")
        if request.turn_seconds < limits.min_turn_seconds:
            raise HTTPException(422, f"turn_seconds must be at least {limits.min_turn_seconds:g} "
                                     "on this server")
        if request.bot_seconds < limits.min_bot_seconds:
            raise HTTPException(422, f"bot_seconds must be at least {limits.min_bot_seconds:g} "
                                     "on this server")
        throttle(room_buckets, http, "new rooms")
        with created_lock:
            mine = created_by[address(http)] = unfinished(created_by.get(address(http), set()))
        if len(mine) >= limits.rooms_per_address:
            raise HTTPException(429, f"your address has {len(mine)} rooms not finished, the most "
                                     "it may have: finish or wait for one",
                                headers={"Retry-After": "60"})
        from_thread.run_sync(rooms.make_room)  # RoomsFull (503) before anything is stored
        with store.session() as session:
            waiting = store.count_waiting(session)
        if waiting >= limits.waiting_rooms:
            raise HTTPException(503, f"the server has {waiting} rooms waiting for players, the "
                                     "most it takes: join one or try later",
                                headers={"Retry-After": "60"})
        try:
            rules = make_rules(request.rules, request.options)
            for bot in [*request.bots, request.fill_bot]:
                if bot is not None:
                    check_bot(bot, request.rules)
        except (MajiangError, UnknownBotError) as error:
            raise HTTPException(422, str(error)) from None
        creator = new_token()
        with store.session() as session:
            code = new_code()
            while store.room_by_code(session, code) is not None:
                code = new_code()
            room = Room(
                code=code,
                rules=request.rules,
                options=rules_options(rules),
                stake=request.stake,
                hands=request.hands,
                rounds=request.rounds,
                turn_seconds=request.turn_seconds,
                grace_seconds=request.grace_seconds,
                spectator_delay=request.spectator_delay,
                bot_seconds=request.bot_seconds,
                next_seconds=request.next_seconds,
                ready_seconds=request.ready_seconds,
                creator_token_hash=token_hash(creator),
                seed=request.seed if request.seed is not None else secrets.randbits(62),
                seed_chosen=request.seed is not None,
                fill_bot=request.fill_bot,
                status="waiting",
            )
            session.add(room)
            session.flush()
            for seat, bot in enumerate(request.bots):
                session.add(Seat(room_id=room.id, seat=seat, bot=bot))
        with created_lock:
            mine.add(code)
        runtime = from_thread.run(room_or_404, code)  # this handler runs in a worker thread
        return {**runtime.view(), "creator_token": creator}

    @app.get("/rooms/{code}", response_model=RoomView)
    async def get_room(code: str) -> dict[str, Any]:
        """A room's settings, seats and status (never a token)."""
        return (await room_or_404(code)).view()

    @app.post("/rooms/{code}/seats/{seat}", response_model=SeatGrant, status_code=201)
    async def take_seat(code: str, seat: int, request: SeatRequest,
                        http: Request) -> dict[str, Any]:
        """Take an empty seat before the match starts; the token is shown only here. Refused
        with 429 (and ``Retry-After``) past the address's rate."""
        throttle(seat_buckets, http, "seats taken")
        if seat not in range(4):
            raise HTTPException(422, "seats are 0-3")
        return dict(await on_live_room(code, lambda runtime: seat_in(runtime, seat, request)))

    async def seat_in(runtime: RoomRuntime, seat: int, request: SeatRequest) -> dict[str, Any]:
        async with runtime.lock:
            if runtime.evicted:
                raise RoomGone(f"room {runtime.code} was dropped from memory")
            state = runtime.seats[seat]
            if runtime.status != "waiting":
                raise HTTPException(409, "the match has started: seats are closed")
            if state.player_id is not None or state.bot is not None:
                raise HTTPException(409, f"seat {seat} is taken")
            token, seated_at = new_token(), datetime.now(UTC)
            with store.session() as session:
                player = Player(name=request.name)
                session.add(player)
                session.flush()
                room = store.room_by_code(session, runtime.code)
                assert room is not None
                row = room.seats[seat]
                row.player_id = player.id
                row.token_hash = token_hash(token)
                row.seated_at = seated_at
                player_id = player.id
            runtime.seat_taken(seat, player_id, request.name, token_hash(token),
                               seated_at.timestamp())
        return {"code": runtime.code, "seat": seat, "player_id": player_id, "token": token}

    @app.delete("/rooms/{code}/seats/{seat}", status_code=204)
    async def free_seat(code: str, seat: int, http: Request) -> Response:
        """The room's creator frees a person's seat before the match starts (the creator's
        token in the ``X-Creator-Token`` header): 403 without the right token, 409 once the
        match has started or for a seat no person holds."""
        if seat not in range(4):
            raise HTTPException(422, "seats are 0-3")
        creator = http.headers.get(CREATOR_HEADER, "")

        async def free(runtime: RoomRuntime) -> None:
            if not token_matches(creator, runtime.creator_token_hash):
                raise HTTPException(403, "only the room's creator (with its token) frees seats")
            try:
                await runtime.free_seat(seat)
            except RoomGone:
                raise
            except RoomError as error:
                raise HTTPException(409, str(error)) from None

        await on_live_room(code, free)
        return Response(status_code=204)

    @app.get("/rooms/{code}/hands", response_model=list[HandSummary])
    async def match_history(code: str) -> list[dict[str, Any]]:
        """The hands of the room's match so far, with the results of finished ones."""
        runtime = await room_or_404(code)
        if runtime.match_id is None:
            return []
        with store.session() as session:
            return [
                {
                    "id": h.id,
                    "number": h.number,
                    "dealer": h.dealer,
                    "finished": h.result is not None,
                    "result": h.result,
                }
                for h in store.hands_of(session, runtime.match_id)
            ]

    @app.get("/hands/{hand_id}/record")
    def record(hand_id: int = _id()) -> list[dict[str, Any]]:
        """A finished hand's record (the replay log, as a list of JSON lines)."""
        lines = hand_record(store, hand_id)
        if lines is None:
            raise HTTPException(404, f"no finished hand {hand_id}")
        return lines

    @app.get("/hands/{hand_id}/replay", response_model=Replay)
    def hand_replay(hand_id: int = _id(), last: bool = False) -> dict[str, Any]:
        """A finished hand replayed by the engine: one full view per step (every hand shown)
        with the action and the events of that step (``last``: the final step only, for a
        score sheet); 404 while the hand is played."""
        lines = hand_record(store, hand_id)
        if lines is None:
            raise HTTPException(404, f"no finished hand {hand_id}")
        with store.session() as session:
            hand = session.get(HandRow, hand_id)
            assert hand is not None
            match_row = session.get(MatchRow, hand.match_id)
            assert match_row is not None
            room = session.get(Room, match_row.room_id)
            assert room is not None
            seats = []
            for row in room.seats:
                player_id = hand.players[row.seat]
                player = store.player(session, player_id) if player_id is not None else None
                seats.append(
                    {
                        "seat": row.seat,
                        "player": player.name if player is not None else None,
                        "bot": row.bot if player is None else None,
                    }
                )
            code, number, rules = room.code, hand.number, room.rules
        return {
            "id": hand_id,
            "room": code,
            "number": number,
            "rules": rules,
            "options": lines[0].get("options", {}),
            "seats": seats,
            "dealer": lines[0]["dealer"],
            "prevalent_wind": lines[0]["prevalent_wind"],
            "steps": replay_steps(lines, last=last),
            "result": lines[-1]["result"],
        }

    @app.get("/players/{player_id}/stats", response_model=PlayerStats)
    def player_stats(player_id: int = _id()) -> dict[str, Any]:
        """A player's wins, deal-ins and points over the finished hands he sat in."""
        with store.session() as session:
            player = store.player(session, player_id)
            if player is None:
                raise HTTPException(404, f"no player {player_id}")
            stats = {"hands": 0, "wins": 0, "self_drawn": 0, "deal_ins": 0, "points": 0}
            for seat_row in store.seats_of_player(session, player_id):
                match_row = store.match_of(session, seat_row.room_id)
                if match_row is None:
                    continue
                for hand in store.hands_of(session, match_row.id):
                    result = hand.result
                    if result is None or hand.players[seat_row.seat] != player_id:
                        continue
                    seat = seat_row.seat
                    stats["hands"] += 1
                    stats["points"] += result["deltas"][seat]
                    if result["winner"] == seat:
                        stats["wins"] += 1
                        stats["self_drawn"] += bool(result["self_drawn"])
                    elif result["winner"] is not None and result["discarder"] == seat:
                        stats["deal_ins"] += 1
            return {"player_id": player_id, "name": player.name, **stats}

    @app.websocket("/ws/{code}")
    async def play(
        websocket: WebSocket,
        code: str,
        token: str | None = None,
        updates: str = Query("all", pattern="^(all|changed)$"),
    ) -> None:
        """One client: a seat (with its token) or a spectator (without); ``updates=changed``:
        no ``update`` frame that tells the client nothing new (see docs/server.md)."""
        origin = websocket.headers.get("origin")
        if not _origin_allowed(origin, websocket.headers.get("host"), origins):
            await websocket.accept()
            await websocket.close(code=4403, reason="websocket from another site refused")
            return
        try:
            runtime = await rooms.get(code.upper())
        except RoomsFull as error:
            await websocket.accept()
            await websocket.close(code=1013, reason=str(error))  # "try again later"
            return
        seat = None if runtime is None else SPECTATOR if token is None else (
            runtime.seat_of_token(token)
        )
        await websocket.accept()
        if runtime is None or seat is None:  # accepted first, so that the client reads why
            await websocket.close(
                code=4404 if runtime is None else 4401,
                reason="no such room" if runtime is None else "bad token",
            )
            return
        client = Client(seat, websocket.send_text, TokenBucket(rate, burst),
                        changes_only=updates == "changed")
        while True:
            try:
                await runtime.connect(client)
                break
            except RoomGone:  # dropped from memory meanwhile: the room as read again
                again = await rooms.get(code.upper())
                if again is None:
                    await websocket.close(code=4404, reason="no such room")
                    return
                runtime = again
        reader = asyncio.create_task(_read(websocket, runtime, client))
        writer = asyncio.create_task(client.write())
        try:
            await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            reader.cancel()
            client.drop("disconnected")
            # shielded: the seat is released even if this handler is being cancelled
            await asyncio.shield(runtime.disconnect(client))
            await asyncio.gather(reader, writer, return_exceptions=True)
        if client.closing is not None:  # the room ended the connection (its seat was freed)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(websocket.close(*client.closing), SEND_TIMEOUT)
        elif client.dropped != "disconnected":  # too slow: its unread bytes are thrown away
            _abort(websocket)

    return app


def _origin_allowed(origin: str | None, host: str | None, allowed: list[str] | None) -> bool:
    """A browser's websocket is let in from the server's own pages (its ``Origin`` names the
    host it connects to) or from a listed origin; a client without ``Origin`` always."""
    if origin is None or (allowed is not None and ("*" in allowed or origin in allowed)):
        return True
    return host is not None and origin.split("://", 1)[-1] == host


def _abort(websocket: WebSocket) -> None:
    """Close a connection at once, unsent bytes and all (a closing handshake would wait for a
    client that does not read). Under uvicorn the ASGI ``send`` is its protocol's method,
    which holds the transport; elsewhere the connection is left to close normally."""
    protocol = getattr(getattr(websocket, "_send", None), "__self__", None)
    transport = getattr(protocol, "transport", None)
    abort = getattr(transport, "abort", None)
    if callable(abort):
        abort()


async def _read(websocket: WebSocket, runtime: RoomRuntime, client: Client) -> None:
    """A client's messages, each handled in turn, until it disconnects."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:  # a binary frame: refused, the connection stays usable
                client.send(_error("send JSON objects in text frames, not binary"))
                continue
            # shielded: a client dropped meanwhile never interrupts an action being committed
            reply = await asyncio.shield(_handle(runtime, client, text))
            if reply is not None:
                client.send(reply)


def _error(message: str) -> dict[str, Any]:
    return {"v": VERSION, "type": "error", "message": message}


async def _handle(runtime: RoomRuntime, client: Client, text: str) -> dict[str, Any] | None:
    """One client message; returns a direct reply (an error, a pong, a state) or None."""
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        return _error(f"message too long (at most {MAX_MESSAGE_BYTES} bytes)")
    if not client.allow():
        return _error("too many messages: slow down")
    try:
        message = _MESSAGES.validate_json(text)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or "message"
        return _error(f"bad message: {where}: {first.get('msg', 'invalid')}")
    if isinstance(message, PingMessage):
        return {"v": VERSION, "type": "pong"}
    if isinstance(message, HintMessage | ResyncMessage):
        # under the lock: an action applied but still being committed is seen by no one
        async with runtime.lock:
            if isinstance(message, ResyncMessage):
                if not client.allow_resync():
                    return _error("too many resyncs: at most two a second")
                client.seen = None
                return runtime.state_frame(client.seat)
            try:
                return runtime.hint_frame(client.seat)
            except MajiangError as error:
                return _error(str(error))
    if client.seat == SPECTATOR:
        return _error("spectators cannot act")
    try:
        if isinstance(message, ActMessage):
            await runtime.act(client.seat, message.action, message.step)
        elif isinstance(message, NextMessage):
            await runtime.next_hand(client.seat)
        else:
            await runtime.ready(client.seat, client)
    except MajiangError as error:
        return _error(str(error))
    return None


__all__ = ["Rooms", "create_app"]
