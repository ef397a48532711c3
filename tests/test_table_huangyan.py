"""Targeted engine tests of the Huangyan rules of play (rules/huangyan.md §1-3, §5.6-5.8) on
exact, hand-built walls.

A Huangyan wall is 136 tiles in draw order: the 53 dealt tiles in the order of
:func:`deal_positions` (4-4-4 per seat from the dealer, one each, the dealer's 14th), the
indicator at index 53 (turned up, out of play; its face ``F`` is wild, the other three ``F``
tiles are 得 wilds, white dragons play as ``F`` unless ``F`` is the white dragon), then the 82
tiles to draw: live draws from the front, replacement (kong) draws from the back.

Seats are 0-3 in turn order; each seat's right-hand player (下家) is seat + 1. With the dealer at
seat 0, seat 1 is South, seat 2 West, seat 3 North.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from majiang.engine import (
    AddedKong,
    Chow,
    ConcealedKong,
    Discard,
    ExposedKong,
    IllegalAction,
    Pass,
    Phase,
    Pung,
    Table,
    Win,
)
from majiang.engine.actions import AcceptBullets, Action, ThrowBullets
from majiang.engine.state import HIDDEN, extension_state
from majiang.hand import ADDED_KONG_OFFSET, CONCEALED_KONG, Meld, MeldKind
from majiang.notation import parse_tiles
from majiang.rules.huangyan.ruleset import HuangyanRules
from majiang.tiles import WHITE
from test_table import act, deal_positions, discard_drawn_until, drawn, settle, types

RULES = HuangyanRules({"throw_limit": 0})
FULL_CENSUS = [4] * 34 + [0] * 8

# --------------------------------------------------------------------------- wall building


def tiles(text: str) -> list[int]:
    return parse_tiles(text.replace(" ", "")) if text.strip() else []


def tile(text: str) -> int:
    (only,) = tiles(text)
    return only


# Inert tiles completing the hands of seats a test does not care about: single honours and
# suited tiles three apart (no pair, no chow, never ready). The wild face and the white dragon
# are never used as junk.
JUNK = (
    "ESWNCF 1m4m7m 2s5s8s 3p6p9p 2m5m8m 3s6s9s 1p4p7p",
    "ESWNCF 2m5m8m 3s6s9s 1p4p7p 3m6m9m 1s4s7s 2p5p8p",
    "ESWNCF 3m6m9m 1s4s7s 2p5p8p 1m4m7m 2s5s8s 3p6p9p",
    "ESWNCF 1m4m7m 3s6s9s 2p5p8p 2m5m8m 1s4s7s 3p6p9p",
)




def hy_wall(
    hands: Sequence[str],
    indicator: str = "N",
    draws: str = "",
    back: str = "",
    *,
    dealer: int = 0,
    ending: str = "",
    at: Mapping[int, str] | None = None,
    seed: int = 0,
) -> list[int]:
    """A 136-tile Huangyan wall in draw order.

    ``hands[s]`` is what seat ``s`` is dealt, completed with :data:`JUNK` (the dealer's last
    given tile is his 14th); ``indicator`` the tile turned up; ``draws`` the first live draws;
    ``ending`` the last live tiles; ``back`` the replacement tiles in the order they are taken;
    ``at`` puts a tile at a given live draw number (1 = the first draw after the deal). The rest
    is a seeded shuffle of the remaining tiles.
    """
    ind = tile(indicator)
    front, end, tail = tiles(draws), tiles(ending), tiles(back)
    placed = {d: tile(x) for d, x in (at or {}).items()}
    given = [tiles(text) for text in hands]
    left = Counter(RULES.wall_tiles())
    left.subtract([t for hand in given for t in hand] + [ind] + front + end + tail)
    left.subtract(placed.values())
    assert min(left.values()) >= 0, f"more copies than exist: {-left}"
    dealt = []
    for seat, hand in enumerate(given):
        want = 14 if seat == dealer else 13
        assert len(hand) <= want, f"seat {seat} is given {len(hand)} tiles, more than {want}"
        last = hand[-1:] if seat == dealer and len(hand) == want else []
        hand = hand[: len(hand) - len(last)]
        for t in tiles(JUNK[seat]):
            if len(hand) + len(last) == want:
                break
            if left[t] and t not in hand and t not in last and t not in (ind, WHITE):
                hand.append(t)
                left[t] -= 1
        hand += last
        assert len(hand) == want, f"seat {seat} is dealt {len(hand)} tiles, not {want}"
        dealt.append(hand)
    wall: list[int | None] = [None] * 53
    for offset in range(4):
        seat = (dealer + offset) % 4
        for position, t in zip(deal_positions(offset), dealt[seat], strict=True):
            wall[position] = t
    rest = sorted(left.elements())
    random.Random(seed).shuffle(rest)
    live = front + rest + end
    for d in sorted(placed):
        assert d > len(front), "a placed draw must come after the given draws"
        live.insert(d - 1, placed[d])
    full = [t for t in wall if t is not None]
    result = [*full, ind, *live, *tail[::-1]]
    assert len(full) == 53 and len(result) == 136
    return result


def table(
    hands: Sequence[str],
    indicator: str = "N",
    draws: str = "",
    back: str = "",
    *,
    rules: HuangyanRules = RULES,
    dealer: int = 0,
    ending: str = "",
    at: Mapping[int, str] | None = None,
    every_seat_answers: bool = False,
    stake: int = 1,
    dealer_count: int = 1,
    thrown: Sequence[int] = (0, 0, 0, 0),
) -> Table:
    wall = hy_wall(hands, indicator, draws, back, dealer=dealer, ending=ending, at=at)
    return Table(
        rules,
        0,
        dealer=dealer,
        stake=stake,
        wall=wall,
        every_seat_answers=every_seat_answers,
        dealer_count=dealer_count,
        thrown=thrown,
    )


# --------------------------------------------------------------------------- driving a table


def discard(t: Table, seat: int, text: str) -> list[dict[str, Any]]:
    return act(t, seat, Discard(tile(text)))


def answer(t: Table, answers: Mapping[int, Action] | None = None) -> list[dict[str, Any]]:
    """Close the open window: the given answers in the given order, then Pass from the rest."""
    assert t.phase in (Phase.CLAIM, Phase.ROB), t.phase
    answers = dict(answers or {})
    events: list[dict[str, Any]] = []
    for seat in [*answers, *(s for s in t.to_act() if s not in answers)]:
        events += act(t, seat, answers.pop(seat, Pass()))
    assert not answers, f"seats {sorted(answers)} had no decision to make"
    return events








def snapshot(t: Table) -> tuple[Any, ...]:
    """Everything observable about the table, to show that a refused action changed nothing."""
    return (
        tuple(t.observation(s) for s in range(4)),
        tuple(t.tile_census()),
        tuple(t.to_act()),
        len(t.history),
        len(t.events),
        t.phase,
        t.result,
        t.replacements,
        t.late,
        tuple(t.thrown),
    )




def finished(t: Table) -> Any:
    """The result of an ended hand, checked zero-sum in both ledgers with every tile present."""
    assert t.is_over and t.result is not None
    assert sum(t.result.deltas) == 0
    assert sum(t.result.ledger("bullets")) == 0
    assert t.tile_census() == FULL_CENSUS
    return t.result


def assert_hu_settlement(result: Any) -> None:
    """The hu ledger of a won hand (stake 1) is what §5.4 / §5.6 say for its totals."""
    detail = result.detail
    w = detail["winner"]["total"]
    own = {int(s): total for s, total in detail["losers"].items()}
    gunner = detail["gunner"]
    expected = [0, 0, 0, 0]
    expected[result.winner] = 3 * w
    if gunner is None:  # §5.4: each loser pays W; the lower of two losers pays the difference
        for s in own:
            expected[s] = -w + sum(own[s] - own[o] for o in own if o != s)
    else:  # §5.6: the gunner's total is 0 and he pays everything
        others = [s for s in own if s != gunner]
        for s in others:
            (o,) = (x for x in others if x != s)
            expected[s] = own[s] + max(0, own[s] - own[o])
        expected[gunner] = -sum(expected[s] for s in range(4) if s != gunner)
    assert list(result.deltas) == expected


def kinds(actions: Sequence[Action]) -> set[type]:
    return {type(a) for a in actions}


# A ready hand of seat 1 waiting on 1s / 4s (and, self-drawn, on any 得).
READY_14S = "123p 456p 789p 11s 23s"

# --------------------------------------------------------------------------- §1: setup


@pytest.mark.parametrize("dealer", range(4))
def test_deal_then_the_indicator_then_82_tiles_to_draw(dealer: int) -> None:
    wall = hy_wall(["", "", "", ""], "7p", dealer=dealer)
    t = Table(RULES, 0, dealer=dealer, wall=wall)
    for offset in range(4):
        seat = (dealer + offset) % 4
        expected = sorted(wall[p] for p in deal_positions(offset))
        assert list(t.observation(seat).hand) == expected
        assert len(expected) == (14 if offset == 0 else 13)
    assert t.indicators == [wall[53]] == [tile("7p")]
    assert t.rules.wild_face == tile("7p")
    assert t.wall.remaining == 82
    obs = t.observation(dealer)
    assert obs.indicator == obs.wild == tile("7p")
    assert obs.drawable == 82 - 14
    assert obs.extension is not None and not obs.extension.late
    assert t.tile_census() == FULL_CENSUS  # the indicator is counted: 4 of every face
    assert types(t.events) == ["deal", "indicator"]
    assert t.events[1]["tiles"] == ["7p"] and t.events[1]["wild"] == "7p"
    # the dealer starts by discarding; the right-hand player then draws wall[54]
    act(t, dealer, Discard(drawn(t)))
    settle(t)
    assert t.current == (dealer + 1) % 4
    assert drawn(t) == wall[54]
    assert t.wall.remaining == 81


@pytest.mark.parametrize("seed", range(8))
def test_a_seeded_hand_has_136_tiles_one_indicator_and_three_wilds_in_play(seed: int) -> None:
    t = Table(RULES, seed, dealer=seed % 4)
    face = t.indicators[0]
    assert len(t.indicators) == 1 and t.rules.wild_face == face
    assert t.wall.remaining == 82
    assert sum(sum(c) for c in t.concealed) == 53
    assert t.tile_census() == FULL_CENSUS
    in_play = sum(c[face] for c in t.concealed) + t.wall.undrawn().count(face)
    assert in_play == 3


@pytest.mark.parametrize("face", ["1m", "5s", "9p", "E", "N", "C", "F", "P"])
def test_any_face_may_be_wild_and_the_white_dragon_stands_in_for_it(face: str) -> None:
    wild = tile(face)
    t = table(["", "", "", ""], face)
    rules = t.rules
    assert rules.wild_face == wild and t.observation(2).wild == wild
    assert not rules.natural(wild)  # a 得
    if wild == WHITE:  # 翻白: the other whites are the 得, no stand-in
        assert rules.identity(WHITE) == WHITE
        assert not rules.natural(WHITE)
    else:
        assert rules.identity(WHITE) == wild and rules.physical(wild) == WHITE
        assert rules.natural(WHITE)
    for other in (tile("5m"), tile("S"), tile("C")):
        if other != wild:
            assert rules.identity(other) == other and rules.natural(other)


# --------------------------------------------------------------------------- §1.6: the 得


@pytest.mark.parametrize("every_seat_answers", [False, True])
def test_a_discarded_wild_is_dead_no_chow_pung_or_win(every_seat_answers: bool) -> None:
    # F = 5m: seat 1 could chow a natural 5m, seat 2 holds the two other 得 (a "pair"), and
    # seat 3's ready hand would take a 得 self-drawn.
    t = table(["5m", "4m6m", "5m5m", READY_14S], "5m", every_seat_answers=every_seat_answers)
    discard(t, 0, "5m")
    if every_seat_answers:
        assert sorted(t.to_act()) == [1, 2, 3]
        assert all(t.legal_actions(s) == [Pass()] for s in (1, 2, 3))
        for seat, action in ((1, Chow(tile("4m"))), (2, Pung()), (3, Win())):
            with pytest.raises(IllegalAction):
                t.apply(seat, action)
        answer(t)
    assert t.phase is Phase.TURN and t.current == 1  # nobody could claim: seat 1 draws
    assert t.observation(1).discards[0] == (tile("5m"),)


def test_a_self_drawn_wild_completes_a_ready_hand() -> None:
    t = table(["E", READY_14S, "", ""], "5m", draws="5m")
    discard(t, 0, "E")
    settle(t)
    assert drawn(t) == tile("5m")
    assert Win() in t.legal_actions(1)
    act(t, 1, Win())
    result = finished(t)
    assert result.winner == 1 and result.self_drawn and result.discarder is None
    assert result.winning_tile == tile("5m")
    assert result.ledger("bullets") == (-4, 12, -4, -4)  # B x n x z = 2 x 1 x 2 from each loser


@pytest.mark.parametrize(
    ("hand", "chows"),
    [
        ("5p7p8p", []),  # 5-6-7 and 6-7-8 would need the 得 7p: no chow
        ("5pP8p", [Chow(tile("5p")), Chow(tile("6p"))]),  # the stand-in P is a natural 7p
    ],
)
def test_a_wild_is_never_used_in_a_chow_but_a_stand_in_is(hand: str, chows: list[Chow]) -> None:
    t = table(["6p", hand, "", ""], "7p", every_seat_answers=True)
    discard(t, 0, "6p")
    assert t.legal_actions(1) == [*chows, Pass()]


@pytest.mark.parametrize(
    ("hand", "claims"),
    [
        ("P7p", {Pass}),  # one stand-in and one 得: no pung
        ("PP7p", {Pung, Pass}),  # the 得 cannot be the third tile of a kong
        ("PPP", {Pung, ExposedKong, Pass}),
    ],
)
def test_a_wild_is_never_used_in_a_pung_or_kong(hand: str, claims: set[type]) -> None:
    t = table(["P", "", hand, ""], "7p", every_seat_answers=True)
    discard(t, 0, "P")
    assert kinds(t.legal_actions(2)) == claims


def test_a_wild_is_never_added_to_a_pung() -> None:
    t = table(["P", "", "PP7p", ""], "7p", every_seat_answers=True)
    discard(t, 0, "P")
    answer(t, {2: Pung()})
    assert t.melds[2] == [Meld(MeldKind.PUNG, tile("7p"), 2)]  # by identity
    legal = t.legal_actions(2)
    assert not kinds(legal) & {AddedKong, ConcealedKong, Win}
    before = snapshot(t)
    with pytest.raises(IllegalAction, match="wild tile may not be used in a kong"):
        t.apply(2, AddedKong(tile("7p")))
    assert snapshot(t) == before


# --------------------------------------------------------------------------- §1.7: stand-ins


def test_a_discarded_stand_in_is_chowed_as_the_wild_face() -> None:
    t = table(["P", "5p6p8p", "", ""], "7p", every_seat_answers=True)
    events = discard(t, 0, "P")
    assert events[0] == {"type": "discard", "seat": 0, "tile": "P"}
    assert t.legal_actions(1) == [Chow(tile("5p")), Chow(tile("6p")), Pass()]
    answer(t, {1: Chow(tile("5p"))})
    (meld,) = t.melds[1]
    assert meld == Meld(MeldKind.CHOW, tile("5p"), 3)  # 5p-6p-7p, the claimed tile third
    assert meld.tiles == (tile("5p"), tile("6p"), tile("7p"))
    assert t.observation(3).melds[1] == (meld,)
    assert t.observation(0).discards[0] == ()  # the claimed tile left the pond
    assert t.concealed[1][tile("8p")] == 1
    assert t.tile_census() == FULL_CENSUS


def test_a_stand_in_in_hand_makes_a_chow_as_the_wild_face() -> None:
    t = table(["8p", "6pP", "", ""], "7p", every_seat_answers=True)
    discard(t, 0, "8p")
    assert Chow(tile("6p")) in t.legal_actions(1)
    answer(t, {1: Chow(tile("6p"))})
    assert t.melds[1] == [Meld(MeldKind.CHOW, tile("6p"), 3)]
    assert t.concealed[1][WHITE] == 0 and t.concealed[1][tile("6p")] == 0
    assert t.tile_census() == FULL_CENSUS


def test_stand_ins_make_pungs_and_kongs_of_the_wild_face() -> None:
    pung = table(["P", "", "", "PP"], "7p")
    discard(pung, 0, "P")
    answer(pung, {3: Pung()})
    assert pung.melds[3] == [Meld(MeldKind.PUNG, tile("7p"), 3)]
    assert pung.tile_census() == FULL_CENSUS

    kong = table(["P", "", "", "PPP"], "7p", back="9m")
    discard(kong, 0, "P")
    answer(kong, {3: ExposedKong()})
    assert kong.melds[3] == [Meld(MeldKind.KONG, tile("7p"), 3)]
    assert kong.replacements == 1 and drawn(kong) == tile("9m")

    concealed = table(["PPPP", "", "", ""], "7p", back="9m")
    assert ConcealedKong(WHITE) in concealed.legal_actions(0)
    act(concealed, 0, ConcealedKong(WHITE))
    assert concealed.melds[0] == [Meld(MeldKind.KONG, tile("7p"), CONCEALED_KONG)]
    assert concealed.observation(1).melds[0] == (Meld(MeldKind.KONG, HIDDEN, 0),)
    assert concealed.tile_census() == FULL_CENSUS


@pytest.mark.parametrize(("offered", "wins"), [("P", True), ("7p", False)])
def test_a_discarded_stand_in_is_won_on_as_the_wild_face(offered: str, wins: bool) -> None:
    # seat 1 waits on 4p / 7p: a discarded stand-in is a 7p, a discarded 得 7p is dead
    t = table([offered, "123m456m789m11s56p", "", ""], "7p")
    discard(t, 0, offered)
    if not wins:
        assert t.phase is Phase.TURN and t.current == 1
        return
    assert t.legal_actions(1) == [Win(), Chow(tile("5p")), Pass()]
    answer(t, {1: Win()})
    result = finished(t)
    assert result.winner == 1 and result.discarder == 0 and not result.self_drawn
    assert result.winning_tile == WHITE


def test_white_flipped_no_stand_in_and_the_whites_are_dead_when_discarded() -> None:
    # F = P: the three other whites are the 得; red and green keep their own identity
    t = table(["P", "", "PP", "CC"], "P", every_seat_answers=True)
    rules = t.rules
    assert rules.wild_face == WHITE and rules.identity(WHITE) == WHITE
    assert rules.identity(tile("C")) == tile("C") and rules.identity(tile("7p")) == tile("7p")
    discard(t, 0, "P")
    assert all(t.legal_actions(s) == [Pass()] for s in (1, 2, 3))
    answer(t)
    assert t.current == 1

    u = table(["C", "", "PP", "CC"], "P")
    discard(u, 0, "C")
    answer(u, {3: Pung()})
    assert u.melds[3] == [Meld(MeldKind.PUNG, tile("C"), 3)]


# --------------------------------------------------------------------------- §2.2: claims


def test_chow_only_by_the_discarders_right_hand_player() -> None:
    t = table(["5m", "4m6m5m", "4m6m", "3m4m"], every_seat_answers=True)
    discard(t, 0, "5m")
    assert t.legal_actions(1) == [Chow(tile("4m")), Pass()]
    assert t.legal_actions(2) == [Pass()] and t.legal_actions(3) == [Pass()]
    before = snapshot(t)
    with pytest.raises(IllegalAction, match="only the discarder's next player may chow"):
        t.apply(2, Chow(tile("4m")))
    with pytest.raises(IllegalAction, match="only the discarder's next player may chow"):
        t.apply(3, Chow(tile("3m")))
    assert snapshot(t) == before
    answer(t, {1: Chow(tile("4m"))})
    # now seat 1 discards: seat 2, his right-hand player, may chow, seat 3 may not
    discard(t, 1, "5m")
    assert Chow(tile("4m")) in t.legal_actions(2)
    assert t.legal_actions(3) == [Pass()]


def test_every_chow_of_the_discard_is_offered() -> None:
    t = table(["5m", "3m4m6m7m", "", ""])
    discard(t, 0, "5m")
    assert t.legal_actions(1) == [Chow(tile("3m")), Chow(tile("4m")), Chow(tile("5m")), Pass()]


@pytest.mark.parametrize(
    ("held", "offered", "indicator"),
    [
        ("SW", "E", "9p"),
        ("EW", "S", "9p"),
        ("SW", "N", "9p"),
        ("FP", "C", "9p"),  # P is a 9p here: by face this would be C-F-P
        ("CF", "P", "E"),  # the stand-in is an East here
    ],
)
def test_honours_are_never_chowed(held: str, offered: str, indicator: str) -> None:
    t = table([offered, held, "", ""], indicator)
    discard(t, 0, offered)
    assert t.phase is Phase.TURN and t.current == 1  # no window: nobody may claim


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_pung_from_any_seat_then_play_goes_on_to_the_claimers_right(seat: int) -> None:
    hands = ["5s", "", "", ""]
    hands[seat] = "5s5s"
    t = table(hands)
    discard(t, 0, "5s")
    assert Pung() in t.legal_actions(seat)
    answer(t, {seat: Pung()})
    assert t.melds[seat] == [Meld(MeldKind.PUNG, tile("5s"), seat)]
    assert t.current == seat and t.phase is Phase.TURN and t.claimed_turn
    assert Win() not in t.legal_actions(seat)
    assert t.wall.remaining == 82  # no draw after a pung
    discard(t, seat, "E")
    settle(t)
    assert t.current == (seat + 1) % 4 and t.wall.remaining == 81


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_exposed_kong_from_any_seat_takes_a_replacement_from_the_tail(seat: int) -> None:
    hands = ["5s", "", "", ""]
    hands[seat] = "5s5s5s"
    t = table(hands, back="9m")
    discard(t, 0, "5s")
    assert {Pung(), ExposedKong()} <= set(t.legal_actions(seat))
    events = answer(t, {seat: ExposedKong()})
    assert t.melds[seat] == [Meld(MeldKind.KONG, tile("5s"), seat)]
    assert t.replacements == 1 and t.wall.remaining == 81
    assert drawn(t) == tile("9m")
    assert [e["source"] for e in events if e["type"] == "draw"] == ["kong"]


# --------------------------------------------------------------------------- §2.3: priority


@pytest.mark.parametrize("order", [(1, 3), (3, 1)])
def test_pung_beats_chow_whatever_the_order_of_answers(order: tuple[int, int]) -> None:
    t = table(["5m", "4m6m", "", "5m5m"])
    discard(t, 0, "5m")
    claims: dict[int, Action] = {1: Chow(tile("4m")), 3: Pung()}
    answer(t, {s: claims[s] for s in order})
    assert t.current == 3 and t.melds[3] == [Meld(MeldKind.PUNG, tile("5m"), 3)]
    assert t.melds[1] == [] and t.concealed[1][tile("4m")] == 1


def test_win_beats_pung_and_chow() -> None:
    t = table(["5m", "4m6m", "5m5m", "123p456p789p123s5m"])
    discard(t, 0, "5m")
    answer(t, {1: Chow(tile("4m")), 2: Pung(), 3: Win()})
    result = finished(t)
    assert result.winner == 3 and result.discarder == 0
    assert t.melds[1] == [] and t.melds[2] == []


def example_16() -> Table:
    """Spec Example 16: W (seat 2) discards 3p; N (W's right), E (opposite) and S (W's left)
    can all win on it; E could also pung it, N could chow it."""
    t = table(
        [
            "123m456m789m 3p3p 5s5s C",  # E: waits 3p / 5s, first discards C
            "45p 123s 678s 567m 88m",  # S: waits 3p / 6p
            "3p",  # W
            "12p 456s 789s 234m 66s",  # N: waits 3p
        ],
        draws="E E",
    )
    discard(t, 0, "C")
    settle(t)
    discard(t, 1, "E")  # S draws an E and lets it go
    settle(t)
    discard(t, 2, "3p")
    assert set(t.to_act()) == {0, 1, 3}
    assert t.legal_actions(3) == [Win(), Chow(tile("1p")), Pass()]
    assert t.legal_actions(0) == [Win(), Pung(), Pass()]
    assert t.legal_actions(1) == [Win(), Pass()]
    return t


@pytest.mark.parametrize(
    ("answers", "winner"),
    [
        ({1: Win(), 0: Win(), 3: Win()}, 3),  # right, opposite, left: N wins
        ({1: Win(), 0: Win(), 3: Pass()}, 0),  # N passes: E wins
        ({1: Win(), 0: Pass(), 3: Pass()}, 1),  # N and E pass: S wins
        ({1: Win(), 0: Pung(), 3: Chow(tile("1p"))}, 1),  # a win beats a pung and a chow
    ],
)
def test_example_16_head_bump_right_then_opposite_then_left(
    answers: dict[int, Action], winner: int
) -> None:
    t = example_16()
    answer(t, answers)
    result = finished(t)
    assert result.winner == winner and result.discarder == 2
    assert result.winning_tile == tile("3p")


@pytest.mark.parametrize(
    "answers",
    [
        {1: Pass(), 0: Pung(), 3: Pass()},  # all pass the win: E pungs
        {3: Chow(tile("1p")), 0: Pung(), 1: Pass()},  # N's chow loses to E's pung
        {0: Pung(), 3: Chow(tile("1p")), 1: Pass()},
    ],
)
def test_example_16_pung_when_nobody_wins_and_pung_beats_chow(answers: dict[int, Action]) -> None:
    t = example_16()
    answer(t, answers)
    assert not t.is_over and t.phase is Phase.TURN and t.current == 0
    assert t.melds[0] == [Meld(MeldKind.PUNG, tile("3p"), 2)]
    assert t.melds[3] == []


def test_example_16_nobody_claims_then_the_right_hand_player_draws() -> None:
    t = example_16()
    answer(t)
    assert t.phase is Phase.TURN and t.current == 3 and t.observation(3).drawn is not None
    assert t.observation(0).discards[2] == (tile("3p"),)


# --------------------------------------------------------------------------- §2.4


@pytest.mark.parametrize(("offered", "pung"), [("5s", False), ("8m", True)])
def test_a_skipped_pung_blocks_that_identity_until_the_next_draw(offered: str, pung: bool) -> None:
    t = table(["5s", "5s8m", "5s5s8m8m", ""], draws="9s", every_seat_answers=True)
    discard(t, 0, "5s")
    assert Pung() in t.legal_actions(2)
    answer(t)  # seat 2 lets the pung go
    assert drawn(t) == tile("9s")
    discard(t, 1, offered)
    assert (Pung() in t.legal_actions(2)) is pung
    if not pung:
        before = snapshot(t)
        with pytest.raises(IllegalAction, match="passed a pung of this tile"):
            t.apply(2, Pung())
        assert snapshot(t) == before


def test_a_skipped_pung_of_a_stand_in_blocks_the_wild_face_identity() -> None:
    t = table(["P", "P", "PP", ""], "7p", draws="9s")
    discard(t, 0, "P")
    answer(t)
    discard(t, 1, "P")
    assert t.phase is Phase.TURN and t.current == 2  # no pung window for seat 2


def test_a_skipped_pung_is_lifted_by_the_players_next_draw() -> None:
    t = table(["5s", "", "5s5s", "5s"], draws="9s 9s 1p")
    discard(t, 0, "5s")
    answer(t)
    for seat in (1, 2):
        assert t.current == seat
        act(t, seat, Discard(drawn(t)))
        settle(t)
    assert t.current == 3
    discard(t, 3, "5s")
    assert Pung() in t.legal_actions(2)


def test_a_skipped_pung_is_lifted_by_the_players_next_claim() -> None:
    t = table(["5s", "8m", "5s5s8m8m", "5s"], draws="9s 1p")
    discard(t, 0, "5s")
    answer(t)  # seat 2 passes the pung of 5s
    discard(t, 1, "8m")
    answer(t, {2: Pung()})  # ... and pungs an 8m without drawing
    discard(t, 2, "E")
    settle(t)
    assert t.current == 3
    discard(t, 3, "5s")
    assert Pung() in t.legal_actions(2)


# seat 1 waits on 3p / 6p; seat 2 holds two 3p, seat 3 a 6p
SKIPPED_WIN = ["C", "123m456m789m11s45p", "3p3p", "6p"]


def test_skipped_win_restriction_is_lifted_by_the_next_draw() -> None:
    rules = HuangyanRules({"throw_limit": 0, "skipped_win_restriction": True})
    t = table(SKIPPED_WIN, draws="9m 9s 9s 1s 9m", rules=rules)
    discard(t, 0, "C")
    settle(t)
    act(t, 1, Discard(drawn(t)))
    settle(t)
    discard(t, 2, "3p")
    assert Win() in t.legal_actions(1)
    answer(t)  # seat 1 lets the win go
    for seat in (3, 0, 1):  # seat 1 draws: the restriction ends here
        assert t.current == seat
        act(t, seat, Discard(drawn(t)))
        settle(t)
    discard(t, 2, "3p")
    assert Win() in t.legal_actions(1)


@pytest.mark.parametrize("restricted", [False, True])
def test_skipped_win_restriction_blocks_a_discard_win_until_the_next_draw(
    restricted: bool,
) -> None:
    rules = HuangyanRules({"throw_limit": 0, "skipped_win_restriction": restricted})
    t = table(SKIPPED_WIN, draws="9m 9s 1s", rules=rules, every_seat_answers=True)
    discard(t, 0, "C")
    settle(t)
    act(t, 1, Discard(drawn(t)))
    settle(t)
    discard(t, 2, "3p")
    assert Win() in t.legal_actions(1)
    answer(t)  # seat 1 lets the win go and has not drawn since
    discard(t, 3, "6p")
    assert (Win() in t.legal_actions(1)) is not restricted
    if restricted:
        with pytest.raises(IllegalAction, match="passed a win"):
            t.apply(1, Win())


# --------------------------------------------------------------------------- §2.5: kongs


def test_concealed_kongs_on_own_turn_replacements_from_the_tail_count_k() -> None:
    t = table(["E", "5s5s5s9m9m9m9m", "", ""], draws="5s", back="1p 2p")
    discard(t, 0, "E")
    settle(t)
    legal = t.legal_actions(1)
    assert ConcealedKong(tile("5s")) in legal and ConcealedKong(tile("9m")) in legal
    events = act(t, 1, ConcealedKong(tile("5s")))
    assert types(events) == ["concealed_kong", "draw"] and events[1]["source"] == "kong"
    assert drawn(t) == tile("1p") and t.replacements == 1 and t.wall.remaining == 80
    assert t.observation(2).melds[1] == (Meld(MeldKind.KONG, HIDDEN, 0),)
    act(t, 1, ConcealedKong(tile("9m")))  # kong again on the replacement turn
    assert drawn(t) == tile("2p") and t.replacements == 2 and t.wall.remaining == 79
    assert t.melds[1] == [
        Meld(MeldKind.KONG, tile("5s"), CONCEALED_KONG),
        Meld(MeldKind.KONG, tile("9m"), CONCEALED_KONG),
    ]
    assert t.tile_census() == FULL_CENSUS


def rob_setup(rules: HuangyanRules = RULES, every_seat_answers: bool = False) -> Table:
    """Seat 2 pungs the dealer's 5s, later draws the fourth 5s; seat 3 waits on 5s."""
    t = table(
        ["5s", "", "5s5s", "123m456m789m11p46s"],
        draws="9m 9m 9m 5s",
        back="1s",
        rules=rules,
        every_seat_answers=every_seat_answers,
    )
    discard(t, 0, "5s")
    answer(t, {2: Pung()})
    discard(t, 2, "E")
    settle(t)
    for _ in range(3):  # seats 3, 0, 1 draw a 9m and let it go
        act(t, t.current, Discard(drawn(t)))
        settle(t)
    assert t.current == 2 and drawn(t) == tile("5s")
    assert AddedKong(tile("5s")) in t.legal_actions(2)
    return t


