"""Audit of rules/guobiao.md (engine parts, §2-§4 and D18): one test per rule that no other test
pinned, or pinned only with a test that could not fail if the rule were broken.

Each test names the spec section it pins. The tables are built with the rigged walls of
``test_table`` (``table``: the tiles each seat is dealt, the live draws, the replacement tiles).
"""

from __future__ import annotations

import pytest

from majiang import score
from majiang.engine import (
    Chow,
    ConcealedKong,
    Discard,
    ExposedKong,
    IllegalAction,
    Pass,
    Phase,
    Pung,
    Win,
)
from majiang.hand import Meld, MeldKind
from majiang.rules.guobiao.ruleset import GuobiaoRules
from test_table import (
    BIG,
    FALSE_WIN,
    FLOWER_BACK,
    LOW,
    RULES,
    act,
    answer,
    discard,
    discard_drawn_until,
    drawn,
    end_table,
    fans,
    settle,
    table,
    tile,
    tiles,
    types,
)

# --------------------------------------------------------------------------- §2.7 claims


def test_exposed_kong_beats_chow_and_play_goes_on_after_the_claimer() -> None:
    """§2.7: priority win > pung = kong > chow, and play continues with the player after the
    claimer (the exposed kong's claimer, after his replacement draw and discard)."""
    t = table(["5p", "46p", "", "555p"], back="1s")
    discard(t, 0, "5p")
    act(t, 1, Chow(tile("4p")))  # the chow answers first
    act(t, 3, ExposedKong())
    assert t.phase is Phase.TURN and t.current == 3
    assert t.observation(0).melds[3] == (Meld(MeldKind.KONG, tile("5p"), 3),)
    assert t.observation(0).melds[1] == ()
    assert drawn(t) == tile("1s")
    act(t, 3, Discard(tile("1s")))
    settle(t)
    assert t.current == 0  # seats 1 and 2 lost their turn


def test_win_beats_an_exposed_kong() -> None:
    """§2.7: a win claim beats an exposed-kong claim on the same discard."""
    t = table(["1p", "", BIG, "111p"], back="1s")
    discard(t, 0, "1p")
    act(t, 3, ExposedKong())
    act(t, 2, Win())
    r = t.result
    assert r is not None and r.winner == 2 and r.discarder == 0
    assert t.observation(0).melds[3] == ()


def test_a_win_on_the_next_discard_after_passing_without_drawing_in_between() -> None:
    """§2.7 "no furiten-like restriction": a player who passed a winning discard may win on the
    very next discard of the same tile, before he has drawn (the existing test lets him draw in
    between, so it could not see a Huangyan-style skipped-win restriction)."""
    t = table(["1p", "", BIG, ""], draws="1p")
    discard(t, 0, "1p")
    assert Win() in t.legal_actions(2)
    answer(t, {2: Pass()})
    assert t.current == 1 and drawn(t) == tile("1p")
    discard(t, 1, "1p")
    assert Win() in t.legal_actions(2)
    answer(t, {2: Win()})
    r = t.result
    assert r is not None and r.winner == 2 and r.discarder == 1


def test_a_pung_of_the_same_tile_after_passing_one_without_drawing() -> None:
    """§2.7: "may claim a tile identical to the previous discard" — Guobiao has no skipped-pung
    restriction (that is Huangyan's §2.4): a seat that passed a pung may pung the next copy."""
    t = table(["5p", "", "55p", ""], draws="5p")
    discard(t, 0, "5p")
    assert Pung() in t.legal_actions(2)
    answer(t, {2: Pass()})
    assert t.current == 1 and drawn(t) == tile("5p")
    discard(t, 1, "5p")
    assert Pung() in t.legal_actions(2)
    answer(t, {2: Pung()})
    assert t.observation(0).melds[2] == (Meld(MeldKind.PUNG, tile("5p"), 1),)


def test_after_an_exposed_kong_the_replacement_turn_allows_another_kong() -> None:
    """§2.7: after an exposed kong the claimer draws a replacement and continues as in §2.6
    step 2 — he may declare a (concealed) kong on that turn, and draws a further replacement."""
    t = table(["5p", "", "555p 777s", ""], back="7s 1s")
    discard(t, 0, "5p")
    answer(t, {2: ExposedKong()})
    assert t.current == 2 and drawn(t) == tile("7s")
    assert ConcealedKong(tile("7s")) in t.legal_actions(2)
    events = act(t, 2, ConcealedKong(tile("7s")))
    assert types(events) == ["concealed_kong", "draw"]
    assert drawn(t) == tile("1s")


# --------------------------------------------------------------------------- §2.5 flowers


