"""The live rooms of a server: loaded from the database on first use, and kept by a
housekeeping task that frees the seats of players not ready in time."""

from __future__ import annotations

import asyncio
import logging
import time

from .room import RoomRuntime
from .store import Store

log = logging.getLogger("majiang.server")

KEEP_SECONDS = 0.5
"""How often the housekeeping task looks at the live rooms."""


class Rooms:
    """The live rooms of a server, loaded from the database on first use."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.live: dict[str, RoomRuntime] = {}

    def get(self, code: str) -> RoomRuntime | None:
        """The room with this code (loaded and resumed if it is not live yet)."""
        runtime = self.live.get(code)
        if runtime is None:
            with self.store.session() as session:
                room = self.store.room_by_code(session, code)
                if room is None:
                    return None
                runtime = RoomRuntime(self.store, room)
            runtime.resume()
            self.live[code] = runtime
        return runtime

    async def resume_all(self) -> None:
        """After a restart: every interrupted match goes on from its log, and the waiting
        rooms with a seated player not yet ready are watched again (the ready timeout counts
        from when the seat was taken)."""
        with self.store.session() as session:
            codes = [room.code for room in self.store.running_rooms(session)]
            waiting = self.store.rooms_with_unready_seats(session)
        for code in codes:
            runtime = self.get(code)
            if runtime is not None:
                await runtime.continue_after_resume()
        for code in waiting:
            self.get(code)

    async def keep(self) -> None:
        """The housekeeping task, every ``KEEP_SECONDS`` until cancelled: seats held past their
        ready timeout are freed."""
        while True:
            await asyncio.sleep(KEEP_SECONDS)
            try:
                await self.keep_once(time.time())
            except Exception:  # said out loud; the next round tries again
                log.exception("the rooms' housekeeping failed")

    async def keep_once(self, now: float) -> None:
        """One round of housekeeping at ``now`` (seconds since the epoch)."""
        for runtime in list(self.live.values()):
            if runtime.overdue(now):
                await runtime.free_overdue(now)


__all__ = ["Rooms"]