def test_added_kong_on_own_turn_after_a_draw_when_nobody_robs() -> None:
    t = rob_setup()
    act(t, 2, AddedKong(tile("5s")))
    answer(t)  # seat 3 could rob and passes
    assert t.melds[2] == [Meld(MeldKind.KONG, tile("5s"), 2 + ADDED_KONG_OFFSET)]
    assert t.current == 2 and drawn(t) == tile("1s") and t.replacements == 1
    assert t.tile_census() == FULL_CENSUS


def test_robbing_an_added_kong_is_a_discard_win_by_the_konger() -> None:
    t = rob_setup()
    act(t, 2, AddedKong(tile("5s")))
    assert t.phase is Phase.ROB and t.legal_actions(3) == [Win(), Pass()]
    answer(t, {3: Win()})
    result = finished(t)
    assert result.winner == 3 and result.discarder == 2 and not result.self_drawn
    assert result.winning_tile == tile("5s")
    assert result.ledger("bullets") == (-2, -2, -2, 6)  # z = 1: not self-drawn
    items = [i["zh"] for i in result.detail["winner"]["items"]]
    assert "自摸" not in items
    assert t.melds[2] == [Meld(MeldKind.PUNG, tile("5s"), 2)]  # the kong is not made
    assert t.replacements == 0


