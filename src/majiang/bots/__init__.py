"""Bots: players that choose among ``obs.legal_actions`` from their observation alone.

``make_bot(name, seed)`` builds one by name: ``random`` (any legal action), ``efficient``
(lowest shanten, most useful tiles) and ``fan`` (steers toward hands that reach 8 fans). Every
bot is an :data:`~majiang.engine.match.Agent`: a callable from an observation to an action.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.match import Agent
from ..errors import MajiangError
from .efficient import EfficientBot
from .fan_aware import FanBot
from .random_bot import RandomBot


class UnknownBotError(MajiangError):
    """A bot name that is not in the registry."""


BOTS: dict[str, Callable[[int], Agent]] = {
    "random": RandomBot,
    "efficient": EfficientBot,
    "fan": FanBot,
}
"""The registry: name -> constructor taking a seed."""


def bot_names() -> list[str]:
    """The names :func:`make_bot` accepts."""
    return list(BOTS)


def make_bot(name: str, seed: int = 0) -> Agent:
    """A fresh bot by registry name, seeded (the same seed plays the same way)."""
    factory = BOTS.get(name)
    if factory is None:
        raise UnknownBotError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})")
    return factory(seed)


__all__ = [
    "BOTS",
    "EfficientBot",
    "FanBot",
    "RandomBot",
    "UnknownBotError",
    "bot_names",
    "make_bot",
]
