"""The base of the bots whose one setting is their seed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(eq=False)
class SeededBot:
    """A bot made from a seed (``Bot(seed)``, as the registry makes it); a subclass names
    itself (``name``) and acts in ``__call__``."""

    seed: int = 0

    def __post_init__(self) -> None:
        """Set up what the seed decides (a subclass's random generator); nothing here."""
