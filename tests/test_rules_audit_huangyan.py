"""Audit of rules/huangyan.md: one test per rule that no other test pinned, or pinned only with
a test that could not fail if the rule were broken.

Each test names the spec section it pins. The tables are built with the rigged 136-tile walls
of ``test_table_huangyan`` (``table``: the tiles each seat is dealt, the indicator, the live
draws, ``at`` for a tile at a given live draw, ``ending`` for the last live tiles, ``back`` for
the replacement tiles). Seat 0 is the dealer (East), seat 1 South, seat 2 West, seat 3 North.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from majiang.engine import ConcealedKong, Discard, IllegalAction, Pass, Phase, Table, Win
from majiang.engine.wall import Wall
from majiang.rules.huangyan.ruleset import HuangyanRules
from majiang.tiles import WHITE
from test_table import act, discard_drawn_until, drawn, settle
from test_table_huangyan import (
    RULES,
    answer,
    assert_hu_settlement,
    discard,
    finished,
    snapshot,
    table,
    tile,
)

# --------------------------------------------------------------------------- §1.4 dice


def test_dice_and_break_on_a_wall_of_seventeen_stacks() -> None:
    """§1.4: the first roll counted from the dealer (1, 5, 9 dealer; 2, 6, 10 right; …) picks
    the second roller; the break is the sum of both rolls counted in stacks from the end of his
    17-stack wall, continuing onto the next wall past 17; the wall is the shuffle rotated there
    (the Guobiao test only checks 18-stack walls)."""
    stacks = 17
    past_seventeen = 0
    for seed in range(200):
        wall = Wall(RULES.wall_tiles(), random.Random(seed))
        d = wall.dice
        assert d.second_roller == (sum(d.first) - 1) % 4
        assert d.break_stack == sum(d.first) + sum(d.second)
        shuffled = RULES.wall_tiles()
        random.Random(seed).shuffle(shuffled)
        start = 2 * ((d.second_roller * stacks + d.break_stack) % (4 * stacks))
        assert wall.tiles == shuffled[start:] + shuffled[:start]
        past_seventeen += d.break_stack > stacks
        t = Table(RULES, seed)
        assert t.events[0]["dice"] == list(d.first + d.second)
        assert t.wall.tiles[:53] == wall.tiles[:53]
    assert past_seventeen


# --------------------------------------------------------------------------- §1.6, A20


def test_a_wild_never_completes_a_concealed_kong_of_stand_ins() -> None:
    """§1.6 / A20 / §2.5: 得 tiles may not be used in a concealed kong "even as their own
    face": three stand-in white dragons and a 得 (four tiles of identity F) are no kong."""
    t = table(["PPP 7p", "", "", ""], "7p")
    legal = t.legal_actions(0)
    assert not any(isinstance(a, ConcealedKong) for a in legal)
    before = snapshot(t)
    for face in (WHITE, tile("7p")):
        with pytest.raises(IllegalAction):
            t.apply(0, ConcealedKong(face))
    assert snapshot(t) == before


# --------------------------------------------------------------------------- §2.6 winning


@pytest.mark.parametrize("every_seat_answers", [False, True])
def test_seven_pairs_is_not_a_winning_hand(every_seat_answers: bool) -> None:
    """§2.6: a winning hand is four sets and a pair; there are no special hands (no seven
    pairs)."""
    t = table(["E", "", "11m33m55m77p99p22s E", ""], every_seat_answers=every_seat_answers)
    discard(t, 0, "E")
    assert Win() not in t.legal_actions(2)
    if every_seat_answers:
        assert t.legal_actions(2) == [Pass()]
        answer(t)
    assert t.phase is Phase.TURN and t.current == 1


def test_a_hand_worth_only_the_base_reward_may_win() -> None:
    """§2.6 "no minimum score" and §4.4: hu 0 and fan 0 (chows, a soft pair made with a wild
    得, so no 无得) still win, for the base reward 20."""
    t = table(["1p", "", "123m456m789m 23p 5s 9p", ""], "9p")
    discard(t, 0, "1p")
    assert Win() in t.legal_actions(2)
    answer(t, {2: Win()})
    result = finished(t)
    assert result.winner == 2 and result.discarder == 0
    winner = result.detail["winner"]
    assert (winner["hu"], winner["fan"], winner["total"]) == (0, 0, 20)
    assert result.deltas == (-20, -20, 60, -20)


