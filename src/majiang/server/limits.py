"""What one client address may ask of the server over HTTP: token buckets for room creation and
seat taking, and caps on the rooms one address (and everyone) may leave waiting."""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Limits:
    """The HTTP limits of a server (``create_app(limits=...)``); the defaults suit a public one."""

    room_rate: float = 0.1
    """Rooms one address may create a second on average (one every 10 s)."""
    room_burst: float = 10.0
    """Rooms one address may create at once."""
    seat_rate: float = 1.0
    """Seats one address may take a second on average."""
    seat_burst: float = 20.0
    """Seats one address may take at once."""
    rooms_per_address: int = 20
    """Rooms created by one address that may be unfinished (waiting or playing) at once."""
    waiting_rooms: int = 1000
    """Rooms that may be waiting for players at once, whoever created them."""
    min_turn_seconds: float = 1.0
    """The shortest turn timer a room may set: a connected player who never answers keeps the
    bots playing (see ``RoomRuntime``), one default action per turn timer."""
    min_bot_seconds: float = 0.0
    """The shortest pause a room may set between bot moves (``bot_seconds``): 0 lets a room of
    bots play as fast as the server can, until it pauses unwatched; a public server sets a floor
    (``majiang serve --min-bot-seconds``)."""
    unwatched_seconds: float = 60.0
    """A match nobody is connected to (no player, no spectator) goes on this long, its bots
    standing in for the absent, then pauses until someone connects."""
    idle_seconds: float = 300.0
    """A room nobody has been connected to or asked about for this long (finished, waiting
    with no seat to free, or paused) is dropped from memory; it is read again from the
    database when asked for."""
    live_rooms: int = 1000
    """The most rooms held in memory: past it, the least recently used idle ones are dropped,
    and if none is idle a room that is not live is refused (503)."""


WEBSOCKET_RATE = 50.0
"""Messages one websocket may send a second on average (``create_app(rate=...)``)."""
WEBSOCKET_BURST = 100.0
"""Messages one websocket may send at once (``create_app(burst=...)``)."""

UNLIMITED = Limits(room_rate=1e9, room_burst=1e9, seat_rate=1e9, seat_burst=1e9,
                   rooms_per_address=10**9, waiting_rooms=10**9, min_turn_seconds=0.0,
                   unwatched_seconds=60.0, live_rooms=10**9)
"""No HTTP limit (tests that create many rooms from one address)."""

MAX_ADDRESSES = 10_000
"""Past this many addresses remembered, those whose buckets have refilled are forgotten."""


@dataclass
class TokenBucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` held (full at first)."""

    rate: float
    burst: float
    tokens: float = -1.0
    """Tokens held (negative: not yet set, the bucket starts full)."""
    refilled: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst

    def take(self, now: float) -> float:
        """Take a token: 0 if there was one, otherwise the seconds until there is (nothing
        taken)."""
        self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.rate)
        self.refilled = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate


@dataclass
class AddressBuckets:
    """One token bucket per client address: ``rate`` requests a second, ``burst`` at once."""

    rate: float
    burst: float
    buckets: dict[str, TokenBucket] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    """Held while the buckets change (room creation runs in the thread pool)."""

    def wait(self, address: str) -> int:
        """Take a token for ``address``: 0 if it had one, otherwise the whole seconds to wait
        before it has one again (nothing taken)."""
        with self._lock:
            return self._take(address, time.monotonic())

    def _take(self, address: str, now: float) -> int:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= MAX_ADDRESSES:
                self._forget_full(now)
            bucket = self.buckets[address] = TokenBucket(self.rate, self.burst, refilled=now)
        wait = bucket.take(now)
        return 0 if wait == 0 else max(1, math.ceil(wait))

    def _forget_full(self, now: float) -> None:
        """Forget the addresses whose buckets are full again (they lose nothing by it), and if
        that is not enough the oldest half."""
        full = self.burst / self.rate
        for address in [a for a, b in self.buckets.items() if now - b.refilled >= full]:
            del self.buckets[address]
        if len(self.buckets) >= MAX_ADDRESSES:  # still too many: the longest known go first
            for address in list(self.buckets)[: MAX_ADDRESSES // 2]:
                del self.buckets[address]


__all__ = ["MAX_ADDRESSES", "UNLIMITED", "WEBSOCKET_BURST", "WEBSOCKET_RATE", "AddressBuckets",
           "Limits", "TokenBucket"]
