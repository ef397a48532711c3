"""The live rooms of a server: loaded from the database on demand (the replay of a match done
off the event loop, so that no other table waits for it), at most ``Limits.live_rooms`` of them,
and kept by a housekeeping task that frees the seats of players not ready in time, pauses the
matches nobody has been connected to for a while, and drops from memory the rooms nobody has
used for ``Limits.idle_seconds``."""

from __future__ import annotations

import asyncio
import logging
import time

from ..errors import MajiangError
from .limits import Limits
from .room import RoomRuntime
from .store import Store

log = logging.getLogger("majiang.server")

KEEP_SECONDS = 0.5
"""How often the housekeeping task looks at the live rooms."""


class RoomsFull(MajiangError):
    """The server holds as many rooms in memory as it may, and every one is in use."""


class Rooms:
    """The live rooms of a server, loaded from the database on first use."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits
        self.live: dict[str, RoomRuntime] = {}
        self._loading: dict[str, asyncio.Task[RoomRuntime | None]] = {}
        """The rooms being read from the database: one load for everyone who asks meanwhile."""

    async def get(self, code: str) -> RoomRuntime | None:
        """The room with this code (None if there is none), loaded and resumed if it is not
        live; a match loaded so, with nobody connected yet, stays paused until someone is.
        Raises :class:`RoomsFull` when it cannot be held."""
        runtime = self.live.get(code)
        if runtime is not None:
            runtime.used = time.monotonic()
            return runtime
        task = self._loading.get(code)
        if task is None:
            task = self._loading[code] = asyncio.create_task(self._load(code, paused=True))
        return await asyncio.shield(task)

    def paused(self, code: str) -> bool:
        """Whether the match of the playing room ``code`` is paused, nobody being connected: a
        playing room not in memory was dropped paused, and is read back paused."""
        runtime = self.live.get(code)
        return runtime is None or runtime.paused

    async def _load(self, code: str, *, paused: bool) -> RoomRuntime | None:
        try:
            runtime = await asyncio.to_thread(self._read, code)
            if runtime is None:
                return None
            self.make_room()
            self.live[code] = runtime
            if runtime.status == "playing":
                await runtime.continue_after_resume(paused=paused)
            return runtime
        finally:
            self._loading.pop(code, None)

    def _read(self, code: str) -> RoomRuntime | None:
        """The room and its match rebuilt from the database (in a worker thread)."""
        with self.store.session() as session:
            room = self.store.room_by_code(session, code)
            if room is None:
                return None
            runtime = RoomRuntime(self.store, room,
                                  unwatched_seconds=self.limits.unwatched_seconds)
        runtime.resume()
        return runtime

    def make_room(self) -> None:
        """Make room for one more live room, dropping the least recently used idle ones (the
        finished first) past ``live_rooms``; :class:`RoomsFull` if none can go."""
        cap = self.limits.live_rooms
        if len(self.live) < cap:
            return
        idle = sorted((r for r in self.live.values() if r.evictable()),
                      key=lambda r: (r.status != "finished", r.used))
        for runtime in idle[: len(self.live) - cap + 1]:
            self._evict(runtime)
        if len(self.live) >= cap:
            raise RoomsFull(f"the server holds {len(self.live)} rooms in play, the most it "
                            "takes: try again later")

    def _evict(self, runtime: RoomRuntime) -> None:
        runtime.evict()
        if self.live.get(runtime.code) is runtime:
            del self.live[runtime.code]

    async def resume_all(self) -> None:
        """After a restart: every interrupted match goes on from its log (and pauses if nobody
        comes), and the waiting rooms with a seated player not yet ready are watched again
        (the ready timeout counts from when the seat was taken)."""
        with self.store.session() as session:
            codes = [room.code for room in self.store.running_rooms(session)]
            waiting = self.store.rooms_with_unready_seats(session)
        for code in codes + waiting:
            if code not in self.live:
                await self._load(code, paused=False)

    async def keep(self) -> None:
        """The housekeeping task, every ``KEEP_SECONDS`` until cancelled (see the module)."""
        while True:
            await asyncio.sleep(KEEP_SECONDS)
            try:
                await self.keep_once(time.time())
            except Exception:  # said out loud; the next round tries again
                log.exception("the rooms' housekeeping failed")

    async def keep_once(self, now: float) -> None:
        """One round of housekeeping at ``now`` (seconds since the epoch)."""
        monotonic = time.monotonic()
        for runtime in list(self.live.values()):
            if runtime.overdue(now):
                await runtime.free_overdue(now)
            if runtime.should_pause(monotonic):
                await runtime.pause()
            if runtime.evictable() and monotonic - runtime.used >= self.limits.idle_seconds:
                self._evict(runtime)


__all__ = ["Rooms", "RoomsFull"]
