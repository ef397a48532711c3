"""The payment formula of §4.1 and the false-win penalty (D18): zero-sum, stake-scaled."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from majiang.rules.guobiao.payments import false_win_deltas, seat_deltas, win_payments


def test_self_drawn_each_pays_base_plus_fans() -> None:
    pay = win_payments(10, self_drawn=True, stake=2)
    assert (pay.discarder, pay.each_other, pay.winner) == (None, 36, 108)


def test_discard_discarder_pays_full_others_base() -> None:
    pay = win_payments(10, self_drawn=False)
    assert (pay.discarder, pay.each_other, pay.winner) == (18, 8, 34)


def test_false_win_costs_ten_to_each_other_player() -> None:
    assert false_win_deltas(1) == (10, -30, 10, 10)
    assert false_win_deltas(0, penalty=10, stake=5) == (-150, 50, 50, 50)


def test_stake_must_be_positive() -> None:
    with pytest.raises(ValueError):
        win_payments(8, True, stake=0)


@given(
    winner=st.integers(0, 3),
    discarder=st.one_of(st.none(), st.integers(0, 3)),
    total=st.integers(8, 400),
    stake=st.integers(1, 100),
)
def test_seat_deltas_are_zero_sum(
    winner: int, discarder: int | None, total: int, stake: int
) -> None:
    if discarder == winner:
        discarder = None
    deltas = seat_deltas(winner, discarder, total, stake)
    assert sum(deltas) == 0
    assert deltas[winner] == win_payments(total, discarder is None, stake).winner
    if discarder is not None:
        assert deltas[discarder] == -(8 + total) * stake