def test_rob_kong_off_opens_no_robbing_window() -> None:
    rules = HuangyanRules({"throw_limit": 0, "rob_kong": False})
    t = rob_setup(rules, every_seat_answers=True)
    settle(t)
    events = act(t, 2, AddedKong(tile("5s")))
    assert types(events) == ["added_kong", "draw"]
    assert t.phase is Phase.TURN and t.current == 2 and drawn(t) == tile("1s")
    assert t.melds[2] == [Meld(MeldKind.KONG, tile("5s"), 2 + ADDED_KONG_OFFSET)]


def test_a_concealed_kong_cannot_be_robbed() -> None:
    t = table(
        ["E", "", "5s5s5s", "123m456m789m11p46s"], draws="9m 5s", back="1s", every_seat_answers=True
    )
    discard(t, 0, "E")
    settle(t)
    for _ in range(1):
        act(t, t.current, Discard(drawn(t)))
        settle(t)
    assert t.current == 2
    events = act(t, 2, ConcealedKong(tile("5s")))
    assert types(events) == ["concealed_kong", "draw"]
    assert t.phase is Phase.TURN and t.current == 2


def test_kongs_right_after_a_pung_or_a_chow_claim() -> None:
    # after a pung: the fourth tile may be added at once
    t = table(["5s", "", "5s5s5s", ""], back="1s")
    discard(t, 0, "5s")
    answer(t, {2: Pung()})
    legal = t.legal_actions(2)
    assert AddedKong(tile("5s")) in legal and Win() not in legal
    act(t, 2, AddedKong(tile("5s")))
    assert t.melds[2] == [Meld(MeldKind.KONG, tile("5s"), 2 + ADDED_KONG_OFFSET)]
    assert drawn(t) == tile("1s") and t.replacements == 1
    # after a chow: a concealed kong
    u = table(["5m", "4m6m 9s9s9s9s", "", ""], back="1s")
    discard(u, 0, "5m")
    answer(u, {1: Chow(tile("4m"))})
    assert ConcealedKong(tile("9s")) in u.legal_actions(1)
    act(u, 1, ConcealedKong(tile("9s")))
    assert drawn(u) == tile("1s") and u.replacements == 1


