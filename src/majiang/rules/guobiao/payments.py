"""The seed's payment formula (rules/guobiao.md §4.1): base 8, fan total F, a stake multiplier."""

from __future__ import annotations

from dataclasses import dataclass

BASE_POINTS = 8
"""底分: what every loser pays the winner before fans."""


@dataclass(frozen=True, slots=True)
class WinPayments:
    """Who pays what for one win. ``discarder`` is None for a self-drawn win."""

    self_drawn: bool
    discarder: int | None
    """What the discarder (or robbed kong's declarer) pays: (8 + F) × stake."""
    each_other: int
    """What each other loser pays: (8 + F) × stake self-drawn, 8 × stake otherwise."""

    @property
    def winner(self) -> int:
        """What the winner receives in all."""
        if self.discarder is None:
            return 3 * self.each_other
        return self.discarder + 2 * self.each_other


def win_payments(total: int, self_drawn: bool, stake: int = 1) -> WinPayments:
    """Payments for a win with fan total ``total`` (flowers included)."""
    if stake < 1:
        raise ValueError("the stake must be at least 1")
    full = (BASE_POINTS + total) * stake
    if self_drawn:
        return WinPayments(True, None, full)
    return WinPayments(False, full, BASE_POINTS * stake)


def seat_deltas(
    winner: int, discarder: int | None, total: int, stake: int = 1
) -> tuple[int, int, int, int]:
    """Score changes of seats 0-3 for one win (zero-sum); ``discarder`` None = self-drawn."""
    pay = win_payments(total, discarder is None, stake)
    deltas = [0, 0, 0, 0]
    for seat in range(4):
        if seat == winner:
            continue
        amount = (
            pay.discarder if seat == discarder and pay.discarder is not None else pay.each_other
        )
        deltas[seat] -= amount
        deltas[winner] += amount
    return (deltas[0], deltas[1], deltas[2], deltas[3])


def false_win_deltas(offender: int, penalty: int = 10, stake: int = 1) -> tuple[int, int, int, int]:
    """A false win (错和): the offender pays ``penalty × stake`` to each other player."""
    deltas = [penalty * stake] * 4
    deltas[offender] = -3 * penalty * stake
    return (deltas[0], deltas[1], deltas[2], deltas[3])


BOTZONE_PENALTY = 10
"""Botzone's penalty for a false win or an illegal move (错和): the offender pays 10 to each other
player, -30 / +10 (Botzone's Chinese Standard Mahjong judge)."""


def botzone_penalty_deltas(offender: int, stake: int = 1) -> tuple[int, int, int, int]:
    """Botzone's -30 for a false win or an illegal move, +10 to each other player (× stake)."""
    return false_win_deltas(offender, BOTZONE_PENALTY, stake)
