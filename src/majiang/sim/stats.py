"""Tallies of simulated hands: integers only, so that merging in any grouping is exact."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.table import HandResult


@dataclass(slots=True)
class PlayerTally:
    """One player's counts over the hands tallied."""

    wins: int = 0
    self_drawn: int = 0
    deal_ins: int = 0
    fans: int = 0
    """Sum of the winning totals (Guobiao fans with flowers; Huangyan hu) of this player's
    wins."""
    points: int = 0
    """Sum of this player's score changes (payments and false-win penalties)."""
    bullets: int = 0
    """Sum of this player's bullet changes (Huangyan)."""
    gunner: int = 0
    """Hands this player paid for everyone as the gunner (Huangyan's 点炮)."""
    false_wins: int = 0
    first_places: int = 0
    """Matches (match mode) this player ended with the highest total (ties count for each)."""

    def merge(self, other: PlayerTally) -> None:
        """Add another tally of the same player."""
        self.wins += other.wins
        self.self_drawn += other.self_drawn
        self.deal_ins += other.deal_ins
        self.fans += other.fans
        self.points += other.points
        self.bullets += other.bullets
        self.gunner += other.gunner
        self.false_wins += other.false_wins
        self.first_places += other.first_places


@dataclass(slots=True)
class Tally:
    """Counts over some hands (and matches) for the four players."""

    hands: int = 0
    draws: int = 0
    matches: int = 0
    players: list[PlayerTally] = field(default_factory=lambda: [PlayerTally() for _ in range(4)])

    def add_hand(self, result: HandResult, false_wins: list[int], seat_of: list[int]) -> None:
        """Count one finished hand; ``seat_of[p]`` is player p's seat in it."""
        self.hands += 1
        if result.winner is None:
            self.draws += 1
        for p, seat in enumerate(seat_of):
            tally = self.players[p]
            tally.points += result.deltas[seat]
            tally.bullets += result.ledger("bullets")[seat]
            if result.detail.get("gunner") == seat:
                tally.gunner += 1
            tally.false_wins += false_wins.count(seat)
            if result.winner == seat:
                tally.wins += 1
                tally.fans += result.points
                if result.self_drawn:
                    tally.self_drawn += 1
            elif result.winner is not None and result.discarder == seat:
                tally.deal_ins += 1

    def add_match(self, totals: list[int]) -> None:
        """Count one finished match by the players' totals."""
        self.matches += 1
        top = max(totals)
        for p, total in enumerate(totals):
            if total == top:
                self.players[p].first_places += 1

    def merge(self, other: Tally) -> None:
        """Add another tally (for the same players)."""
        self.hands += other.hands
        self.draws += other.draws
        self.matches += other.matches
        for mine, theirs in zip(self.players, other.players, strict=True):
            mine.merge(theirs)


def _rate(n: int, d: int) -> float | None:
    return round(n / d, 6) if d else None


def player_summary(tally: PlayerTally, hands: int, matches: int) -> dict[str, Any]:
    """The JSON figures of one player (or of several players of one bot, summed: ``hands``
    then counts player-hands)."""
    out: dict[str, Any] = {
        "wins": tally.wins,
        "win_rate": _rate(tally.wins, hands),
        "self_drawn": tally.self_drawn,
        "deal_ins": tally.deal_ins,
        "deal_in_rate": _rate(tally.deal_ins, hands),
        "mean_fans": _rate(tally.fans, tally.wins),
        "points": tally.points,
        "mean_points": _rate(tally.points, hands),
        "false_wins": tally.false_wins,
        "bullets": tally.bullets,
        "gunner": tally.gunner,
    }
    if matches:
        out["first_places"] = tally.first_places
        out["first_place_rate"] = _rate(tally.first_places, matches)
    return out


__all__ = ["PlayerTally", "Tally", "player_summary"]