# --------------------------------------------------------------------------- §1.8, §2.5, §2.7


def test_kong_threshold_without_replacements_needs_r_minus_1_at_least_15() -> None:
    t = table(["", "", "5s5s5s5s", "6s6s6s6s"])
    discard_drawn_until(t, 16)
    assert t.current == 2 and ConcealedKong(tile("5s")) in t.legal_actions(2)  # 15 >= T(1)
    act(t, 2, Discard(drawn(t)))
    settle(t)
    assert t.wall.remaining == 15 and t.current == 3
    assert ConcealedKong(tile("6s")) not in t.legal_actions(3)  # 14 < T(1) = 15
    before = snapshot(t)
    with pytest.raises(IllegalAction, match="no kong"):
        t.apply(3, ConcealedKong(tile("6s")))
    assert snapshot(t) == before


def test_a_kong_at_16_leaves_15_and_a_final_discard_example_15() -> None:
    t = table(["", "", "5s5s5s5s", ""], dealer_count=2, thrown=(0, 1, 0, 0))
    discard_drawn_until(t, 16)
    act(t, 2, ConcealedKong(tile("5s")))
    assert t.replacements == 1 and t.wall.remaining == 15
    assert t.observation(2).drawable == 0
    act(t, 2, Discard(drawn(t)))
    settle(t)
    result = finished(t)
    assert result.is_draw and t.wall.remaining == 15
    assert result.deltas == (0, 0, 0, 0) and result.ledger("bullets") == (0, 0, 0, 0)
    assert result.stake("thrown") == (0, 1, 0, 0)


