"""Bots: players that choose among ``obs.legal_actions`` from their observation alone.

``make_bot(name, seed)`` builds one by name: ``random`` (any legal action), ``efficient``
(lowest shanten, most useful tiles), ``fan`` (steers toward hands that reach 8 fans),
``wild`` (Huangyan: counts its 得 tiles as jokers, keeps them, avoids raw discards late),
``guarded`` (Guobiao: the fan bot weighing each discard's deal-in risk) and ``search`` (both
rule sets: Monte Carlo rollouts of those bots over sampled deals, a second a decision;
``search@SECONDS`` thinks that long). Every bot is an
:data:`~majiang.engine.match.Agent`: a callable from an observation to an action.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..errors import MajiangError
from ..rules.registry import RULE_SETS

if TYPE_CHECKING:
    from ..engine.match import Agent
    from .defence import GuardedFanBot
    from .efficient import EfficientBot
    from .fan_aware import FanBot
    from .random_bot import RandomBot
    from .search import SearchBot
    from .wild_aware import WildBot

_MODULES = {
    "RandomBot": "random_bot",
    "EfficientBot": "efficient",
    "FanBot": "fan_aware",
    "WildBot": "wild_aware",
    "GuardedFanBot": "defence",
    "SearchBot": "search",
}
"""Each bot class and its module, imported on first use (naming the bots imports none)."""


class UnknownBotError(MajiangError):
    """A bot name that is not in the registry."""


def __getattr__(name: str) -> Any:
    """A bot class, imported from its module on first use."""
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)


def _constructor(class_name: str) -> Callable[[int], Agent]:
    def construct(seed: int) -> Agent:
        bot: Agent = __getattr__(class_name)(seed)
        return bot

    return construct


BOTS: dict[str, Callable[[int], Agent]] = {
    "random": _constructor("RandomBot"),
    "efficient": _constructor("EfficientBot"),
    "fan": _constructor("FanBot"),
    "wild": _constructor("WildBot"),
    "guarded": _constructor("GuardedFanBot"),
    "search": _constructor("SearchBot"),
}
"""The registry: name -> constructor taking a seed."""

def rules_of_bots(*, heavy: bool = False) -> dict[str, tuple[str, ...]]:
    """Each bot and the rule sets it plays, as the rule sets list them
    (:attr:`~majiang.rules.info.RuleSetDescription.bots`; with ``heavy``, also
    :attr:`~majiang.rules.info.RuleSetDescription.heavy_bots`: bots that think for a second or
    more a decision, which the command line's tools take and a game server, which plays its
    bots between its clients' messages, must not)."""
    plays: dict[str, list[str]] = {}
    for light in (True, False) if heavy else (True,):
        for name, info in RULE_SETS.items():
            for bot in info.bots if light else info.heavy_bots:
                plays.setdefault(bot, []).append(name)
    return {bot: tuple(names) for bot, names in plays.items()}


def _think(name: str) -> tuple[str, float | None]:
    """``search@0.25`` -> (``search``, 0.25); other names as they are (None)."""
    head, sep, seconds = name.partition("@")
    if not sep or head != "search":
        return name, None
    try:
        think = float(seconds)
    except ValueError:
        think = -1.0
    if not 0 < think <= 60:
        raise UnknownBotError(f"bot {name!r}: search@SECONDS needs 0 < SECONDS <= 60")
    return head, think


def check_bot(name: str, rules: str, *, heavy: bool = False) -> None:
    """Raise :class:`UnknownBotError` unless bot ``name`` exists and plays rule set ``rules``;
    a heavy bot (:func:`rules_of_bots`) only with ``heavy``."""
    known = rules_of_bots(heavy=heavy)
    base, _ = _think(name)
    plays = known.get(base)
    if plays is None:
        if base in rules_of_bots(heavy=True):
            raise UnknownBotError(f"bot {name!r} thinks too long to play here "
                                  f"(bots: {', '.join(known)})")
        raise UnknownBotError(f"unknown bot {name!r} (bots: {', '.join(known)})")
    if rules not in plays:
        fit = ", ".join(n for n, r in known.items() if rules in r)
        raise UnknownBotError(f"bot {name!r} does not play {rules} (bots for {rules}: {fit})")


def bot_names() -> list[str]:
    """The names :func:`make_bot` accepts."""
    return list(BOTS)


def make_bot(name: str, seed: int = 0) -> Agent:
    """A fresh bot by registry name, seeded (the same seed plays the same way)."""
    name, think = _think(name)
    if think is not None:
        search: Agent = __getattr__("SearchBot")(seed, think=think)
        return search
    factory = BOTS.get(name)
    if factory is None:
        raise UnknownBotError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})")
    return factory(seed)


__all__ = [
    "BOTS",
    "EfficientBot",
    "FanBot",
    "GuardedFanBot",
    "RandomBot",
    "SearchBot",
    "UnknownBotError",
    "WildBot",
    "bot_names",
    "check_bot",
    "make_bot",
    "rules_of_bots",
]