def test_a_kong_may_follow_a_flower_replacement_in_play() -> None:
    """§2.5: after a flower replacement the player may go on to declare a kong (here the
    replacement of a flower drawn from the front is the fourth 7s)."""
    t = table(["P", "777s", "", ""], draws="f", back="7s 1s")
    discard(t, 0, "P")
    settle(t)
    assert t.current == 1 and t.observation(1).flowers[1] == (tile("f"),)
    assert drawn(t) == tile("7s")
    assert ConcealedKong(tile("7s")) in t.legal_actions(1)
    act(t, 1, ConcealedKong(tile("7s")))
    assert drawn(t) == tile("1s")


def test_flowers_do_not_help_reach_the_eight_fan_minimum_in_play() -> None:
    """§3.2-3.3: the 8-fan minimum excludes flowers. A self-drawn LOW (不求人 4) with all eight
    flowers (12 in all) is not offered a win."""
    assert score("abcdefgh" + LOW + "5p", self_drawn=True).total == 12
    assert not score("abcdefgh" + LOW + "5p", self_drawn=True).meets_minimum
    # seat 1 is dealt the eight flowers and five LOW tiles; the rest of LOW replaces them
    t = table(["P", "abcdefgh 123m 56m", "", ""], draws="5p", back="7m 34p 678s EE")
    assert t.observation(1).flowers[1] == tuple(tile(f) for f in "abcdefgh")
    discard(t, 0, "P")
    settle(t)
    assert t.current == 1 and drawn(t) == tile("5p")
    assert sorted(t.observation(1).hand) == sorted(tiles(LOW + "5p"))
    assert Win() not in t.legal_actions(1)


# --------------------------------------------------------------------------- §2.9 end of wall


def test_the_final_discard_may_not_be_konged() -> None:
    """§2.8 last bullet / §2.9: no kong on the final discard (the existing test offers only a
    chow and a pung of it, never a holder of three copies)."""
    t = end_table(["", "555p", "", ""], ending="5p", flowers=("ab", "cde", "", "fgh"))
    discard_drawn_until(t, 0)
    assert t.current == 3 and drawn(t) == tile("5p")
    discard(t, 3, "5p")
    assert t.legal_actions(1) == []  # fast mode: nothing to claim, no window for seat 1
    assert t.is_over and t.result is not None and t.result.is_draw


def test_the_final_discard_may_not_be_konged_with_every_seat_answering() -> None:
    """§2.9: the same with every seat asked: seat 1 may only pass; a kong is illegal."""
    dealt = ["ab" + "", "cde" + "555p", "", "fgh"]
    t = table(dealt, ending="5p", back=FLOWER_BACK, every_seat_answers=True)
    assert t.wall.remaining == 83
    discard_drawn_until(t, 0)
    assert t.current == 3
    discard(t, 3, "5p")
    assert t.phase is Phase.CLAIM and t.legal_actions(1) == [Pass()]
    with pytest.raises(IllegalAction):
        t.apply(1, ExposedKong())
    answer(t)
    assert t.result is not None and t.result.is_draw


# --------------------------------------------------------------------------- §2.10 false win


def test_after_a_false_win_no_self_drawn_win_either() -> None:
    """§2.10: the false-win offender "is marked unable to win for the rest of the hand" — also
    by self-draw (in a false-win room a Win is offered for every winning shape, so its absence
    is the ban)."""
    t = table(["2p", LOW, "", ""], draws="5p", rules=FALSE_WIN)
    discard(t, 0, "2p")
    assert Win() in t.legal_actions(1)
    answer(t, {1: Win()})
    assert t.current == 1 and drawn(t) == tile("5p")
    assert Win() not in t.legal_actions(1)
    assert t.observation(1).may_win is False


def test_the_false_win_penalty_option_is_what_the_engine_charges() -> None:
    """D18 / §2.10: the offender pays ``false_win_penalty`` × stake to each other player."""
    rules = GuobiaoRules({"false_win": True, "false_win_penalty": 25})
    t = table(["2p", "", LOW, ""], rules=rules, stake=2)
    discard(t, 0, "2p")
    answer(t, {2: Win()})
    assert t.observation(0).deltas == (50, 50, -150, 50)


# --------------------------------------------------------------------------- §2.1 winds


@pytest.mark.parametrize("prevalent", [0, 1])
def test_the_table_scores_the_seat_and_prevalent_winds(prevalent: int) -> None:
    """§2.1 and §2.2: seat 1 (dealer's next player) is South; the table's prevalent wind goes
    into the win context (圈风刻 only when South is prevalent)."""
    t = table(["S", "123456789m 55s SS", "", ""], prevalent_wind=prevalent)
    discard(t, 0, "S")
    answer(t, {1: Win()})
    got = fans(t)
    assert "门风刻" in got
    assert ("圈风刻" in got) is (prevalent == 1)


# --------------------------------------------------------------------------- §2.2 the match


def test_the_guobiao_dealer_never_keeps_the_deal() -> None:
    """§2.2: the dealership passes after every hand, whatever its result (no dealer repeats;
    drawn hands count)."""
    for dealer in range(4):
        for winner in (None, 0, 1, 2, 3):
            assert RULES.keeps_deal(dealer, winner) is False
