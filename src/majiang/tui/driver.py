"""The seat driver: what the app needs from whoever runs the table.

A driver plays one seat. ``run(sink)`` goes through the match, reporting every change through
``sink`` as :mod:`majiang.tui.model` events; the app answers with ``act`` (an action in the
engine's JSON), asks for ``request_hints`` and, after a score sheet, ``next_hand``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

from .model import DriverEvent, Json

Sink = Callable[[DriverEvent], None]
"""Where a driver reports what happens."""


class Driver(ABC):
    """Plays one seat of a match for the app."""

    rules: str
    """The rule set's name (``gb`` or ``huangyan``)."""

    @abstractmethod
    async def run(self, sink: Sink) -> None:
        """Play until the match ends or the table is lost, reporting through ``sink``."""

    @abstractmethod
    async def act(self, action: Json) -> None:
        """Play one of the seat's legal actions (engine JSON)."""

    @abstractmethod
    async def request_hints(self) -> None:
        """Ask for hints; they come back as a ``HintsReady`` event."""

    async def next_hand(self) -> None:  # noqa: B027 - optional hook, nothing to do by default
        """The player has read the score sheet (a server goes on without waiting)."""

    async def close(self) -> None:  # noqa: B027 - optional hook, nothing to do by default
        """Let go of connections."""


__all__ = ["Driver", "Sink"]