def test_after_one_kong_a_kong_on_the_last_draw_is_allowed() -> None:
    # k = 1: the wall ends at 15, and R - 1 = 14 >= T(2) = 14 allows one more kong
    t = table(["EEEE", "", "5s5s5s5s", ""], back="1s")
    act(t, 0, ConcealedKong(tile("E")))
    assert t.replacements == 1 and t.wall.remaining == 81
    discard_drawn_until(t, 15)
    assert t.current == 2 and t.observation(2).drawable == 0
    assert ConcealedKong(tile("5s")) in t.legal_actions(2)
    act(t, 2, ConcealedKong(tile("5s")))
    assert t.replacements == 2 and t.wall.remaining == 14
    act(t, 2, Discard(drawn(t)))
    settle(t)
    assert finished(t).is_draw and t.wall.remaining == 14


@pytest.mark.parametrize(("remaining", "kong"), [(16, True), (15, False)])
def test_exposed_kong_threshold(remaining: int, kong: bool) -> None:
    discarder = 2 if remaining == 16 else 3
    hands = ["", "7s7s7s", "", ""]
    hands[discarder] = "7s"
    t = table(hands)
    discard_drawn_until(t, remaining)
    assert t.current == discarder
    discard(t, discarder, "7s")
    legal = t.legal_actions(1)
    assert Pung() in legal and (ExposedKong() in legal) is kong


