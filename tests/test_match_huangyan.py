"""Huangyan on the engine across hands (rules/huangyan.md §3, §4.6): the bullet phase before a
deal (抛弹), thrown bullets kept for a dealership and paid per §4.6, dealer continuation (连庄)
with the dealer count, the deal passing to the right-hand player, match length, running totals
and records of Huangyan hands.

Outcomes are forced with explicit walls built for each :class:`HandSpec` of a match (see
``tests/test_table_huangyan.py`` for the wall layout), or played out by the small deterministic
agent :func:`bot`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from majiang.engine import Discard, IllegalAction, Pass, Phase, Table, Win
from majiang.engine.actions import AcceptBullets, Action, ThrowBullets
from majiang.engine.match import HandSpec, Match, play_hand
from majiang.engine.record import load_record, record_of, replay, save_record
from majiang.engine.state import extension_state
from majiang.engine.table import HandResult, Observation
from majiang.rules.huangyan.ruleset import HuangyanRules
from test_table_huangyan import (
    EXAMPLE_11A,
    READY_14S,
    act,
    answer,
    discard,
    drawn,
    finished,
    hy_wall,
    settle,
)

RULES = HuangyanRules({"throw_limit": 0})
BULLETS = HuangyanRules()  # the default: the dealer may throw 0-5 bullets before each hand


def bot(throw: int = 1, accept: bool = True) -> Callable[[Observation], Action]:
    """Wins when it may, throws ``throw`` bullets as dealer, accepts (or declines) a throw,
    never claims, and discards its most isolated tile."""

    def play(obs: Observation) -> Action:
        legal = obs.legal_actions
        if Win() in legal:
            return Win()
        if ThrowBullets(throw) in legal:
            return ThrowBullets(throw)
        if AcceptBullets() in legal:
            return AcceptBullets() if accept else Pass()
        discards = [a for a in legal if isinstance(a, Discard)]
        if not discards:
            return Pass()
        hand = list(obs.hand)

        def links(t: int) -> tuple[int, int]:
            near = hand.count(t) - 1
            if t < 27:
                near += sum(hand.count(u) for u in (t - 2, t - 1, t + 1, t + 2) if u // 9 == t // 9)
            return near, -t

        return min(discards, key=lambda a: links(a.tile))

    return play


def bullet_snapshot(t: Table) -> tuple[Any, ...]:
    return (t.phase, tuple(t.to_act()), tuple(t.thrown), len(t.events), len(t.history))


# --------------------------------------------------------------------------- the bullet phase


def test_the_dealer_throws_first_then_each_other_player_accepts_or_declines() -> None:
    t = Table(BULLETS, 7, dealer=2)
    assert t.phase is Phase.BULLETS and t.to_act() == [2]
    assert t.legal_actions(2) == [ThrowBullets(n) for n in range(6)]
    assert all(t.legal_actions(s) == [] for s in (0, 1, 3))
    assert t.wall.remaining == 136 and not t.indicators  # nothing dealt yet
    assert t.observation(0).phase is Phase.BULLETS
    events = t.apply(2, ThrowBullets(3))
    assert events == [{"type": "throw_bullets", "seat": 2, "count": 3}]
    assert sorted(t.to_act()) == [0, 1, 3]
    assert all(t.legal_actions(s) == [AcceptBullets(), Pass()] for s in (0, 1, 3))
    assert t.legal_actions(2) == []
    t.apply(3, AcceptBullets())
    t.apply(0, Pass())
    events = t.apply(1, AcceptBullets())
    assert [e["type"] for e in events] == ["accept_bullets", "accept_bullets", "deal", "indicator"]
    assert t.thrown == [0, 3, 0, 3]
    assert t.phase is Phase.TURN and t.current == 2 and t.wall.remaining == 82
    assert extension_state(t.observation(1))[2] == (0, 3, 0, 3)


def test_accepted_bullets_add_to_the_stakes_of_the_dealership() -> None:
    t = Table(BULLETS, 3, dealer=0, dealer_count=2, thrown=(0, 2, 1, 0))
    t.apply(0, ThrowBullets(2))
    for seat in (1, 2, 3):
        t.apply(seat, AcceptBullets() if seat != 2 else Pass())
    assert t.thrown == [0, 4, 1, 2]
    assert t.initial_thrown == (0, 2, 1, 0)


def test_throwing_no_bullets_deals_at_once() -> None:
    t = Table(BULLETS, 3, dealer=1, thrown=(0, 0, 2, 0))
    events = t.apply(1, ThrowBullets(0))
    assert [e["type"] for e in events] == ["throw_bullets", "deal", "indicator"]
    assert t.phase is Phase.TURN and t.thrown == [0, 0, 2, 0]


@pytest.mark.parametrize("limit", [0, 1, 2, 7])
def test_throw_limit_option(limit: int) -> None:
    t = Table(HuangyanRules({"throw_limit": limit}), 4, dealer=3)
    if limit == 0:  # no bullet phase at all
        assert t.phase is Phase.TURN and t.current == 3 and t.wall.remaining == 82
        assert [e["type"] for e in t.events] == ["deal", "indicator"]
    else:
        assert t.legal_actions(3) == [ThrowBullets(n) for n in range(limit + 1)]


BULLET_ILLEGAL: list[tuple[int, Any, str]] = [
    (0, ThrowBullets(6), "may throw 0 to 5"),
    (0, AcceptBullets(), "only the other players answer"),
    (0, Discard(0), "before the deal only bullets"),
    (0, Win(), "before the deal only bullets"),
    (1, ThrowBullets(1), "not this seat's decision"),
    (1, AcceptBullets(), "not this seat's decision"),
]


@pytest.mark.parametrize(("seat", "action", "reason"), BULLET_ILLEGAL)
def test_illegal_bullet_actions_raise_and_change_nothing(
    seat: int, action: Action, reason: str
) -> None:
    t = Table(BULLETS, 2, dealer=0)
    before = bullet_snapshot(t)
    with pytest.raises(IllegalAction, match=reason):
        t.apply(seat, action)
    assert bullet_snapshot(t) == before


def test_after_the_throw_the_dealer_cannot_throw_again_nor_answer() -> None:
    t = Table(BULLETS, 2, dealer=0)
    t.apply(0, ThrowBullets(2))
    before = bullet_snapshot(t)
    for action in (ThrowBullets(1), AcceptBullets(), Pass()):
        with pytest.raises(IllegalAction):
            t.apply(0, action)
    t.apply(1, AcceptBullets())
    with pytest.raises(IllegalAction):
        t.apply(1, Pass())  # one answer per seat
    assert bullet_snapshot(t)[2] == before[2]


# --------------------------------------------------------------------------- §4.6 thrown bullets


def throw(t: Table, count: int, accepting: Sequence[int]) -> None:
    t.apply(t.dealer, ThrowBullets(count))
    if count:
        for seat in sorted(t.to_act()):
            t.apply(seat, AcceptBullets() if seat in accepting else Pass())
    assert t.phase is Phase.TURN


def test_thrown_bullets_paid_to_a_winning_dealer_by_each_accepting_player() -> None:
    t = Table(BULLETS, 0, dealer=0, wall=hy_wall(EXAMPLE_11A, "1p"))
    throw(t, 3, accepting=(1, 3))
    act(t, 0, Win())  # self-drawn on the dealer's 14 tiles: z = 2
    result = finished(t)
    # each loser pays B x n x z = 2 x 1 x 2 = 4; seats 1 and 3 also pay 3 x 2
    assert result.ledger("bullets") == (24, -10, -4, -10)
    assert result.deltas == (150, -50, -50, -50)
    assert result.stake("thrown") == (0, 3, 0, 3)


def south_wins_on_north(t: Table) -> HandResult:
    """S (seat 1) waits on 1s / 4s and wins on the 4s that N (seat 3) discards."""
    discard(t, 0, "C")
    settle(t)
    for _ in range(2):
        act(t, t.current, Discard(drawn(t)))
        settle(t)
    discard(t, 3, "4s")
    answer(t, {1: Win()})
    return finished(t)


SOUTH_WINS = ["C", "123m456m789m11s23s", "", "4s"]


@pytest.mark.parametrize(
    ("accepting", "bullets"),
    [
        ((1,), (-4, 8, -2, -2)),  # S accepted: the dealer pays him 2 x 1 more
        ((2, 3), (-2, 6, -2, -2)),  # S declined: no thrown bullets pass
        ((1, 2, 3), (-4, 8, -2, -2)),  # only the pair (dealer, winner) settles them
    ],
)
def test_thrown_bullets_paid_by_the_dealer_to_a_winning_accepting_player(
    accepting: tuple[int, ...], bullets: tuple[int, int, int, int]
) -> None:
    t = Table(BULLETS, 0, dealer=0, wall=hy_wall(SOUTH_WINS, "9p", draws="9s 9s 1p"))
    throw(t, 2, accepting)
    result = south_wins_on_north(t)
    assert result.winner == 1 and result.ledger("bullets") == bullets


# --------------------------------------------------------------------------- matches


def dealer_wins_wall(dealer: int) -> list[int]:
    hands = ["", "", "", ""]
    hands[dealer] = EXAMPLE_11A[0]
    return hy_wall(hands, "1p", dealer=dealer)


def right_hand_wins_wall(dealer: int) -> list[int]:
    hands = ["", "", "", ""]
    hands[dealer] = "C"
    hands[(dealer + 1) % 4] = READY_14S
    return hy_wall(hands, "N", draws="4s", dealer=dealer)


def drawn_wall(dealer: int) -> list[int]:
    return hy_wall(["", "", "", ""], "N", dealer=dealer)


def play_forced(t: Table, outcome: str) -> HandResult:
    """Play a hand built by one of the walls above to its forced end."""
    if outcome == "dealer":
        act(t, t.dealer, Win())
    elif outcome == "right":
        discard(t, t.dealer, "C")
        settle(t)
        act(t, t.current, Win())
    else:
        while not t.is_over:
            settle(t)
            if not t.is_over:
                act(t, t.current, Discard(drawn(t)))
    return finished(t)


WALLS = {"dealer": dealer_wins_wall, "right": right_hand_wins_wall, "draw": drawn_wall}


def forced_match(
    outcomes: Sequence[str], throws: Sequence[tuple[int, Sequence[int]]] = ()
) -> tuple[Match, list[HandSpec], list[Table]]:
    """A match whose hands end as ``outcomes`` say; hand i starts with ``throws[i]``."""
    match = Match(BULLETS, seed=5, hands=len(outcomes))
    specs, tables = [], []
    for i, spec in enumerate(match.specs()):
        specs.append(spec)
        t = Table(
            BULLETS,
            spec.seed,
            dealer=spec.dealer,
            prevalent_wind=spec.prevalent_wind,
            wall=WALLS[outcomes[i]](spec.dealer),
            dealer_count=spec.dealer_count,
            thrown=spec.thrown,
        )
        count, accepting = throws[i] if i < len(throws) else (0, ())
        throw(t, count, [(spec.dealer + a) % 4 for a in accepting])
        for seat in range(4):
            assert t.seat_wind(seat) == (seat - spec.dealer) % 4
            assert t.observation(seat).seat_wind == (seat - spec.dealer) % 4
            assert extension_state(t.observation(seat))[1] == spec.dealer_count
        match.record(play_forced(t, outcomes[i]))
        tables.append(t)
    assert match.is_over
    return match, specs, tables


def test_dealer_continuation_dealer_count_and_passing_the_deal() -> None:
    outcomes = ["dealer", "dealer", "right", "draw", "dealer", "right"]
    match, specs, _ = forced_match(outcomes)
    d = match.first_dealer
    assert [(s.dealer - d) % 4 for s in specs] == [0, 0, 0, 1, 2, 2]
    assert [s.dealer_count for s in specs] == [1, 2, 3, 1, 1, 2]
    assert match.dealer == (d + 3) % 4 and match.dealer_count == 1
    assert match.passes == 3


def test_the_dealer_count_multiplies_the_bullets() -> None:
    _, _, tables = forced_match(["dealer", "dealer", "dealer"])
    for n, t in enumerate(tables, 1):
        assert t.result is not None
        # a self-drawn dealer win: each loser pays 2 x n x 2
        assert t.result.ledger("bullets")[t.dealer] == 3 * 4 * n


def test_thrown_bullets_add_up_in_a_dealership_and_are_cleared_when_the_deal_passes() -> None:
    # hand 1: 2 thrown, S accepts; hand 2: 1 thrown, S and W accept; hand 3: S wins
    throws = [(2, (1,)), (1, (1, 2)), (0, ()), (1, (2,))]
    match, specs, tables = forced_match(["dealer", "dealer", "right", "draw"], throws)
    d = match.first_dealer

    def rel(values: Sequence[int]) -> tuple[int, ...]:  # by seat wind: E S W N
        return tuple(values[(d + i) % 4] for i in range(4))

    assert [rel(s.thrown) for s in specs] == [(0,) * 4, (0, 2, 0, 0), (0, 3, 1, 0), (0,) * 4]
    results = [t.result for t in tables]
    assert all(r is not None for r in results)
    assert [rel(r.stake("thrown")) for r in results if r] == [
        (0, 2, 0, 0),
        (0, 3, 1, 0),
        (0, 3, 1, 0),  # in force for hand 3, which S wins
        (0, 0, 0, 1),  # the new dealer's own throw, accepted by his West (the old North)
    ]
    r1, r2, r3, r4 = (t.result for t in tables)
    assert r1 and r2 and r3 and r4
    assert rel(r1.ledger("bullets")) == (4 * 3 + 4, -8, -4, -4)  # n = 1, z = 2, S's 2 x 2
    assert rel(r2.ledger("bullets")) == (8 * 3 + 6 + 2, -14, -10, -8)  # n = 2, S 3 x 2, W 1 x 2
    assert rel(r3.ledger("bullets")) == (-12 - 6, 36 + 6, -12, -12)  # n = 3, S wins: E pays 3 x 2
    assert r4.is_draw and r4.ledger("bullets") == (0, 0, 0, 0)
    assert match.thrown == (0, 0, 0, 0)
    assert match.bullets == [sum(r.ledger("bullets")[s] for r in (r1, r2, r3, r4))
                             for s in range(4)]
    assert match.totals == [sum(r.deltas[s] for r in (r1, r2, r3, r4)) for s in range(4)]


def test_a_match_keeps_thrown_bullets_while_the_dealer_wins() -> None:
    match = Match(BULLETS, seed=1, hands=3)
    specs = iter(match.specs())
    spec = next(specs)
    t = Table(BULLETS, spec.seed, dealer=spec.dealer, wall=dealer_wins_wall(spec.dealer))
    throw(t, 2, [(spec.dealer + 1) % 4])
    match.record(play_forced(t, "dealer"))
    expected = [0, 0, 0, 0]
    expected[(spec.dealer + 1) % 4] = 2
    assert match.thrown == tuple(expected) and match.dealer_count == 2
    assert next(specs).thrown == tuple(expected)


@pytest.mark.parametrize("rounds", [1, 2])
def test_a_match_of_rounds_ends_after_the_deal_has_passed_four_times_a_round(
    rounds: int,
) -> None:
    match = Match(BULLETS, seed=rounds, rounds=rounds, every_seat_answers=False)
    totals = match.play([bot(throw=1), bot(accept=False), bot(), bot(throw=2)])
    assert match.is_over and match.passes == 4 * rounds
    dealers = _dealers(match)
    kept = sum(1 for r, d in zip(match.results, dealers, strict=True) if r.winner == d)
    assert kept >= 1  # these seeds include a dealer's win: the deal stayed at least once
    assert len(match.results) == 4 * rounds + kept
    last = match.results[-1]
    assert last.winner != dealers[-1]  # the last hand passed the deal
    assert totals == match.totals == [sum(r.deltas[s] for r in match.results) for s in range(4)]
    assert match.bullets == [sum(r.ledger("bullets")[s] for r in match.results) for s in range(4)]
    assert sum(match.totals) == 0 and sum(match.bullets) == 0


def _dealers(match: Match) -> list[int]:
    """The dealer of each recorded hand, from the first dealer and the results."""
    dealer, out = match.first_dealer, []
    for result in match.results:
        out.append(dealer)
        if result.winner != dealer:
            dealer = (dealer + 1) % 4
    return out


def test_a_match_of_hands_plays_exactly_that_many() -> None:
    match = Match(RULES, seed=9, hands=5, every_seat_answers=False)
    match.play([bot()] * 4)
    assert len(match.results) == 5 and match.is_over
    specs = list(match.specs())
    assert len(specs) == 5
    for spec, dealer in zip(specs, _dealers(match), strict=True):
        assert spec.dealer == dealer


def test_specs_ask_for_each_result_before_the_next_hand() -> None:
    match = Match(BULLETS, seed=0, hands=3)
    specs = match.specs()
    next(specs)
    with pytest.raises(Exception, match="record each hand's result"):
        next(specs)


# --------------------------------------------------------------------------- records


def recorded_table() -> Table:
    t = Table(BULLETS, 21, dealer=1, dealer_count=3, thrown=(2, 0, 0, 1), every_seat_answers=True)
    play_hand(t, [bot(), bot(throw=2), bot(accept=False), bot()])
    return t


def test_record_of_a_huangyan_hand_has_dealer_count_and_thrown_in_the_header() -> None:
    t = recorded_table()
    lines = record_of(t)
    header = lines[0]
    assert header["rules"] == "huangyan"
    assert header["dealer_count"] == 3 and header["thrown"] == [2, 0, 0, 1]
    assert header["options"]["throw_limit"] == 5
    assert lines[1]["action"] == {"type": "throw_bullets", "count": 2}
    again = replay(lines)
    assert again.result == t.result
    assert again.thrown == t.thrown and again.indicators == t.indicators
    assert again.dealer_count == 3


def test_a_saved_huangyan_record_replays(tmp_path: Any) -> None:
    t = recorded_table()
    path = tmp_path / "hand.jsonl"
    save_record(t, path)
    again = replay(load_record(path))
    assert again.result == t.result and again.events == t.events


def test_a_record_of_an_explicit_wall_replays() -> None:
    t = Table(
        BULLETS,
        0,
        dealer=0,
        wall=hy_wall(SOUTH_WINS, "9p", draws="9s 9s 1p"),
        dealer_count=2,
        thrown=(0, 1, 0, 0),
    )
    throw(t, 1, accepting=(1,))
    south_wins_on_north(t)
    lines = record_of(t)
    assert "wall" in lines[0]
    again = replay(lines)
    assert again.result == t.result and again.result is not None
    assert again.result.stake("thrown") == (0, 2, 0, 0)
