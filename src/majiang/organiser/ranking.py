"""Ranking an MCR tournament: table points by rank at each table, standings over the rounds.

At each table the four final scores rank the players: 4, 2, 1 and 0 table points; players with
equal scores share the points of the places they cover (two first: (4 + 2) / 2 = 3 each). The
standings add each player's table points over the rounds, then his scores (the tie-break), less
his penalties; players equal on both share a rank. Substitutes play and give their tables
their points but are not ranked. The sources and the choices are in docs/organisers.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..errors import MajiangError

TABLE_POINTS = (4, 2, 1, 0)
BYE_TABLE_POINTS = Fraction(7, 4)
"""What a bye earns: the mean table points of a table (7 / 4), and a score of 0."""


def table_points(scores: Sequence[int]) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """Table points of the four seats from their scores, ties sharing their places' points."""
    if len(scores) != 4:
        raise MajiangError(f"a table has four scores, not {len(scores)}")
    order = sorted(range(4), key=lambda seat: -scores[seat])
    points = [Fraction(0)] * 4
    place = 0
    while place < 4:
        tied = [s for s in order[place:] if scores[s] == scores[order[place]]]
        share = Fraction(sum(TABLE_POINTS[place: place + len(tied)]), len(tied))
        for seat in tied:
            points[seat] = share
        place += len(tied)
    return (points[0], points[1], points[2], points[3])


def points_text(value: Fraction) -> str:
    """Table points for people: ``3``, ``1.5``, ``2.33``."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


@dataclass(frozen=True, slots=True)
class RoundLine:
    """One player's round: his table and wind (None for a bye), score, penalty, table points."""

    round: int
    table: int | None
    wind: int | None
    score: int
    penalty: int
    table_points: Fraction

    def to_json(self) -> dict[str, Any]:
        """JSON form (table points as a number and as text)."""
        return {
            "round": self.round,
            "table": None if self.table is None else self.table + 1,
            "wind": self.wind,
            "bye": self.table is None,
            "score": self.score,
            "penalty": self.penalty,
            "table_points": float(self.table_points),
            "table_points_text": points_text(self.table_points),
        }


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's place: rank (None for a substitute), table points, score, per-round lines."""

    player: int
    name: str
    rank: int | None
    table_points: Fraction
    score: int
    penalties: int
    rounds: tuple[RoundLine, ...]
    substitute: bool = False
    withdrawn: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "player": self.player,
            "name": self.name,
            "rank": self.rank,
            "table_points": float(self.table_points),
            "table_points_text": points_text(self.table_points),
            "score": self.score,
            "penalties": self.penalties,
            "substitute": self.substitute,
            "withdrawn": self.withdrawn,
            "rounds": [r.to_json() for r in self.rounds],
        }


@dataclass(frozen=True, slots=True)
class Player:
    """A registered player (``id`` is his number in the tournament), whom the standings rank."""

    id: int
    name: str
    substitute: bool = False
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class PlayedTable:
    """A table whose final scores are known: its round, index, players by wind, scores."""

    round: int
    table: int
    players: tuple[int, int, int, int]
    scores: tuple[int, int, int, int]


@dataclass(slots=True)
class _Tally:
    points: Fraction = Fraction(0)
    score: int = 0
    penalties: int = 0
    rounds: list[RoundLine] = field(default_factory=list)


def standings(
    entrants: Iterable[Player],
    tables: Iterable[PlayedTable],
    penalties: Mapping[tuple[int, int], int],
    byes: Iterable[tuple[int, int]] = (),
    *,
    penalties_before_table_points: bool = False,
) -> list[Standing]:
    """The standings from the played tables, the byes (round, player) and the penalties
    (points deducted by (round, player)); ranked players first, then substitutes."""
    people = {e.id: e for e in entrants}
    tally = {pid: _Tally() for pid in people}
    charged: set[tuple[int, int]] = set()
    for played in sorted(tables, key=lambda t: (t.round, t.table)):
        scores = list(played.scores)
        if penalties_before_table_points:
            scores = [s - penalties.get((played.round, p), 0)
                      for s, p in zip(scores, played.players, strict=True)]
        points = table_points(scores)
        for wind, player in enumerate(played.players):
            penalty = penalties.get((played.round, player), 0)
            charged.add((played.round, player))
            line = RoundLine(played.round, played.table, wind, played.scores[wind], penalty,
                             points[wind])
            t = tally[player]
            t.points += points[wind]
            t.score += played.scores[wind] - penalty
            t.penalties += penalty
            t.rounds.append(line)
    for round_number, player in byes:
        t = tally[player]
        penalty = penalties.get((round_number, player), 0)
        charged.add((round_number, player))
        t.points += BYE_TABLE_POINTS
        t.score -= penalty
        t.penalties += penalty
        t.rounds.append(RoundLine(round_number, None, None, 0, penalty, BYE_TABLE_POINTS))
    for (round_number, player), penalty in penalties.items():
        if (round_number, player) not in charged and player in tally:
            t = tally[player]  # a penalty in a round whose table is not in yet
            t.score -= penalty
            t.penalties += penalty
    ranked = sorted((pid for pid in people if not people[pid].substitute),
                    key=lambda pid: (-tally[pid].points, -tally[pid].score, people[pid].name))
    out: list[Standing] = []
    previous: tuple[Fraction, int] | None = None
    rank = 0
    for place, pid in enumerate(ranked, start=1):
        key = (tally[pid].points, tally[pid].score)
        if key != previous:
            rank, previous = place, key
        out.append(_standing(people[pid], tally[pid], rank))
    subs = sorted((pid for pid in people if people[pid].substitute), key=lambda p: people[p].name)
    out.extend(_standing(people[pid], tally[pid], None) for pid in subs)
    return out


def _standing(entrant: Player, t: _Tally, rank: int | None) -> Standing:
    return Standing(entrant.id, entrant.name, rank, t.points, t.score, t.penalties,
                    tuple(sorted(t.rounds, key=lambda r: r.round)), entrant.substitute,
                    entrant.withdrawn)


__all__ = [
    "BYE_TABLE_POINTS",
    "TABLE_POINTS",
    "PlayedTable",
    "Player",
    "RoundLine",
    "Standing",
    "points_text",
    "standings",
    "table_points",
]