@pytest.mark.parametrize(("bonus", "total"), [(0, 80), (4, 90)])
def test_a_win_on_a_kong_replacement_is_self_drawn(bonus: int, total: int) -> None:
    """§2.6 (a self-drawn win is on "a head draw or a replacement draw"), §4.2 (自摸 2, 杠上花
    option A6) and §4.6 (z = 2): the dealer's concealed soft kong 16 + self-draw 2 = 18 hu,
    无得 1 fan: (18 + 20) × 2 = 76 → 80; with the 杠上花 bonus 4: 84 → 90."""
    rules = HuangyanRules({"throw_limit": 0, "kong_bloom_bonus": bonus})
    t = table(["5s5s5s5s 123m456m789m 2p", "", "", ""], back="2p", rules=rules)
    act(t, 0, ConcealedKong(tile("5s")))
    assert drawn(t) == tile("2p")
    act(t, 0, Win())
    result = finished(t)
    assert result.winner == 0 and result.self_drawn and result.discarder is None
    winner = result.detail["winner"]
    items = {i["zh"]: i["hu"] for i in winner["items"]}
    assert items.get("自摸") == 2
    assert ("杠上花" in items) is bool(bonus)
    assert winner["total"] == total
    assert result.ledger("bullets") == (12, -4, -4, -4)  # B × n × z = 2 × 1 × 2 from each loser


# --------------------------------------------------------------------------- §2.8-2.9 gunner


def test_a_self_drawn_win_in_the_raw_tile_phase_has_no_gunner() -> None:
    """§2.9: "A self-drawn win never has a gunner", even in the raw-tile phase on a raw tile."""
    t = table(["C", "", "123m456m789m55s23s", ""], at={54: "4s"})
    discard(t, 0, "C")
    discard_drawn_until(t, 28)
    assert t.current == 2 and t.late and drawn(t) == tile("4s")
    act(t, 2, Win())
    result = finished(t)
    assert result.winner == 2 and result.self_drawn
    assert result.detail["gunner"] is None
    assert_hu_settlement(result)
    assert result.ledger("bullets") == (-4, -4, 12, -4)


# Seat 1 holds a 得 (F = 7p) and, apart from it, only faces whose other copies are among the last
# live tiles; no discard leaves him ready (five pairs, a single and a 得). He discards a raw 4s
# in the raw-tile phase and seat 2 wins on it.
ALL_RAW_WITH_A_WILD = "11m 55m 99m 22p 55p 8p 7p 4s"
ALL_RAW_ENDING = "1m 5m5m 9m9m 2p2p 5p5p 8p8p8p 4s4s4s"


@pytest.mark.parametrize(("wild_discarded", "gunner"), [(False, None), (True, 1)])
def test_the_indicator_does_not_make_the_wild_face_known(
    wild_discarded: bool, gunner: int | None
) -> None:
    """§2.8 / A17: raw or known is decided by the discard piles; "the revealed indicator does not
    count". Seat 1's 得 (face 7p) is therefore raw while no 7p lies in a pond: his hand is all
    raw and cannot be ready, so he is excused. Control: once a 得 7p has been discarded, the
    face is known and the same discard makes him the gunner."""
    ending = ALL_RAW_ENDING + (" 7p" if wild_discarded else " 7p7p")
    at: dict[int, str] = {53: "1m"}
    if wild_discarded:
        at[1] = "7p"  # seat 1's first draw: he discards it at once
    t = table(["C", ALL_RAW_WITH_A_WILD, "234m678m789s66s23s", ""], "7p", ending=ending, at=at)
    discard(t, 0, "C")
    discard_drawn_until(t, 29)
    assert t.current == 1 and t.late and drawn(t) == tile("1m")
    ponds = t.observation(0).discards
    assert any(tile("7p") in pond for pond in ponds) is wild_discarded
    hand = list(t.observation(1).hand)
    assert hand.count(tile("7p")) == 1
    assert not _could_be_ready(t, 1)
    discard(t, 1, "4s")
    answer(t, {2: Win()})
    result = finished(t)
    assert result.winner == 2 and result.discarder == 1
    assert result.detail["gunner"] == gunner
    assert_hu_settlement(result)


def _could_be_ready(t: Table, seat: int) -> bool:
    """Whether some discard from ``seat``'s 14 concealed tiles leaves a hand that waits."""
    counts = list(t.concealed[seat])
    melds = len(t.melds[seat])
    for x in range(34):
        if counts[x]:
            counts[x] -= 1
            waits: Any = t.rules.waiting_tiles(counts, melds)
            counts[x] += 1
            if waits:
                return True
    return False


# --------------------------------------------------------------------------- §2.7 no draw


def test_the_dealer_discards_first_and_then_only_head_draws_follow() -> None:
    """§1.5 / §2.1: the dealer starts by discarding (he does not draw first); after an unclaimed
    discard the right-hand player draws from the head."""
    t = table(["C", "", "", ""], draws="9s")
    assert t.current == 0 and t.wall.remaining == 82
    assert not any(e["type"] == "draw" for e in t.events)
    act(t, 0, Discard(tile("C")))
    settle(t)
    assert t.current == 1 and drawn(t) == tile("9s") and t.wall.remaining == 81
