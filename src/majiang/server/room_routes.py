"""HTTP routes of the rooms and their seats: the rule sets a room may be made with, making and
listing rooms, taking and freeing seats. Address limits (429 with ``Retry-After``) guard making
rooms and taking seats."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from anyio import from_thread
from fastapi import APIRouter, HTTPException, Query, Request, Response
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..bots import UnknownBotError, check_bot
from ..errors import MajiangError
from ..rules.registry import make_rules, rules_options
from .limits import AddressBuckets
from .models import Player, Room, Seat
from .protocol import (
    RoomCreate,
    RoomCreated,
    RoomSummary,
    RoomView,
    RuleSetListing,
    SeatGrant,
    SeatRequest,
)
from .room import RoomError, RoomGone, RoomRuntime
from .server_state import Served, ServerState, room_or_404
from .store import new_code, new_token, token_hash, token_matches
from .web import rule_sets

CREATOR_HEADER = "X-Creator-Token"
"""The header that carries a room creator's token."""
RELOAD_TRIES = 3
"""How many times a seat request is tried on a room dropped from memory meanwhile."""
NOT_STORED_AS_GIVEN = {"options", "bots", "seed"}
"""The fields of a room request its room does not store as given: the options are stored
complete, the bots become seats and a missing seed is drawn; the room stores every other one."""

router = APIRouter()


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def _throttle(buckets: AddressBuckets, request: Request, what: str) -> None:
    wait = buckets.wait(_address(request))
    if wait:
        raise HTTPException(429, f"too many {what} from your address: try again in {wait} s",
                            headers={"Retry-After": str(wait)})


def _unfinished(server: ServerState, codes: set[str]) -> set[str]:
    """The rooms among ``codes`` not finished."""
    if not codes:
        return set()
    with server.store.session() as session:
        return server.store.unfinished_codes(session, codes)


async def _on_live_room(server: ServerState, code: str,
                        change: Callable[[RoomRuntime], Awaitable[Any]]) -> Any:
    """``change`` on the room ``code``; if the room was dropped from memory before it got
    the room's lock (:class:`RoomGone`, nothing changed), on the room read back again.
    A 503 (``Retry-After: 1``) if it keeps being dropped."""
    for _ in range(RELOAD_TRIES):
        runtime = await room_or_404(server.rooms, code)
        try:
            return await change(runtime)
        except RoomGone:
            continue
    raise HTTPException(503, "the room is being reloaded: try again",
                        headers={"Retry-After": "1"})


@router.get("/rules", response_model=list[RuleSetListing])
def rules_catalog() -> list[dict[str, Any]]:
    """Each rule set's options (type, default, choices, meaning) and the bots that play it."""
    return rule_sets()


@router.get("/rooms", response_model=list[RoomSummary])
def list_rooms(
    server: Served,
    status: str | None = Query(None, pattern="^(waiting|playing|finished)$"),
    limit: int = Query(50, ge=1, le=200),
) -> list[dict[str, Any]]:
    """The most recent rooms first (``status`` to keep one kind): to join, watch or replay."""
    query = select(Room).options(selectinload(Room.seats).selectinload(Seat.player))
    if status is not None:
        query = query.where(Room.status == status)
    with server.store.session() as session:
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
                "paused": room.status == "playing" and server.rooms.paused(room.code),
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


