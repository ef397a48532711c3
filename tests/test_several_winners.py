"""The hooks of several winners on one discard and of play going on after a win.

A test rule set (Guobiao's tiles and payments, a win at any count) lets every seat that claims
a discard win it and plays on until three seats have won or the wall is empty, as Sichuan's
血战到底 does. Whole hands are played with bots; Guobiao and Huangyan keep their one winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from majiang.bots import make_bot
from majiang.engine import Phase, Table
from majiang.engine.state import HandResult
from majiang.errors import MajiangError
from majiang.hand import Hand, WinContext
from majiang.rules.base import TableView, WinCheck
from majiang.rules.guobiao.ruleset import GuobiaoRules
from majiang.rules.registry import make_rules


class BloodBattle:
    """Guobiao with no minimum, every claimant of a discard winning it, and play on after a
    win until three seats are out."""

    def __init__(self, **overrides: Any) -> None:
        self._base = GuobiaoRules()
        self.__dict__.update(overrides)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)

    def begin_hand(self, indicators: Sequence[int]) -> BloodBattle:
        return self

    def check_win(self, hand: Hand, context: WinContext) -> WinCheck | None:
        check = self._base.check_win(hand, context)
        return None if check is None else WinCheck(True, max(check.points, 1), check.detail)

    def winners_of(self, discarder: int, claimants: Sequence[int]) -> Sequence[int]:
        return claimants

    def after_win(self, table: TableView, out: Sequence[int], winner: int) -> int | None:
        if len(out) >= 3:
            return None
        return next(s for s in ((winner + k) % 4 for k in (1, 2, 3)) if s not in out)


def play(table: Table, bots: str = "efficient") -> HandResult:
    """Play a hand with bots, checking at every step that only seats still in are asked."""
    agents = [make_bot(bots, seat) for seat in range(4)]
    while not table.is_over:
        asked = table.to_act()
        assert asked and not set(asked) & set(table.out)
        for seat in table.out:
            assert table.legal_actions(seat) == []
        for seat in asked:
            assert table.legal_actions(seat)
        seat = asked[0]
        table.apply(seat, agents[seat](table.observation(seat)))
    assert table.result is not None
    return table.result


def hands(n: int) -> list[tuple[Table, HandResult]]:
    played = []
    for seed in range(n):
        table = Table(BloodBattle(), seed, dealer=seed % 4)
        played.append((table, play(table)))
    return played


PLAYED = hands(40)


def test_every_hand_plays_on_until_three_have_won_or_the_wall_is_empty() -> None:
    for table, result in PLAYED:
        winners = [w.winner for w in result.wins]
        assert winners == table.out and len(set(winners)) == len(winners)
        assert len(winners) == 3 or table.wall.remaining == 0
        assert table.phase is Phase.END and table.to_act() == []
    assert {len(result.wins) for _, result in PLAYED} >= {2, 3}  # the wall ends some hands


def test_the_result_holds_every_win_and_its_payments() -> None:
    for _, result in PLAYED:
        for win in result.wins:
            assert sum(win.deltas) == 0 and win.deltas[win.winner] > 0
        paid = [sum(w.deltas[s] for w in result.wins) for s in range(4)]
        assert list(result.deltas) == paid and sum(result.deltas) == 0
        if result.wins:
            first = result.wins[0]
            assert (result.winner, result.discarder, result.points) == (
                first.winner, first.discarder, first.points)
            assert result.self_drawn == (first.discarder is None)
            assert result.to_json()["winner"] == first.winner
        else:
            assert result.is_draw and result.deltas == (0, 0, 0, 0)


def test_several_seats_win_one_discard() -> None:
    shared = []
    for table, result in PLAYED:
        events = [e for e in table.events if e["type"] == "win"]
        assert [e["seat"] for e in events] == [w.winner for w in result.wins]
        for a, b in zip(result.wins, result.wins[1:], strict=False):
            if a.discarder is not None and a.discarder == b.discarder and (
                    a.winning_tile == b.winning_tile):
                shared.append((table, a, b))
    assert shared, "no discard was won twice in these hands"
    for table, a, b in shared:
        assert a.winner != b.winner and a.discarder not in (a.winner, b.winner)
        census = table.tile_census()
        assert census[: 34] == [4] * 34  # the one tile stays with the first winner


def test_the_next_seat_still_in_draws_after_a_win() -> None:
    for table, _ in PLAYED:
        events = table.events
        for i, event in enumerate(events):
            if event["type"] != "win" or i + 1 == len(events) or events[i + 1]["type"] == "win":
                continue
            nxt = next((e for e in events[i + 1:] if e["type"] == "draw"), None)
            if nxt is None:
                continue
            won = [e["seat"] for e in events[: i + 1] if e["type"] == "win"]
            expected = next(s for s in ((event["seat"] + k) % 4 for k in (1, 2, 3))
                            if s not in won)
            assert nxt["seat"] == expected


def test_a_seat_that_is_out_is_never_offered_a_discard() -> None:
    for table, _ in PLAYED:
        out_after: dict[int, int] = {}
        for seat in table.out:
            out_after[seat] = next(i for i, e in enumerate(table.events)
                                   if e["type"] == "win" and e["seat"] == seat)
        for i, event in enumerate(table.events):
            if event.get("seat") in out_after and i > out_after[event["seat"]]:
                pytest.fail(f"seat {event['seat']} acted after it was out: {event}")


def test_the_default_is_one_winner_and_the_hand_ends() -> None:
    for name in ("gb", "huangyan"):
        rules = make_rules(name)
        for seed in range(6):
            table = Table(rules, seed)
            result = play(table, "random" if name == "gb" else "wild")
            assert len(result.wins) == (0 if result.is_draw else 1)
            assert table.out == [w.winner for w in result.wins]


def test_a_rule_set_that_chooses_no_claimant_is_refused() -> None:
    seed = next(table.seed for table, result in PLAYED
                if len({(w.discarder, w.winning_tile) for w in result.wins}) < len(result.wins))
    table = Table(BloodBattle(winners_of=lambda discarder, claimants: []), seed, dealer=seed % 4)
    with pytest.raises(MajiangError, match=r"winners_of chose \[\] of the claimants \[\d, \d"):
        play(table)
