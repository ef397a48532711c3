"""What a score sheet says about its players, and the lines a filter keeps."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from ..errors import MajiangError
from .sheet import Line, SheetState

FILTERS = ("win", "self_drawn", "deal_in", "draw", "false_win")
"""History filters: wins, self-drawn wins, deal-ins (a discard won on), draws, false wins."""


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One seat over the sheet: hands recorded, wins and how, deal-ins, false wins, the mean
    count of his wins and his totals."""

    seat: int
    name: str
    hands: int
    wins: int
    self_drawn: int
    deal_ins: int
    false_wins: int
    mean_points: float | None
    total: int
    bullets: int

    def to_json(self) -> dict[str, Any]:
        """JSON form: every field by name."""
        return asdict(self)


def summaries(state: SheetState) -> list[PlayerSummary]:
    """Each seat's summary, seats 0-3."""
    out = []
    for seat in range(4):
        wins = [x for x in state.lines if x.kind == "win" and x.winner == seat]
        out.append(
            PlayerSummary(
                seat=seat,
                name=state.settings.names[seat],
                hands=state.hands_played,
                wins=len(wins),
                self_drawn=sum(1 for x in wins if x.self_drawn),
                deal_ins=sum(1 for x in state.lines if x.kind == "win" and x.discarder == seat),
                false_wins=sum(1 for x in state.lines if x.kind == "false_win"
                               and x.winner == seat),
                mean_points=round(sum(x.points for x in wins) / len(wins), 2) if wins else None,
                total=state.totals[seat],
                bullets=state.bullets[seat],
            )
        )
    return out


def keeps(line: Line, kind: str | None, seat: int | None) -> bool:
    """Whether a filter (kind and/or seat) keeps a line."""
    if kind is None:
        return seat is None or seat in (line.winner, line.discarder)
    if kind not in FILTERS:
        raise MajiangError(f"filter by one of {', '.join(FILTERS)}, not {kind!r}")
    if kind == "draw":
        return line.kind == "draw"
    if kind == "false_win":
        return line.kind == "false_win" and (seat is None or line.winner == seat)
    if line.kind != "win":
        return False
    if kind == "self_drawn":
        return line.self_drawn and (seat is None or line.winner == seat)
    if kind == "deal_in":
        return line.discarder is not None and (seat is None or line.discarder == seat)
    return seat is None or line.winner == seat


def history(lines: Iterable[Line], kind: str | None = None, seat: int | None = None) -> list[Line]:
    """The lines a filter keeps, in order."""
    if seat is not None and (isinstance(seat, bool) or seat not in range(4)):
        raise MajiangError(f"filter by a seat 0-3, not {seat!r}")
    return [line for line in lines if keeps(line, kind, seat)]


__all__ = ["FILTERS", "PlayerSummary", "history", "keeps", "summaries"]