def raw_events(t: Table) -> list[dict[str, Any]]:
    return [e for e in t.events if e["type"] == "raw_tile_phase"]


def test_raw_tile_phase_starts_at_30_without_kongs() -> None:
    t = table(["", "", "", ""])
    discard_drawn_until(t, 31)
    assert not t.late and not raw_events(t)
    assert not any(extension_state(t.observation(s))[0] for s in range(4))
    act(t, t.current, Discard(drawn(t)))
    settle(t)
    assert t.wall.remaining == 30 and t.late
    assert all(extension_state(t.observation(s))[0] for s in range(4))
    assert raw_events(t) == [{"type": "raw_tile_phase", "remaining": 30}]
    discard_drawn_until(t, 20)
    assert len(raw_events(t)) == 1


def test_raw_tile_phase_starts_at_31_after_one_kong() -> None:
    t = table(["EEEE", "", "", ""], back="1s")
    act(t, 0, ConcealedKong(tile("E")))
    discard_drawn_until(t, 32)
    assert not t.late
    act(t, t.current, Discard(drawn(t)))
    settle(t)
    assert t.wall.remaining == 31 and t.late
    assert raw_events(t) == [{"type": "raw_tile_phase", "remaining": 31}]


def test_a_kong_replacement_at_32_starts_the_raw_tile_phase_at_31() -> None:
    # d = 50 draws leave R = 32 on seat 2's turn; his kong's replacement leaves R = 31, k = 1
    t = table(["", "", "5s5s5s5s", ""])
    discard_drawn_until(t, 32)
    assert t.current == 2 and not t.late
    act(t, 2, ConcealedKong(tile("5s")))
    assert t.late and raw_events(t) == [{"type": "raw_tile_phase", "remaining": 31}]


def test_exhaustive_draw_when_the_discard_at_14_is_not_claimed() -> None:
    t = table(["", "", "", ""], dealer_count=3, thrown=(0, 2, 0, 1))
    discard_drawn_until(t, 15)
    act(t, t.current, Discard(drawn(t)))  # not final: one more draw follows
    settle(t)
    assert t.wall.remaining == 14 and t.current == 0 and not t.is_over
    assert t.observation(0).drawable == 0
    events = act(t, 0, Discard(drawn(t)))
    settle(t)
    result = finished(t)
    assert result.is_draw and t.wall.remaining == 14
    assert result.deltas == (0, 0, 0, 0) and result.ledger("bullets") == (0, 0, 0, 0)
    assert result.stake("thrown") == (0, 2, 0, 1)
    assert "exhaustive_draw" in types(t.events) and "draw" not in types(events)


def test_example_15_exhaustive_draw_at_15_after_a_kong() -> None:
    t = table(["EEEE", "", "", ""], back="1s", dealer_count=2, thrown=(0, 1, 0, 0))
    act(t, 0, ConcealedKong(tile("E")))
    discard_drawn_until(t, 16)
    act(t, t.current, Discard(drawn(t)))
    settle(t)
    assert t.wall.remaining == 15 and not t.is_over
    act(t, t.current, Discard(drawn(t)))
    settle(t)
    result = finished(t)
    assert result.is_draw and t.wall.remaining == 15
    assert result.deltas == (0, 0, 0, 0) and result.ledger("bullets") == (0, 0, 0, 0)
    assert raw_events(t) == [{"type": "raw_tile_phase", "remaining": 31}]


def last_discard_table() -> Table:
    # seat 1 could chow or pung 7s; seat 2 waits on 7s
    t = table(["7s", "6s8s7s7s", "123m456m789m123p7s", ""], every_seat_answers=True)
    discard_drawn_until(t, 14)
    assert t.current == 0
    discard(t, 0, "7s")
    return t


