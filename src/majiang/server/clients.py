"""The people (and bots) around a room: websocket clients with their rate limit, the run-time
state of a seat, and what a seat does when nobody decides for it."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action, Discard, Pass, ThrowBullets
from ..engine.table import Observation

try:  # the server extra's fast JSON codec; the standard library's otherwise
    import orjson
except ImportError:  # pragma: no cover - orjson comes with the server extra
    orjson = None  # type: ignore[assignment]

Send = Callable[[str], Awaitable[None]]
"""Sends one encoded frame (a JSON text) to one websocket client."""

_encode_std = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def encode(frame: dict[str, Any]) -> str:
    """A frame as the text of one websocket message: compact JSON, UTF-8 (non-ASCII as is)."""
    if orjson is None:  # pragma: no cover
        return _encode_std(frame)
    try:
        return orjson.dumps(frame).decode()
    except TypeError:  # a key that is not a string (json writes it as one), or a huge integer
        return _encode_std(frame)


SPECTATOR = -1
"""The seat number of a spectator's connection."""


def default_bot(rules: str) -> str:
    """The bot that fills seats and takes over for absent players."""
    return "wild" if rules == "huangyan" else "efficient"


def default_action(obs: Observation) -> Action:
    """What a seat does when its timer runs out: pass, throw nothing, or discard the drawn tile
    (the last tile of the hand after a claim)."""
    legal = obs.legal_actions
    for action in legal:
        if isinstance(action, Pass) or action == ThrowBullets(0):
            return action
    if obs.drawn is not None and Discard(obs.drawn) in legal:
        return Discard(obs.drawn)
    discards = [a for a in legal if isinstance(a, Discard)]
    return discards[-1] if discards else legal[0]


@dataclass
class Client:
    """One websocket connection: a seat (0-3) or a spectator."""

    seat: int
    send_text: Send
    rate: float = 50.0
    """Messages a second allowed on average (token bucket)."""
    burst: float = 100.0
    """Messages allowed at once."""
    tokens: float = 100.0
    refilled: float = field(default_factory=time.monotonic)
    changes_only: bool = False
    """Asked for ``updates=changed``: no ``update`` that would tell it nothing new."""
    seen: str | None = None
    """The encoded observation of the last ``update`` sent (None after a ``state``)."""

    async def send(self, frame: dict[str, Any]) -> None:
        """Encode a frame and send it."""
        await self.send_text(encode(frame))

    def allow(self) -> bool:
        """Token-bucket rate limit: ``rate`` messages a second, bursts of ``burst``."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.rate)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass
class SeatState:
    """A seat at run time (mirrors the ``seats`` row, plus connections)."""

    player_id: int | None = None
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    ready: bool = False
    clients: list[Client] = field(default_factory=list)
    away_since: float | None = None
    taken_over: bool = False


async def safe_send(client: Client, text: str) -> None:
    """Send an encoded frame; a connection that has gone away is not the sender's problem."""
    with contextlib.suppress(Exception):
        await client.send_text(text)


__all__ = [
    "SPECTATOR",
    "Client",
    "SeatState",
    "Send",
    "default_action",
    "default_bot",
    "encode",
    "safe_send",
]
