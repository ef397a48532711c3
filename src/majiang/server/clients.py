"""The people (and bots) around a room: websocket clients with their rate limit and outbound
queue, the run-time state of a seat, and what a seat does when nobody decides for it.

A room never waits on a websocket: it hands each frame to the client (:meth:`Client.push`),
which sends it at once if its connection takes it without waiting and otherwise leaves it, in
order, to the client's own writer task, each frame within ``SEND_TIMEOUT``, the rest in a bounded
queue. A client whose queue overflows or whose send times out is dropped (its connection closed;
a seated player keeps the seat and gets the whole state on reconnecting), so no client can slow
a table by not reading."""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action, Discard, Pass, ThrowBullets
from ..engine.table import Observation
from ..rules.registry import rule_set
from .limits import TokenBucket

try:  # the server extra's fast JSON codec; the standard library's otherwise
    import orjson
except ImportError:  # pragma: no cover - orjson comes with the server extra
    orjson = None  # type: ignore[assignment]

Send = Callable[[str], Coroutine[Any, Any, None]]
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


MAX_QUEUED_BYTES = 1 << 20
"""A client with more than this much unsent (1 MB) is dropped."""
MAX_QUEUED_FRAMES = 256
"""A client with more than this many frames unsent is dropped."""
SEND_TIMEOUT = 10.0
"""A frame the client's connection has not taken within this many seconds drops the client."""
RESYNC_SECONDS = 0.5
"""The least time between two resyncs of one client (a faster one is refused)."""

SPECTATOR = -1
"""The seat number of a spectator's connection."""