def test_the_final_discard_may_only_be_won_on() -> None:
    t = last_discard_table()
    assert t.legal_actions(1) == [Pass()]
    assert t.legal_actions(2) == [Win(), Pass()]
    assert t.legal_actions(3) == [Pass()]
    before = snapshot(t)
    for action in (Pung(), Chow(tile("6s"))):
        with pytest.raises(IllegalAction, match="final discard may only be claimed for a win"):
            t.apply(1, action)
    assert snapshot(t) == before
    answer(t, {2: Win()})
    result = finished(t)
    assert result.winner == 2 and result.discarder == 0


def test_the_final_discard_not_won_ends_the_hand() -> None:
    t = last_discard_table()
    answer(t)
    assert finished(t).is_draw


# --------------------------------------------------------------------------- §2.8-2.9, §5.6

# seat 2 waits on 1s / 4s (hu 0 + no 得: W = 40); seat 3 holds two terminal concealed pungs
# (I = 20), the dealer a soft one (I = 10) and first discards C; seat 1 holds a C and the 4s.
# The three other 4s and the last 1s are the last live tiles, so 4s stays raw.
GUNNER_HANDS = ["222p C", "4s C", "123m456m789m55s23s", "111s999s"]


def gunner_table(
    remaining: int,
    known: bool = False,
    *,
    rules: HuangyanRules = RULES,
    thrown: Sequence[int] = (0, 0, 0, 0),
) -> Table:
    ending = "4s4s 1s" if known else "4s4s4s 1s"
    at = {1: "4s"} if known else {}
    draw = 82 - remaining
    t = table(GUNNER_HANDS, ending=ending, at={**at, draw: "7p"}, rules=rules, thrown=thrown)
    discard(t, 0, "C")
    discard_drawn_until(t, remaining)
    assert t.current == 1 and drawn(t) == tile("7p")
    discard(t, 1, "4s")
    answer(t, {2: Win()})
    return t


def test_a_raw_tile_won_on_in_the_raw_phase_makes_the_discarder_pay_everything() -> None:
    t = gunner_table(29)
    result = finished(t)
    detail = result.detail
    assert result.winner == 2 and result.discarder == 1
    assert detail["gunner"] == 1
    assert detail["winner"]["total"] == 40
    assert detail["losers"]["0"] == 10 and detail["losers"]["3"] == 20
    # §5.6: seat 1 pays 3 x 40 to the winner, 20 and 10 to the others as their own totals,
    # and the 10 the dealer would owe seat 3
    assert result.deltas == (10, -160, 120, 30)
    assert detail["hu"] == list(result.deltas)
    assert result.ledger("bullets") == (0, -6, 6, 0)
    assert all(p["payer"] == 1 for p in detail["payments"])


def test_no_gunner_before_the_raw_tile_phase() -> None:
    t = gunner_table(33)
    result = finished(t)
    assert not t.late and result.detail["gunner"] is None
    # ordinary settlement: each pays 40; seat 3 (20) > dealer (10) > seat 1 (0)
    assert result.deltas == (-40, -70, 120, -10)
    assert result.ledger("bullets") == (-2, -2, 6, -2)


def test_no_gunner_when_the_tile_was_known() -> None:
    t = gunner_table(29, known=True)
    result = finished(t)
    assert t.late and result.detail["gunner"] is None
    assert result.deltas == (-40, -70, 120, -10)
    assert result.ledger("bullets") == (-2, -2, 6, -2)


def test_the_gunner_also_pays_the_bullets_and_thrown_bullets_owed_to_the_winner() -> None:
    # the winner (seat 2) had accepted 3 thrown bullets: the dealer's debt is the gunner's
    result = finished(gunner_table(29, thrown=(0, 0, 3, 0)))
    assert result.detail["gunner"] == 1
    assert result.ledger("bullets") == (0, -9, 9, 0)
    assert result.deltas == (10, -160, 120, 30)


@pytest.mark.parametrize(
    ("test", "known", "gunner"),
    [
        ("P1", False, 1),
        ("P1", True, None),
        ("P2", False, 1),
        ("P2", True, None),
        ("P3", False, 1),
        ("P3", True, 1),
    ],
)
def test_gunner_test_option(test: str, known: bool, gunner: int | None) -> None:
    # seat 1 is not ready after his discard (P2 punishes him for a raw tile); P3 punishes a
    # known tile too
    rules = HuangyanRules({"throw_limit": 0, "gunner_test": test})
    result = finished(gunner_table(29, known, rules=rules))
    assert result.detail["gunner"] == gunner
    assert_hu_settlement(result)


@pytest.mark.parametrize(("early", "gunner"), [("7p", 1), ("P", None)])
def test_raw_or_known_is_decided_by_physical_face(early: str, gunner: int | None) -> None:
    # F = 7p; seat 2 waits on 4p / 7p and wins on a stand-in P from seat 1 in the raw phase.
    # A discarded 得 7p makes the face 7p known, not the white dragon; a discarded P does.
    ending = "PP" if early == "P" else "PPP"
    t = table(["C", "P C", "123m456m789m55s56p", ""], "7p", ending=ending, at={1: early, 53: "9m"})
    discard(t, 0, "C")
    discard_drawn_until(t, 29)
    assert t.current == 1 and t.late
    assert tile(early) in t.observation(0).discards[1]
    discard(t, 1, "P")
    answer(t, {2: Win()})
    result = finished(t)
    assert result.winner == 2 and result.detail["gunner"] == gunner
    assert_hu_settlement(result)


@pytest.mark.parametrize(("draw", "gunner"), [(52, 2), (48, None)])
def test_a_robbed_added_kong_is_judged_like_a_discard_by_the_konger(
    draw: int, gunner: int | None
) -> None:
    # seat 2 pungs the dealer's 5s (a claimed discard leaves 5s raw) and discards an E (so
    # his hand is not all raw); he draws the last 5s at R = 30 (raw phase) or R = 34 and adds
    # it to his pung; seat 3 robs it.
    t = table(["5s", "", "5s5sEE", "123m456m789m11p46s"], at={draw: "5s"}, back="1s")
    discard(t, 0, "5s")
    answer(t, {2: Pung()})
    discard(t, 2, "E")
    discard_drawn_until(t, 82 - draw)
    assert t.current == 2 and drawn(t) == tile("5s") and t.late is (gunner is not None)
    act(t, 2, AddedKong(tile("5s")))
    answer(t, {3: Win()})
    result = finished(t)
    assert result.winner == 3 and result.discarder == 2
    assert result.detail["gunner"] == gunner
    assert_hu_settlement(result)
    if gunner is not None:
        assert result.ledger("bullets") == (0, 0, -6, 6)


