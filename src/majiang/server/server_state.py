"""What the server's routes share, set once by ``create_app`` as ``app.state.server``: the store,
the rooms in memory, the limits and the per-address buckets."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, HTTPException
from starlette.requests import HTTPConnection

from .limits import AddressBuckets, Limits
from .room import RoomRuntime
from .rooms import Rooms
from .store import Store


@dataclass
class ServerState:
    """One application's shared parts. ``rate``/``burst``: each websocket's message budget;
    ``origins``: the other sites whose websockets are let in; ``chosen_seeds``: whether a room
    may have a chosen seed."""

    store: Store
    rooms: Rooms
    limits: Limits
    rate: float
    burst: float
    chosen_seeds: bool
    origins: list[str] | None
    room_buckets: AddressBuckets
    seat_buckets: AddressBuckets
    created_by: dict[str, set[str]] = field(default_factory=dict)
    """The codes of the rooms each address created that may not be finished yet."""
    created_lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def of(cls, store: Store, limits: Limits, *, rate: float, burst: float,
           chosen_seeds: bool, origins: list[str] | None) -> ServerState:
        """The shared parts of a new application on ``store``."""
        return cls(store, Rooms(store, limits), limits, rate, burst, chosen_seeds, origins,
                   AddressBuckets(limits.room_rate, limits.room_burst),
                   AddressBuckets(limits.seat_rate, limits.seat_burst))


async def server_state(connection: HTTPConnection) -> ServerState:
    """The shared parts of the application serving ``connection`` (a route's dependency)."""
    state: ServerState = connection.app.state.server
    return state


Served = Annotated[ServerState, Depends(server_state)]
"""A route's parameter annotated so: the application's :class:`ServerState`."""


async def room_or_404(rooms: Rooms, code: str) -> RoomRuntime:
    """The room ``code`` (any case), read into memory if need be; 404 if there is none."""
    runtime = await rooms.get(code.upper())
    if runtime is None:
        raise HTTPException(404, f"no room {code!r}")
    return runtime