def default_bot(rules: str) -> str:
    """The bot that fills seats and takes over for absent players: the rule set's
    :attr:`~majiang.rules.info.RuleSetDescription.default_bot`."""
    return rule_set(rules).default_bot


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
    messages: TokenBucket = field(default_factory=lambda: TokenBucket(50.0, 100.0))
    """Its messages' rate limit: 50 a second on average, 100 at once."""
    changes_only: bool = False
    """Asked for ``updates=changed``: no ``update`` that would tell it nothing new."""
    seen: str | None = None
    """The encoded observation of the last ``update`` sent (None after a ``state``)."""
    last_resync: float = float("-inf")
    queue: deque[str] = field(default_factory=deque)
    queued_bytes: int = 0
    dropped: str | None = None
    """Why the client was dropped (its queue overflowed, a send timed out), once it was."""
    busy: bool = False
    """One of its messages is being handled (see ``play_routes._read``)."""
    closing: tuple[int, str] | None = None
    """The close code and reason to end the connection with once the queued frames are sent
    (see :meth:`close`)."""
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _writer: asyncio.Task[None] | None = None
    _sending_since: float | None = None
    """When the frame being sent was handed to the connection (``loop.time()``), if one is."""
    _watchdog: asyncio.TimerHandle | None = None
    _timed_out: bool = False
    _idle: bool = False
    """The writer is waiting for a frame: nothing is queued or being sent."""
    _started: tuple[Coroutine[Any, Any, None], Any] | None = None
    """A send begun by :meth:`push` that had to wait, and what it waits for: the writer ends it."""

    def send(self, frame: dict[str, Any]) -> None:
        """Encode a frame and queue it (never waits)."""
        self.push(encode(frame))

    def push(self, text: str) -> None:
        """Send an encoded frame now if the connection takes it without waiting (the writer
        idle), or queue it for the writer; drop the client if it has too much unsent."""
        if self.dropped is not None:
            return
        if self._idle and self.closing is None:
            self._send_now(text)
            return
        self.queue.append(text)
        self.queued_bytes += len(text)
        if len(self.queue) > MAX_QUEUED_FRAMES or self.queued_bytes > MAX_QUEUED_BYTES:
            self.drop("too many frames unread")
        self._wake.set()

    def _send_now(self, text: str) -> None:
        """Run the send to its first wait: most sends never wait (the connection's buffer takes
        the frame), and those need no task switch; one that waits is the writer's to finish."""
        sending = self.send_text(text)
        try:
            waits_for = sending.send(None)
        except StopIteration:
            return
        except Exception:
            self.drop("the connection failed")
            return
        self._idle = False
        self._started = (sending, waits_for)
        self._wake.set()

    def drop(self, reason: str) -> None:
        """Stop sending to this client (the writer ends; the connection is then closed)."""
        if self.dropped is None:
            self.dropped = reason
            self.queue.clear()
            self.queued_bytes = 0
        self._wake.set()

    def close(self, code: int, reason: str) -> None:
        """End the connection with ``code`` and ``reason`` once the frames queued so far are
        sent (the writer then stops)."""
        if self.dropped is None and self.closing is None:
            self.closing = (code, reason)
        self._wake.set()

    async def write(self) -> None:
        """The writer task: send the queued frames in order, each within ``SEND_TIMEOUT``;
        returns when the client is dropped (or its connection fails). The time limit is kept
        by a watchdog (see :meth:`_watch`), not a timer per frame."""
        writer = self._writer = asyncio.current_task()
        assert writer is not None
        loop = asyncio.get_running_loop()
        try:
            while self.dropped is None:
                started, self._started = self._started, None
                if started is None and not self.queue:
                    if self.closing is not None:
                        self.dropped = "closed"
                        return
                    self._wake.clear()
                    self._idle = True
                    try:
                        await self._wake.wait()
                    finally:
                        self._idle = False
                    continue
                if started is not None:
                    sending = _finish(*started)
                else:
                    text = self.queue.popleft()
                    self.queued_bytes -= len(text)
                    sending = self.send_text(text)
                self._sending_since = loop.time()
                if self._watchdog is None:
                    self._watchdog = loop.call_at(self._sending_since + SEND_TIMEOUT, self._watch)
                try:
                    await sending
                except asyncio.CancelledError:
                    if not self._timed_out:
                        raise
                    writer.uncancel()
                    self.drop("a frame was not read in time")
                except Exception:
                    self.drop("the connection failed")
                finally:
                    self._sending_since = None
        finally:
            if self._watchdog is not None:
                self._watchdog.cancel()
                self._watchdog = None

    def _watch(self) -> None:
        """The writer's watchdog: cancels a send that has taken ``SEND_TIMEOUT``, otherwise
        looks again when the current send's time is up (not again while nothing is sent)."""
        self._watchdog = None
        since = self._sending_since
        if since is None or self._writer is None:
            return
        loop = asyncio.get_running_loop()
        if loop.time() - since >= SEND_TIMEOUT:
            self._timed_out = True
            self._writer.cancel()
        else:
            self._watchdog = loop.call_at(since + SEND_TIMEOUT, self._watch)

    def allow(self) -> bool:
        """Whether the rate limit lets this message through (see :attr:`messages`)."""
        return self.messages.take(time.monotonic()) == 0

    def allow_resync(self) -> bool:
        """At most one resync every ``RESYNC_SECONDS`` (a whole state is the largest frame)."""
        now = time.monotonic()
        if now - self.last_resync < RESYNC_SECONDS:
            return False
        self.last_resync = now
        return True


async def _finish(sending: Coroutine[Any, Any, None], waits_for: Any) -> None:
    """Run a coroutine that was started by hand and is waiting for ``waits_for`` (a future, or
    None for a bare yield) to its end, as its task would have."""
    while True:
        try:
            if waits_for is None:
                await asyncio.sleep(0)
            else:
                await asyncio.wait((waits_for,))
        except BaseException:  # cancelled (the watchdog): the send is abandoned
            sending.close()
            raise
        try:
            waits_for = sending.send(None)
        except StopIteration:
            return


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
    seated_at: float | None = None
    """When the player took the seat (seconds since the epoch): the ready timeout counts
    from there."""


__all__ = [
    "MAX_QUEUED_BYTES",
    "MAX_QUEUED_FRAMES",
    "RESYNC_SECONDS",
    "SEND_TIMEOUT",
    "SPECTATOR",
    "Client",
    "SeatState",
    "Send",
    "default_action",
    "default_bot",
    "encode",
]
