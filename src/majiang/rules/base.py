"""The interface every rule set implements; the table asks, it never tests which rules it plays.

A rule set supplies what differs between variants: the tiles, which tiles are flowers, which
claims are allowed, whether and how much a hand wins, and the settlement between players.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ..hand import Hand, WinContext


@dataclass(frozen=True, slots=True)
class WinCheck:
    """What the rule set says about a declared win.

    ``legal`` is False for a shape that wins but is worth too little (a false win where the rules
    allow declaring it). ``points`` is the rule set's total; ``detail`` is for display and records.
    """

    legal: bool
    points: int
    detail: dict[str, Any] = field(default_factory=dict)


class RuleSet(Protocol):
    """What the table needs to know about a variant of mahjong."""

    name: str
    options: Any

    def wall_tiles(self) -> list[int]:
        """Every tile of the set, flowers included, one entry per physical tile."""
        ...

    def is_flower(self, tile: int) -> bool:
        """Whether a drawn tile is set aside and replaced."""
        ...

    def chow_allowed(self, discarder: int, claimer: int) -> bool:
        """Whether ``claimer`` may chow a discard of ``discarder`` (seats 0-3 in turn order)."""
        ...

    def could_win(self, counts: list[int], n_melds: int) -> bool:
        """A cheap test that concealed ``counts`` (34 slots, the winning tile included) plus
        ``n_melds`` declared sets may form a winning shape; ``check_win`` decides."""
        ...

    def waiting_tiles(self, counts: list[int], n_melds: int) -> frozenset[int]:
        """Every kind that may complete a waiting hand (concealed ``counts`` + ``n_melds`` sets);
        the table remembers it until the hand changes, so claims cost a set look-up."""
        ...

    def check_win(self, hand: Hand, context: WinContext) -> WinCheck | None:
        """None if the tiles form no winning shape; otherwise legality and points."""
        ...

    def may_declare(self, check: WinCheck) -> bool:
        """Whether a Win action is offered for this check (a legal win, or a false win when the
        room allows declaring one)."""
        ...

    def win_deltas(
        self, winner: int, discarder: int | None, check: WinCheck, stake: int
    ) -> list[int]:
        """Score changes of seats 0-3 for a win (zero-sum); ``discarder`` None = self-drawn."""
        ...

    def false_win_deltas(self, offender: int, stake: int) -> list[int]:
        """Score changes for a false win (错和)."""
        ...