# seat 2 waits on 1s / 4s; seat 1's tiles are all raw (every other copy of their faces is
# among the last live tiles), and he draws a raw tile in the raw-tile phase.
@pytest.mark.parametrize(
    ("hand", "draw", "ending", "gunner"),
    [
        # pairs only: no discard leaves him ready, so he is excused
        ("11m55m99m22p55p88p4s", "1m", "1m 5m5m 9m9m 2p2p 5p5p 8p8p 4s4s4s", None),
        # all raw but could be ready (drop the 4s: 111m 555m 999m 22p 55p): not excused
        ("111m555m999m22p4s5p", "5p", "1m 5m 9m 2p2p 5p5p 4s4s4s", 1),
    ],
)
def test_an_all_raw_hand_is_excused_only_if_it_could_not_be_ready(
    hand: str, draw: str, ending: str, gunner: int | None
) -> None:
    t = table(["C", hand, "234m678m789s66s23s", ""], ending=ending, at={53: draw})
    discard(t, 0, "C")
    discard_drawn_until(t, 29)
    assert t.current == 1 and t.late and drawn(t) == tile(draw)
    discard(t, 1, "4s")
    answer(t, {2: Win()})
    result = finished(t)
    assert result.winner == 2 and result.detail["gunner"] == gunner
    assert_hu_settlement(result)


# --------------------------------------------------------------------------- §4.6, §5.4-5.8

EXAMPLE_11A = [
    "234m 567p 345s 678s 9m 9m",  # E: wins on his 14th tile, the 9m
    "1m 4m 7m 3p 4p 8p 1s 2s 9s E W N C",
    "2m 5m 8m 2p 3p 9p 5s 8s 9s S N F P",
    "1m 6m 9m 6p 7p 2s 3s 9s E S F C 8m",
]


def test_example_11a_dealer_self_draw_bullets_with_dealer_count_and_thrown() -> None:
    t = table(EXAMPLE_11A, "1p", dealer_count=3, thrown=(0, 3, 1, 0))
    assert Win() in t.legal_actions(0)
    act(t, 0, Win())
    result = finished(t)
    assert result.winner == 0 and result.self_drawn
    assert result.detail["winner"]["total"] == 50
    assert result.detail["losers"] == {"1": 0, "2": 0, "3": 0}
    assert result.deltas == (150, -50, -50, -50)
    assert result.ledger("bullets") == (44, -18, -14, -12)
    assert result.stake("thrown") == (0, 3, 1, 0)


def example_11b(stake: int = 1, rules: HuangyanRules = RULES) -> Table:
    """S (seat 1) wins on a 4s from N (seat 3); E has dealt 4 hands in a row."""
    t = table(
        ["C", "123m456m789m11s23s", "", "4s"],
        "9p",
        draws="9s 9s 1p",
        dealer_count=4,
        thrown=(0, 3, 1, 0),
        stake=stake,
        rules=rules,
    )
    discard(t, 0, "C")
    settle(t)
    for _ in range(2):
        act(t, t.current, Discard(drawn(t)))
        settle(t)
    discard(t, 3, "4s")
    answer(t, {1: Win()})
    return t


def test_example_11b_non_dealer_discard_win_bullets() -> None:
    result = finished(example_11b())
    assert result.winner == 1 and result.discarder == 3 and not result.self_drawn
    # each pays B x n x z = 2 x 4 x 1; the dealer pays S's thrown 3 x 1
    assert result.ledger("bullets") == (-11, 27, -8, -8)
    w = result.detail["winner"]["total"]
    assert result.deltas[1] == 3 * w
    assert result.detail["gunner"] is None


@pytest.mark.parametrize(
    ("scope", "bullets"),
    [("every", (-11, 27, -8, -8)), ("dealer", (-11, 15, -2, -2)), ("dealer_wins", (-5, 9, -2, -2))],
)
def test_example_11b_dealer_count_scope_option(
    scope: str, bullets: tuple[int, int, int, int]
) -> None:
    rules = HuangyanRules({"throw_limit": 0, "dealer_count_scope": scope})
    assert finished(example_11b(rules=rules)).ledger("bullets") == bullets


def test_the_stake_multiplies_the_hu_ledger_not_the_bullets() -> None:
    one, three = finished(example_11b(1)), finished(example_11b(3))
    assert three.deltas == tuple(3 * d for d in one.deltas)
    assert three.detail["hu"] == list(one.deltas)
    assert three.ledger("bullets") == one.ledger("bullets") == (-11, 27, -8, -8)


def test_losers_settle_among_themselves_by_their_own_totals() -> None:
    # §5.4: with no gunner each loser pays W, and the lower of two losers pays the difference
    result = finished(gunner_table(33))
    assert result.detail["losers"] == {"0": 10, "1": 0, "3": 20}
    assert_hu_settlement(result)


# --------------------------------------------------------------------------- illegal actions


def claim_window() -> Table:
    t = table(["5m", "4m6m", "", "5m5m"], "7p", every_seat_answers=True)
    discard(t, 0, "5m")
    return t


ILLEGAL_ON_TURN: list[tuple[int, Any, str]] = [
    (0, Discard(tile("9p")), "not in the concealed hand"),
    (0, Pass(), "no discard to claim"),
    (0, Pung(), "no discard to claim"),
    (0, Chow(tile("4m")), "no discard to claim"),
    (0, Win(), "do not form a winning hand"),
    (0, ConcealedKong(tile("5m")), "four copies"),
    (0, AddedKong(tile("5m")), "exposed pung"),
    (0, ThrowBullets(1), "only before the deal"),
    (0, AcceptBullets(), "only before the deal"),
    (1, Discard(tile("4m")), "not this seat's decision"),
    (4, Discard(tile("5m")), "no seat"),
]


@pytest.mark.parametrize(("seat", "action", "reason"), ILLEGAL_ON_TURN)
def test_illegal_action_on_a_turn_raises_with_a_reason_and_changes_nothing(
    seat: int, action: Any, reason: str
) -> None:
    t = table(["5m", "4m6m", "", "5m5m"], "7p")
    before = snapshot(t)
    with pytest.raises(IllegalAction, match=reason):
        t.apply(seat, action)
    assert snapshot(t) == before


ILLEGAL_IN_CLAIM: list[tuple[int, Any, str]] = [
    (2, Chow(tile("4m")), "only the discarder's next player may chow"),
    (1, Pung(), "needs two copies"),
    (3, ExposedKong(), "three copies"),
    (1, Chow(tile("5m")), "cannot be made"),
    (1, Win(), "do not form a winning hand"),
    (0, Pass(), "not this seat's decision"),
    (3, Discard(tile("5m")), "only the player on turn"),
    (3, ConcealedKong(tile("5m")), "only the player on turn"),
]


@pytest.mark.parametrize(("seat", "action", "reason"), ILLEGAL_IN_CLAIM)
def test_illegal_claim_raises_with_a_reason_and_changes_nothing(
    seat: int, action: Any, reason: str
) -> None:
    t = claim_window()
    before = snapshot(t)
    with pytest.raises(IllegalAction, match=reason):
        t.apply(seat, action)
    assert snapshot(t) == before


def test_no_action_after_the_hand_is_over() -> None:
    t = table(["E", READY_14S, "", ""], "5m", draws="5m")
    discard(t, 0, "E")
    settle(t)
    act(t, 1, Win())
    before = snapshot(t)
    for seat in range(4):
        with pytest.raises(IllegalAction, match="over"):
            t.apply(seat, Discard(tile("1p")))
    assert snapshot(t) == before