@router.post("/rooms", response_model=RoomCreated, status_code=201)
def create_room(request: RoomCreate, http: Request,
                server: Served) -> dict[str, Any]:
    """Create a room: rule set, options, stake, match length, timers and bots; the answer
    carries the creator's token (shown only here). Refused with 429 (and ``Retry-After``)
    past the address's rate or its unfinished rooms, 503 when the server has as many
    waiting rooms as it takes."""
    limits = server.limits
    if request.seed is not None and not server.chosen_seeds:
        raise HTTPException(403, "this server does not allow chosen seeds")
    if request.turn_seconds < limits.min_turn_seconds:
        raise HTTPException(422, f"turn_seconds must be at least {limits.min_turn_seconds:g} "
                                 "on this server")
    if request.bot_seconds < limits.min_bot_seconds:
        raise HTTPException(422, f"bot_seconds must be at least {limits.min_bot_seconds:g} "
                                 "on this server")
    _throttle(server.room_buckets, http, "new rooms")
    address, created_by = _address(http), server.created_by
    with server.created_lock:
        mine = created_by[address] = _unfinished(server, created_by.get(address, set()))
    if len(mine) >= limits.rooms_per_address:
        raise HTTPException(429, f"your address has {len(mine)} rooms not finished, the most "
                                 "it may have: finish or wait for one",
                            headers={"Retry-After": "60"})
    from_thread.run_sync(server.rooms.make_room)  # RoomsFull (503) before anything is stored
    with server.store.session() as session:
        waiting = server.store.count_waiting(session)
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
    with server.store.session() as session:
        code = new_code()
        while server.store.room_by_code(session, code) is not None:
            code = new_code()
        room = Room(
            **request.model_dump(exclude=NOT_STORED_AS_GIVEN),
            code=code,
            options=rules_options(rules),
            creator_token_hash=token_hash(creator),
            seed=request.seed if request.seed is not None else secrets.randbits(62),
            seed_chosen=request.seed is not None,
            status="waiting",
        )
        session.add(room)
        session.flush()
        for seat, bot in enumerate(request.bots):
            session.add(Seat(room_id=room.id, seat=seat, bot=bot))
    with server.created_lock:
        mine.add(code)
    # this handler runs in a worker thread
    runtime = from_thread.run(room_or_404, server.rooms, code)
    return {**runtime.view(), "creator_token": creator}


@router.get("/rooms/{code}", response_model=RoomView)
async def get_room(code: str, server: Served) -> dict[str, Any]:
    """A room's settings, seats and status (never a token)."""
    return (await room_or_404(server.rooms, code)).view()


@router.post("/rooms/{code}/seats/{seat}", response_model=SeatGrant, status_code=201)
async def take_seat(code: str, seat: int, request: SeatRequest, http: Request,
                    server: Served) -> dict[str, Any]:
    """Take an empty seat before the match starts; the token is shown only here. Refused
    with 429 (and ``Retry-After``) past the address's rate."""
    _throttle(server.seat_buckets, http, "seats taken")
    if seat not in range(4):
        raise HTTPException(422, "seats are 0-3")
    return dict(await _on_live_room(
        server, code, lambda runtime: _seat_in(server, runtime, seat, request)))


async def _seat_in(server: ServerState, runtime: RoomRuntime, seat: int,
                   request: SeatRequest) -> dict[str, Any]:
    async with runtime.lock:
        if runtime.evicted:
            raise RoomGone(f"room {runtime.code} was dropped from memory")
        state = runtime.seats[seat]
        if runtime.status != "waiting":
            raise HTTPException(409, "the match has started: seats are closed")
        if state.player_id is not None or state.bot is not None:
            raise HTTPException(409, f"seat {seat} is taken")
        token, seated_at = new_token(), datetime.now(UTC)
        hashed = token_hash(token)
        with server.store.session() as session:
            player = Player(name=request.name)
            session.add(player)
            session.flush()
            room = server.store.room_by_code(session, runtime.code)
            assert room is not None
            row = room.seats[seat]
            row.player_id = player.id
            row.token_hash = hashed
            row.seated_at = seated_at
            player_id = player.id
        runtime.seat_taken(seat, player_id, request.name, hashed, seated_at.timestamp())
    return {"code": runtime.code, "seat": seat, "player_id": player_id, "token": token}


@router.delete("/rooms/{code}/seats/{seat}", status_code=204)
async def free_seat(code: str, seat: int, http: Request,
                    server: Served) -> Response:
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

    await _on_live_room(server, code, free)
    return Response(status_code=204)
