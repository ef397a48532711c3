"""Targeted tests of the engine's rules (rules/guobiao.md §2-4) on exact, hand-built walls.

Every situation is built with ``Table(..., wall=...)``: :func:`build_wall` places the tiles each
seat is to be dealt (§2.4: 4-4-4, then one each, then the dealer's jump tile), the live draws
after the deal (from the front) and the replacement tiles (from the back, first replacement
first). Seats are 0-3 in turn order; each seat's next player (下家, who alone may chow its
discards) is seat + 1.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from majiang import score
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
from majiang.engine.actions import Action
from majiang.engine.state import HIDDEN, Observation, PublicView, public_part
from majiang.engine.wall import Wall
from majiang.errors import MajiangError
from majiang.hand import Meld, MeldKind
from majiang.notation import parse_tiles
from majiang.rules.guobiao.ruleset import GuobiaoRules
from majiang.tiles import FLOWER_LETTERS

RULES = GuobiaoRules()
FALSE_WIN = GuobiaoRules({"false_win": True})
FULL_CENSUS = [4] * 34 + [1] * 8

# --------------------------------------------------------------------------- wall building


def tiles(text: str) -> list[int]:
    """Tiles in written order; ``a``-``h`` are the flowers (34-41)."""
    out: list[int] = []
    chunk = ""
    for ch in text.replace(" ", ""):
        if ch in FLOWER_LETTERS:
            out.extend(parse_tiles(chunk) if chunk else [])
            chunk = ""
            out.append(34 + FLOWER_LETTERS.index(ch))
        else:
            chunk += ch
    out.extend(parse_tiles(chunk) if chunk else [])
    return out


def tile(text: str) -> int:
    (only,) = tiles(text)
    return only


# Inert tiles to complete the hands of seats a test does not care about: no dots, no East, no
# pairs; the honours come first (single honours never give a claim).
JUNK = (
    "SWNCFP 1m4m7m 1s4s7s 9m 9s 2m 5m 8m 2s 5s 8s",
    "SWNCFP 2m5m8m 2s5s8s 9m 9s 1m 4m 7m 1s 4s 7s",
    "SWNCFP 3m6m9m 3s6s9s 1m 1s 4m 7m 4s 7s",
    "NCFP 1m4m7m 2s5s8s 3m 6m 9s SW 3s 6s 9m",
)


def deal_positions(offset: int) -> list[int]:
    """Wall indices dealt to the seat ``offset`` places after the dealer (§2.4)."""
    positions = [16 * r + 4 * offset + k for r in range(3) for k in range(4)] + [48 + offset]
    return positions + ([52] if offset == 0 else [])


def build_wall(
    hands: Sequence[str],
    draws: str = "",
    back: str = "",
    *,
    dealer: int = 0,
    ending: str = "",
    junk: bool = True,
    seed: int = 0,
) -> list[int]:
    """A 144-tile wall in draw order.

    ``hands[s]`` is what seat ``s`` is dealt (completed with :data:`JUNK` when ``junk``; the
    dealer's 14th tile is the jump tile t[52]). ``draws`` are the live tiles after the deal,
    ``ending`` the last live tiles (just before the replacement area), ``back`` the replacements
    in the order they are taken. The rest is a seeded shuffle of the remaining tiles, flowers in
    its middle.
    """
    front, end, tail = tiles(draws), tiles(ending), tiles(back)
    given = [tiles(text) for text in hands]
    left = Counter(RULES.wall_tiles())
    left.subtract([t for hand in given for t in hand] + front + end + tail)
    assert min(left.values()) >= 0, f"more copies than exist: {-left}"
    dealt = []
    for seat, hand in enumerate(given):
        want = 14 if seat == dealer else 13
        assert len(hand) <= want, f"seat {seat} is given {len(hand)} tiles, more than {want}"
        if junk:  # inert completion: kinds still available and not already in this hand
            for t in tiles(JUNK[seat]):
                if len(hand) == want:
                    break
                if left[t] and t not in hand:
                    hand.append(t)
                    left[t] -= 1
        assert len(hand) == want, f"seat {seat} is dealt {len(hand)} tiles, not {want}"
        dealt.append(hand)
    wall: list[int | None] = [None] * 53
    for offset in range(4):
        seat = (dealer + offset) % 4
        for position, t in zip(deal_positions(offset), dealt[seat], strict=True):
            wall[position] = t
    rest = sorted(left.elements())
    flowers = [t for t in rest if t >= 34]
    plain = [t for t in rest if t < 34]
    random.Random(seed).shuffle(plain)
    filler = plain[: len(plain) // 2] + flowers + plain[len(plain) // 2 :]
    full = [t for t in wall if t is not None]
    assert len(full) == 53
    result = full + front + filler + end + tail[::-1]
    assert len(result) == 144
    return result


def table(
    hands: Sequence[str],
    draws: str = "",
    back: str = "",
    *,
    rules: Any = RULES,
    dealer: int = 0,
    prevalent_wind: int = 0,
    stake: int = 1,
    ending: str = "",
    junk: bool = True,
    every_seat_answers: bool = False,
) -> Table:
    wall = build_wall(hands, draws, back, dealer=dealer, ending=ending, junk=junk)
    return Table(
        rules,
        0,
        dealer=dealer,
        prevalent_wind=prevalent_wind,
        stake=stake,
        wall=wall,
        every_seat_answers=every_seat_answers,
    )


# --------------------------------------------------------------------------- driving a table


def act(t: Table, seat: int, action: Action) -> list[dict[str, Any]]:
    """Apply an action that must be legal; return its events."""
    legal = t.legal_actions(seat)
    assert action in legal, f"{action} is not legal for seat {seat}: {legal}"
    return t.apply(seat, action)


def discard(t: Table, seat: int, text: str) -> list[dict[str, Any]]:
    return act(t, seat, Discard(tile(text)))


def answer(t: Table, answers: dict[int, Action] | None = None) -> list[dict[str, Any]]:
    """Close the open claim (or robbing) window: the given answers, Pass from everyone else."""
    assert t.phase in (Phase.CLAIM, Phase.ROB), t.phase
    answers = dict(answers or {})
    events: list[dict[str, Any]] = []
    for seat in list(t.to_act()):
        events += act(t, seat, answers.pop(seat, Pass()))
    assert not answers, f"seats {sorted(answers)} had no decision to make"
    return events


def settle(t: Table) -> None:
    """Pass on every open window until a seat is on turn (or the hand is over)."""
    while t.phase in (Phase.CLAIM, Phase.ROB):
        answer(t)


def drawn(t: Table) -> int:
    obs = t.observation(t.current)
    assert t.phase is Phase.TURN and obs.drawn is not None
    return obs.drawn


def discard_drawn_until(t: Table, remaining: int) -> None:
    """Everyone discards what he draws and passes every claim, until a seat is on turn with
    ``remaining`` tiles left in the wall."""
    while True:
        settle(t)
        assert t.phase is Phase.TURN
        if t.wall.remaining <= remaining:
            assert t.wall.remaining == remaining
            return
        act(t, t.current, Discard(drawn(t)))


def fans(t: Table) -> dict[str, int]:
    assert t.result is not None and t.result.winner is not None
    return {f["name"]: f["count"] for f in t.result.detail["fans"]}


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
    )


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


# A concealed hand waiting on 2p/5p worth only 门前清 (2) on a discard, 不求人 (4) self-drawn: too
# little to win, but robbing a kong (+8) or the last tile (+8) lifts it over the minimum.
LOW = "123m567m34p678sEE"
# A hand waiting on 1p/4p with a pure straight (清龙 16): always enough.
BIG = "123456789m23p55s"


def test_hand_constants_score_as_the_tests_assume() -> None:
    assert score(LOW + "2p").total == 2
    assert score(LOW + "2p", kong=True).meets_minimum
    assert score(LOW + "2p", last_tile=True).meets_minimum
    assert not score(LOW + "5p", self_drawn=True).meets_minimum
    assert score(BIG + "1p").meets_minimum
    assert score(BIG + "4p", self_drawn=True).meets_minimum


# --------------------------------------------------------------------------- wall, dice, deal


@pytest.mark.parametrize("dealer", range(4))
def test_deal_is_4_4_4_then_one_each_then_the_dealers_jump_tile(dealer: int) -> None:
    rng = random.Random(dealer)
    plain = [t for t in range(34) for _ in range(4)]
    rng.shuffle(plain)
    wall = plain[:60] + list(range(34, 42)) + plain[60:]  # no flower in the deal
    t = Table(RULES, 0, dealer=dealer, wall=wall)
    for offset in range(4):
        seat = (dealer + offset) % 4
        expected = sorted(wall[p] for p in deal_positions(offset))
        assert list(t.observation(seat).hand) == expected
        assert t.observation(seat).hand_sizes[seat] == (14 if offset == 0 else 13)
    assert t.wall.remaining == 144 - 53
    assert t.to_act() == [dealer]
    assert t.observation(dealer).drawn == wall[52]
    # the next live draw is t[53], for the dealer's next player
    act(t, dealer, Discard(wall[52]))
    settle(t)
    assert t.current == (dealer + 1) % 4
    assert t.observation(t.current).drawn == wall[53]
    assert t.tile_census() == FULL_CENSUS


def test_seeded_wall_is_reproducible_and_complete() -> None:
    a, b, c = Table(RULES, 42), Table(RULES, 42), Table(RULES, 43)
    assert a.wall.tiles == b.wall.tiles and a.wall.dice == b.wall.dice
    assert [a.observation(s) for s in range(4)] == [b.observation(s) for s in range(4)]
    assert a.wall.tiles != c.wall.tiles
    assert sorted(a.wall.tiles) == sorted(RULES.wall_tiles()) and len(a.wall.tiles) == 144
    assert a.tile_census() == FULL_CENSUS


def test_dice_choose_the_second_roller_and_the_break() -> None:
    stacks = 18
    rollers = Counter()
    for seed in range(300):
        rng = random.Random(seed)
        w = Wall(RULES.wall_tiles(), rng)
        d = w.dice
        assert all(1 <= x <= 6 for x in d.first + d.second)
        # counting counter-clockwise with the dealer as 1: 1, 5, 9 dealer; 2, 6, 10 South ...
        assert d.second_roller == (sum(d.first) - 1) % 4
        assert d.break_stack == sum(d.first) + sum(d.second)
        assert 4 <= d.break_stack <= 24
        rollers[d.second_roller] += 1
        # the wall is the seeded shuffle, rotated by whole stacks so that the counted stacks of
        # the second roller's wall form the tail (replacements) and the front follows the break
        shuffled = RULES.wall_tiles()
        random.Random(seed).shuffle(shuffled)
        start = 2 * ((d.second_roller * stacks + d.break_stack) % (4 * stacks))
        assert w.tiles == shuffled[start:] + shuffled[:start]
        t = Table(RULES, seed)
        assert t.events[0]["type"] == "deal"
        assert t.events[0]["dice"] == list(d.first + d.second)
    assert set(rollers) == {0, 1, 2, 3}


def test_explicit_wall_must_hold_exactly_the_tile_set() -> None:
    wall = build_wall(["", "", "", ""])
    with pytest.raises(MajiangError):
        Table(RULES, 0, wall=wall[:-1])
    with pytest.raises(MajiangError):
        Table(RULES, 0, wall=[*wall[:-1], 0])


def test_a_table_needs_a_seat_a_wind_and_a_stake() -> None:
    for kwargs in ({"dealer": 4}, {"dealer": -1}, {"prevalent_wind": 4}, {"stake": 0}):
        with pytest.raises(MajiangError):
            Table(RULES, 0, **kwargs)


# --------------------------------------------------------------------------- flowers


def test_initial_flower_replacement_dealer_south_west_north_from_the_tail() -> None:
    # dealer 1: the order is seats 1, 2, 3, 0; South's replacement is itself a flower and is
    # replaced before West starts
    hands = ["d", "ab", "c", ""]
    t = table(hands, back="1p 2p e 3p 4p", dealer=1)
    flower_events = [(e["seat"], e["tile"]) for e in t.events if e["type"] == "flower"]
    assert flower_events == [(1, "a"), (1, "b"), (2, "c"), (2, "e"), (0, "d")]
    obs = t.observation(1)
    assert obs.flowers == ((tile("d"),), (tile("a"), tile("b")), (tile("c"), tile("e")), ())
    assert tile("1p") in obs.hand and tile("2p") in obs.hand
    assert obs.drawn == tile("2p")  # the dealer's last replacement is his fourteenth tile
    assert tile("3p") in t.observation(2).hand
    assert tile("4p") in t.observation(0).hand
    assert [t.observation(s).hand_sizes[s] for s in range(4)] == [13, 14, 13, 13]
    assert t.wall.remaining == 144 - 53 - 5
    assert t.tile_census() == FULL_CENSUS


def test_flower_drawn_in_play_is_replaced_from_the_tail_and_a_win_on_it_is_self_drawn() -> None:
    # South (seat 1) draws a flower from the front; its replacement (from the back) completes BIG
    t = table(["P", BIG, "", ""], draws="f", back="4p")
    discard(t, 0, "P")
    settle(t)
    assert t.current == 1 and t.observation(1).flowers[1] == (tile("f"),)
    assert t.observation(1).drawn == tile("4p")
    assert Win() in t.legal_actions(1)
    act(t, 1, Win())
    got = fans(t)
    assert "杠上开花" not in got and "花牌" in got
    assert "不求人" in got or "自摸" in got
    assert t.result is not None and t.result.self_drawn and t.result.winning_tile == tile("4p")


def test_a_win_on_a_flower_replacing_a_kong_replacement_is_not_out_on_a_kong() -> None:
    # D16: the dealer declares a concealed kong; the replacement is a flower, whose replacement
    # completes the hand: 自摸, never 杠上开花
    t = table(["1111m 234m 567m 789m 5m", "", "", ""], back="a 5m")
    act(t, 0, ConcealedKong(tile("1m")))
    assert t.observation(0).flowers[0] == (tile("a"),)
    assert t.observation(0).drawn == tile("5m")
    act(t, 0, Win())
    got = fans(t)
    assert "杠上开花" not in got and "花牌" in got


def test_a_win_on_a_kong_replacement_is_out_on_a_kong() -> None:
    t = table(["1111m 234m 567m 789m 5m", "", "", ""], back="5m")
    act(t, 0, ConcealedKong(tile("1m")))
    act(t, 0, Win())
    assert "杠上开花" in fans(t)


# --------------------------------------------------------------------------- claims


def test_chow_only_by_the_next_player_with_every_possible_chow() -> None:
    hands = ["5p", "34p67p", "46p", "34p"]
    t = table(hands)
    discard(t, 0, "5p")
    assert t.phase is Phase.CLAIM
    assert t.to_act() == [1]
    assert set(t.legal_actions(1)) == {Chow(tile("3p")), Chow(tile("4p")), Chow(tile("5p")), Pass()}
    assert t.legal_actions(2) == [] and t.legal_actions(3) == []
    with pytest.raises(IllegalAction):
        t.apply(3, Chow(tile("3p")))
    answer(t, {1: Chow(tile("4p"))})
    assert t.current == 1
    assert t.observation(0).melds[1] == (Meld(MeldKind.CHOW, tile("4p"), 2),)
    # after a chow only a discard
    assert all(isinstance(a, Discard) for a in t.legal_actions(1))


def test_no_chow_from_the_player_opposite_or_on_the_right_even_alone() -> None:
    # seat 3 (the discarder's previous player) holds 46p; seat 2 34p: nobody may claim 5p
    t = table(["5p", "", "34p", "46p"])
    discard(t, 0, "5p")
    assert t.phase is Phase.TURN and t.current == 1


def test_no_chow_of_honours() -> None:
    t = table(["E", "SW", "", ""])
    discard(t, 0, "E")
    assert t.current == 1 and t.phase is Phase.TURN


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_pung_from_any_seat(seat: int) -> None:
    hands = ["5p", "", "", ""]
    hands[seat] = "55p"
    t = table(hands)
    discard(t, 0, "5p")
    assert t.to_act() == [seat]
    assert set(t.legal_actions(seat)) == {Pung(), Pass()}
    answer(t, {seat: Pung()})
    # the meld records whom it came from: 1 left, 2 opposite, 3 right (§1.2)
    assert t.observation(0).melds[seat] == (Meld(MeldKind.PUNG, tile("5p"), seat),)


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_exposed_kong_from_any_seat(seat: int) -> None:
    hands = ["5p", "", "", ""]
    hands[seat] = "555p"
    t = table(hands, back="1s")
    discard(t, 0, "5p")
    assert set(t.legal_actions(seat)) == {Pung(), ExposedKong(), Pass()}
    answer(t, {seat: ExposedKong()})
    assert t.observation(0).melds[seat] == (Meld(MeldKind.KONG, tile("5p"), seat),)
    assert t.current == seat and t.observation(seat).drawn == tile("1s")


@pytest.mark.parametrize("order", [(1, 3), (3, 1)])
def test_pung_beats_chow_whatever_the_order_of_answers(order: tuple[int, int]) -> None:
    t = table(["5p", "46p", "", "55p"])
    discard(t, 0, "5p")
    choice = {1: Chow(tile("4p")), 3: Pung()}
    for seat in order:
        act(t, seat, choice[seat])
    assert t.phase is Phase.TURN and t.current == 3
    assert t.observation(0).melds[3] == (Meld(MeldKind.PUNG, tile("5p"), 3),)
    assert t.observation(0).melds[1] == ()
    assert t.observation(0).discards[0] == ()
    assert all(isinstance(a, Discard) for a in t.legal_actions(3))
    # play continues with the player after the claimer
    discard(t, 3, "C")
    settle(t)
    assert t.current == 0


def test_win_beats_pung_and_chow() -> None:
    t = table(["1p", "23p", BIG, "11p"], dealer=0)
    discard(t, 0, "1p")
    assert sorted(t.to_act()) == [1, 2, 3]
    act(t, 3, Pung())
    act(t, 1, Chow(tile("1p")))
    assert not t.is_over  # seat 2 has not answered yet
    act(t, 2, Win())
    assert t.result is not None and t.result.winner == 2 and t.result.discarder == 0


@pytest.mark.parametrize("offsets", [(1, 2), (1, 3), (2, 3)])
@pytest.mark.parametrize("discarder", range(4))
def test_one_winner_the_first_counter_clockwise_from_the_discarder(
    discarder: int, offsets: tuple[int, int]
) -> None:
    # two seats win on the same 1p: the one nearer the discarder in turn order wins
    winners = [(discarder + k) % 4 for k in offsets]
    hands = [""] * 4
    hands[discarder] = "1p"
    hands[winners[0]] = BIG
    hands[winners[1]] = "123456789s23p55m"
    t = table(hands, dealer=discarder)
    discard(t, discarder, "1p")
    assert sorted(t.to_act()) == sorted(winners)
    for seat in reversed(winners):  # the farther one answers first
        act(t, seat, Win())
    r = t.result
    assert r is not None and r.winner == winners[0] and r.discarder == discarder
    assert sum(r.deltas) == 0
    assert r.deltas[winners[1]] == -8  # the other winner only pays the base, as a loser


def test_every_eligible_seat_answers_before_the_window_resolves() -> None:
    t = table(["1p", "23p", BIG, "11p"])
    discard(t, 0, "1p")
    act(t, 2, Pass())
    assert sorted(t.to_act()) == [1, 3] and t.legal_actions(2) == []
    with pytest.raises(IllegalAction):
        t.apply(2, Win())  # an answer is final
    act(t, 1, Chow(tile("1p")))
    assert t.phase is Phase.CLAIM and t.to_act() == [3]
    act(t, 3, Pass())
    assert t.phase is Phase.TURN and t.current == 1


def test_a_seat_may_win_on_a_tile_it_passed_on_and_on_its_own_discard() -> None:
    # no furiten (§2.7): seat 1 passes the dealer's 1p, then wins on the next 1p
    t = table(["1p 1p", BIG, "", ""])
    discard(t, 0, "1p")
    answer(t, {1: Pass()})
    assert t.current == 1
    act(t, 1, Discard(drawn(t)))
    discard_until_seat(t, 0)
    discard(t, 0, "1p")
    answer(t, {1: Win()})
    assert t.result is not None and t.result.winner == 1


def discard_until_seat(t: Table, seat: int) -> None:
    while t.current != seat or t.phase is not Phase.TURN:
        settle(t)
        if t.current != seat:
            act(t, t.current, Discard(drawn(t)))


def test_after_a_pung_only_a_discard_not_a_kong_nor_a_win() -> None:
    # seat 2 pungs 5p holding four 7s (no concealed kong now), then pungs 6p holding the fourth
    # 5p (no added kong now); on his next drawn turn both kongs are open to him
    t = table(["5p", "", "55p 66p 5p 7777s", "6p"], draws="9p 9p 9p 9p")
    discard(t, 0, "5p")
    answer(t, {2: Pung()})
    assert t.legal_actions(2) == [Discard(x) for x in sorted(set(t.observation(2).hand))]
    discard(t, 2, "S")
    settle(t)
    assert t.current == 3
    discard(t, 3, "6p")
    answer(t, {2: Pung()})
    legal = t.legal_actions(2)
    assert all(isinstance(a, Discard) for a in legal) and Discard(tile("5p")) in legal
    discard(t, 2, "W")
    discard_until_seat(t, 2)
    legal = t.legal_actions(2)
    assert AddedKong(tile("5p")) in legal and ConcealedKong(tile("7s")) in legal


def test_after_a_chow_no_win_even_with_a_complete_hand() -> None:
    # seat 1 chows 1p into 123p: BIG + 1p would be a winning hand with 16 fans, but it is a chow
    hands = ["1p", "123456789m 23p 55s", "", ""]
    t = table(hands)
    discard(t, 0, "1p")
    assert Win() in t.legal_actions(1)
    answer(t, {1: Chow(tile("1p"))})
    assert Win() not in t.legal_actions(1)
    assert all(isinstance(a, Discard) for a in t.legal_actions(1))


def test_concealed_kong_then_kong_again_then_win_on_the_replacement() -> None:
    t = table(["1111m 2222m 345m 678m", "", "", ""], back="9m 9m")
    # dealer: 14 tiles = two kongs and six tiles; kong, replacement 9m, kong again, 9m wins
    assert t.observation(0).hand_sizes[0] == 14
    legal = t.legal_actions(0)
    assert ConcealedKong(tile("1m")) in legal and ConcealedKong(tile("2m")) in legal
    events = act(t, 0, ConcealedKong(tile("1m")))
    assert types(events) == ["concealed_kong", "draw"]
    assert events[0] == {"type": "concealed_kong", "seat": 0}  # others do not learn the tile
    assert t.observation(1).melds[0] == (Meld(MeldKind.KONG, HIDDEN, 0),)
    assert t.observation(0).melds[0] == (Meld(MeldKind.KONG, tile("1m"), 0),)
    assert ConcealedKong(tile("2m")) in t.legal_actions(0)
    act(t, 0, ConcealedKong(tile("2m")))
    assert t.observation(0).drawn == tile("9m")
    act(t, 0, Win())
    assert "杠上开花" in fans(t)
    assert t.result is not None and t.result.self_drawn


def test_exposed_kong_draws_a_replacement_and_may_win_on_it() -> None:
    t = table(["5p", "", "555p 123456789m 2s", ""], back="2s")
    discard(t, 0, "5p")
    answer(t, {2: ExposedKong()})
    assert t.current == 2 and t.observation(2).drawn == tile("2s")
    assert t.observation(0).melds[2] == (Meld(MeldKind.KONG, tile("5p"), 2),)
    act(t, 2, Win())
    got = fans(t)
    assert "杠上开花" in got
    assert t.result is not None and t.result.discarder is None


def test_added_kong_on_own_turn_after_a_draw() -> None:
    t = table(["5p", "55p", "", ""], draws="E E E 5p", back="1s")
    discard(t, 0, "5p")
    answer(t, {1: Pung()})
    assert AddedKong(tile("5p")) not in t.legal_actions(1)
    discard(t, 1, "S")
    discard_until_seat(t, 1)
    assert t.observation(1).drawn == tile("5p")
    events = act(t, 1, AddedKong(tile("5p")))
    # nobody can rob: the kong completes and the replacement is drawn from the tail
    assert types(events) == ["added_kong", "draw"]
    assert t.observation(0).melds[1] == (Meld(MeldKind.KONG, tile("5p"), 5),)
    assert t.observation(1).drawn == tile("1s")
    assert t.tile_census() == FULL_CENSUS


# --------------------------------------------------------------------------- robbing a kong


def rob_setup() -> Table:
    """Seat 1 pungs the dealer's 2p, then draws the fourth 2p; seat 3 holds LOW (waiting on
    2p/5p: 2 fans on a discard, 10 when robbing a kong)."""
    t = table(["2p", "22p", "", LOW], draws="9p 9p 9p 2p", back="1s")
    discard(t, 0, "2p")
    # LOW is worth 2 on the dealer's discard: no win offered (the false-win option is off)
    assert t.to_act() == [1]
    answer(t, {1: Pung()})
    discard(t, 1, "S")
    discard_until_seat(t, 1)
    assert t.observation(1).drawn == tile("2p")
    return t


def test_added_kong_can_be_robbed_and_the_declarer_pays_as_discarder() -> None:
    t = rob_setup()
    events = act(t, 1, AddedKong(tile("2p")))
    assert types(events) == ["added_kong"]
    assert t.phase is Phase.ROB and t.to_act() == [3]
    assert t.legal_actions(3) == [Win(), Pass()]
    assert t.observation(0).last_discard == tile("2p")
    assert t.tile_census() == FULL_CENSUS
    act(t, 3, Win())
    result = t.result
    assert result is not None and result.winner == 3 and result.discarder == 1
    got = fans(t)
    assert "抢杠和" in got and "和绝张" not in got
    f = result.points
    assert result.deltas == (-8, -(8 + f), -8, 8 + f + 16)
    # the kong was not completed: the pung stays a pung
    assert t.observation(0).melds[1] == (Meld(MeldKind.PUNG, tile("2p"), 1),)
    assert t.tile_census() == FULL_CENSUS


def test_not_robbing_completes_the_added_kong() -> None:
    t = rob_setup()
    act(t, 1, AddedKong(tile("2p")))
    act(t, 3, Pass())
    assert t.phase is Phase.TURN and t.current == 1
    assert t.observation(1).drawn == tile("1s")
    assert t.observation(0).melds[1] == (Meld(MeldKind.KONG, tile("2p"), 5),)


def test_several_robbers_the_first_counter_clockwise_from_the_declarer_wins() -> None:
    # seat 1 adds to his pung of 2p; seats 3 and 0 can both rob it (in turn order from the
    # declarer: 2, 3, 0), so seat 3 wins, whatever the order of the answers
    hands = ["2p 123s567s34p678mWW", "22p", "", LOW]
    t = table(hands, draws="9p 9p 9p 2p", back="1s")
    discard(t, 0, "2p")
    answer(t, {1: Pung()})
    discard(t, 1, "S")
    discard_until_seat(t, 1)
    assert t.observation(1).drawn == tile("2p")
    act(t, 1, AddedKong(tile("2p")))
    assert t.phase is Phase.ROB and sorted(t.to_act()) == [0, 3]
    act(t, 0, Win())
    act(t, 3, Win())
    r = t.result
    assert r is not None and r.winner == 3 and r.discarder == 1
    assert "抢杠和" in fans(t)


def test_seeds_exception_an_exposed_kong_cannot_be_robbed() -> None:
    # A (dealer) discards 2p; B (seat 2) could only win with the 8 fans of robbing a kong; C (seat
    # 1) makes an exposed kong of it: B may not rob, C draws his replacement
    t = table(["2p", "222p", LOW, ""], back="1s")
    discard(t, 0, "2p")
    assert t.to_act() == [1]  # no win offered to B on the discard itself
    answer(t, {1: ExposedKong()})
    assert t.phase is Phase.TURN and t.current == 1
    assert t.observation(1).drawn == tile("1s")
    assert t.legal_actions(2) == []


def test_seeds_exception_when_the_winner_passed_on_the_discard() -> None:
    # B could win on the discard (BIG waits on 1p) and passes; C kongs it: no robbing
    t = table(["1p", BIG, "", "111p"], back="1s")
    discard(t, 0, "1p")
    assert sorted(t.to_act()) == [1, 3]
    act(t, 1, Pass())
    act(t, 3, ExposedKong())
    assert t.phase is Phase.TURN and t.current == 3 and t.legal_actions(1) == []


def test_a_concealed_kong_cannot_be_robbed_even_for_thirteen_orphans() -> None:
    t = table(["1111m", "99m19s19pESWNCFP", "", ""], back="1s")
    act(t, 0, ConcealedKong(tile("1m")))
    assert t.phase is Phase.TURN and t.current == 0 and t.legal_actions(1) == []


# --------------------------------------------------------------------------- winning, flags


def test_self_drawn_payment_each_pays_eight_plus_fans_times_stake() -> None:
    t = table(["P", BIG, "", ""], draws="4p", stake=3)
    discard(t, 0, "P")
    settle(t)
    act(t, 1, Win())
    r = t.result
    assert r is not None and r.self_drawn and r.winner == 1
    expected = score(BIG + "4p", self_drawn=True, seat_wind="S").total
    assert r.points == expected
    each = (8 + expected) * 3
    assert r.deltas == (-each, 3 * each, -each, -each)


def test_discard_payment_discarder_pays_eight_plus_fans_others_eight() -> None:
    t = table(["1p", "", BIG, ""], stake=2)
    discard(t, 0, "1p")
    answer(t, {2: Win()})
    r = t.result
    assert r is not None
    f = score(BIG + "1p", seat_wind="W").total
    assert r.points == f
    assert r.deltas == (-(8 + f) * 2, -16, (8 + f) * 2 + 32, -16)
    assert r.winning_tile == tile("1p")
    assert t.observation(0).discards[0] == ()  # the winning discard left the pond


SHAPES = [
    ("1133557799m11sE", "E"),  # seven pairs
    ("19m19s19pESWNCFP", "C"),  # thirteen orphans, thirteen-sided wait
    ("19m19s19pESWNCFP", "1m"),
    ("147m258s369pESWN", "C"),  # honours and knitted tiles
    ("147m258s369p789mE", "E"),  # knitted straight, a set and a pair
    ("1112345678999m", "5m"),  # nine gates
]


@pytest.mark.parametrize(("hand", "win"), SHAPES)
def test_every_winning_shape_wins_on_a_discard(hand: str, win: str) -> None:
    t = table([win, "", hand, ""])
    discard(t, 0, win)
    assert Win() in t.legal_actions(2)
    answer(t, {2: Win()})
    assert t.result is not None and t.result.winner == 2 and t.result.discarder == 0


@pytest.mark.parametrize(("hand", "win"), SHAPES)
def test_every_winning_shape_wins_self_drawn(hand: str, win: str) -> None:
    t = table(["5s", hand, "", ""], draws=win)
    discard(t, 0, "5s")
    settle(t)
    assert t.current == 1 and t.observation(1).drawn == tile(win)
    act(t, 1, Win())
    assert t.result is not None and t.result.winner == 1 and t.result.self_drawn


def test_dealer_may_win_on_his_initial_fourteen_tiles_without_a_wait_fan() -> None:
    # the jump tile 3p is his fourteenth tile; as a wait it would be an edge wait (边张), but an
    # initial hand had no wait (D19, decision 4): self-drawn, no wait fan
    t = table(["123456789m 12p 55s 3p", "", "", ""])
    assert t.observation(0).drawn == tile("3p")
    assert Win() in t.legal_actions(0)
    act(t, 0, Win())
    r = t.result
    assert r is not None and r.self_drawn and r.winner == 0
    got = fans(t)
    assert "边张" not in got and ("不求人" in got or "自摸" in got)


def test_fourth_tile_counts_the_copies_in_the_ponds() -> None:
    # three 1p discarded (dealer, seat 2, dealer); seat 1 (BIG) draws the fourth: 和绝张
    t = table(["1p 1p", BIG, "1p", ""], draws="E E E E 1p")
    discard(t, 0, "1p")
    answer(t, {1: Pass()})
    act(t, 1, Discard(drawn(t)))
    discard(t, 2, "1p")
    answer(t, {1: Pass()})
    act(t, 3, Discard(drawn(t)))
    discard(t, 0, "1p")
    answer(t, {1: Pass()})
    assert t.current == 1 and t.observation(1).drawn == tile("1p")
    act(t, 1, Win())
    assert "和绝张" in fans(t)


def test_fourth_tile_not_counted_when_a_copy_is_concealed() -> None:
    # two 1p discarded by the dealer, one in seat 2's concealed hand: not 和绝张
    t = table(["1p 1p", BIG, "1p", ""], draws="E E E E 1p")
    discard(t, 0, "1p")
    answer(t, {1: Pass()})
    act(t, 1, Discard(drawn(t)))
    act(t, 2, Discard(drawn(t)))
    act(t, 3, Discard(drawn(t)))
    discard(t, 0, "1p")
    answer(t, {1: Pass()})
    assert t.current == 1 and t.observation(1).drawn == tile("1p")
    act(t, 1, Win())
    assert "和绝张" not in fans(t)


def test_fourth_tile_counts_claimed_copies_in_melds() -> None:
    # the dealer's 1p is punged by seat 3 (three 1p in his meld); seat 1 draws the last one
    t = table(["1p", BIG, "", "11p"], draws="E 1p")
    discard(t, 0, "1p")
    answer(t, {3: Pung()})
    discard(t, 3, "C")
    settle(t)
    act(t, 0, Discard(drawn(t)))
    settle(t)
    assert t.current == 1 and t.observation(1).drawn == tile("1p")
    act(t, 1, Win())
    assert "和绝张" in fans(t)


def test_fourth_tile_on_a_discard() -> None:
    # the dealer's first 1p is punged by seat 3 (three 1p in his meld); the dealer discards the
    # fourth and seat 1 wins on it with 和绝张
    t = table(["1p 1p", BIG, "", "11p"], draws="E E E")
    discard(t, 0, "1p")
    answer(t, {3: Pung()})
    discard(t, 3, "C")
    settle(t)
    assert t.current == 0
    discard(t, 0, "1p")
    answer(t, {1: Win()})
    assert "和绝张" in fans(t)


# --------------------------------------------------------------------------- the 8-fan minimum


def test_no_win_under_eight_fans_without_the_false_win_option() -> None:
    t = table(["2p", "", LOW, ""])
    discard(t, 0, "2p")
    assert t.phase is Phase.TURN and t.current == 1  # nobody could claim
    # self-drawn LOW is 4 fans: no Win either
    t = table(["P", LOW, "", ""], draws="5p")
    discard(t, 0, "P")
    settle(t)
    assert t.current == 1 and t.observation(1).drawn == tile("5p")
    assert Win() not in t.legal_actions(1)


def test_a_hand_with_no_winning_shape_never_offers_win_even_with_the_option() -> None:
    t = table(["9p", "", LOW, ""], rules=FALSE_WIN)
    discard(t, 0, "9p")
    assert t.current == 1 and t.phase is Phase.TURN


def test_false_win_on_a_discard_penalty_and_the_window_resolves_without_it() -> None:
    # seat 2 (LOW) falsely declares on 2p; seat 3's pung of the same discard goes through
    t = table(["2p", "", LOW, "22p"], rules=FALSE_WIN, stake=2)
    discard(t, 0, "2p")
    assert set(t.legal_actions(2)) == {Win(), Pass()}
    act(t, 2, Win())
    events = act(t, 3, Pung())
    assert "false_win" in types(events)
    assert t.observation(0).deltas == (20, 20, -60, 20)
    assert t.phase is Phase.TURN and t.current == 3
    assert t.observation(2).may_win is False and t.observation(0).may_win is True
    assert t.observation(0).melds[3] == (Meld(MeldKind.PUNG, tile("2p"), 3),)


def test_false_win_offender_can_no_longer_win_but_still_claims() -> None:
    # seat 2 (LOW) falsely declares on the dealer's 2p; the dealer's 5p later completes LOW
    # again, but no Win is offered; the dealer's E may still be punged (LOW holds EE)
    t = table(["2p 5p E", "", LOW, ""], rules=FALSE_WIN)
    discard(t, 0, "2p")
    answer(t, {2: Win()})
    assert t.current == 1 and t.phase is Phase.TURN
    discard_until_seat(t, 0)
    discard(t, 0, "5p")
    assert 2 not in t.to_act() and Win() not in t.legal_actions(2)
    discard_until_seat(t, 0)
    discard(t, 0, "E")
    assert set(t.legal_actions(2)) == {Pung(), Pass()}
    answer(t, {2: Pung()})
    assert t.current == 2 and t.observation(2).may_win is False


def test_false_win_on_own_turn_then_he_must_play_on() -> None:
    t = table(["P", LOW, "", ""], draws="5p", rules=FALSE_WIN)
    discard(t, 0, "P")
    settle(t)
    assert Win() in t.legal_actions(1)
    events = act(t, 1, Win())
    assert types(events) == ["false_win"]
    assert t.phase is Phase.TURN and t.current == 1 and not t.is_over
    assert Win() not in t.legal_actions(1)
    assert any(isinstance(a, Discard) for a in t.legal_actions(1))
    assert t.observation(3).deltas == (10, -30, 10, 10)
    assert t.tile_census() == FULL_CENSUS


def test_a_false_win_nearer_the_discarder_does_not_stop_a_real_one() -> None:
    t = table(["1p", "123m567m23p678sEE", BIG, ""], rules=FALSE_WIN)
    discard(t, 0, "1p")
    assert set(t.legal_actions(1)) >= {Win(), Pass()} and Win() in t.legal_actions(2)
    act(t, 1, Win())
    act(t, 2, Win())
    r = t.result
    assert r is not None and r.winner == 2
    f = r.points
    assert r.deltas == (10 - (8 + f), -30 - 8, 10 + (8 + f) + 16, 10 - 8)
    assert sum(r.deltas) == 0


# --------------------------------------------------------------------------- end of the wall

# Every flower is dealt (and replaced from the back at the deal) so that the live wall is exactly
# known: 144 - 53 - 8 = 83 live draws; the dealer's previous player draws the last one.
FLOWER_BACK = "7p 8p 9p 7p 8p 9p 7p 8p"


def end_table(
    hands: Sequence[str], ending: str, flowers: Sequence[str] = ("abc", "def", "gh", ""), **kw: Any
) -> Table:
    dealt = [f + h for f, h in zip(flowers, hands, strict=True)]
    t = table(dealt, ending=ending, back=FLOWER_BACK, **kw)
    assert t.wall.remaining == 83
    return t


def test_last_wall_tile_self_drawn_scores_the_last_tile_draw() -> None:
    # 83 live tiles: the last is drawn by the dealer's previous player (seat 3)
    t = end_table(["", "", "", LOW], ending="2p")
    discard_drawn_until(t, 0)
    assert t.current == 3 and t.observation(3).drawn == tile("2p")
    act(t, 3, Win())
    assert "妙手回春" in fans(t)


def test_final_discard_may_only_be_claimed_for_a_win() -> None:
    # seat 3 draws the last tile 5p and discards it; seat 0 could chow it, seat 1 pung it,
    # seat 2 (LOW) wins with 海底捞月
    t = end_table(["46p", "55p", LOW, ""], ending="5p", flowers=("ab", "cde", "", "fgh"))
    discard_drawn_until(t, 0)
    assert t.current == 3
    discard(t, 3, "5p")
    assert t.phase is Phase.CLAIM and t.to_act() == [2]
    assert t.legal_actions(2) == [Win(), Pass()]
    act(t, 2, Win())
    assert "海底捞月" in fans(t)


def test_exhaustive_draw_has_no_payments() -> None:
    t = end_table(["46p", "55p", LOW, ""], ending="5p", flowers=("ab", "cde", "", "fgh"))
    discard_drawn_until(t, 0)
    events = discard(t, 3, "5p")
    assert types(events) == ["discard"]
    events = act(t, 2, Pass())
    assert types(events) == ["exhaustive_draw"]
    r = t.result
    assert r is not None and r.is_draw and r.deltas == (0, 0, 0, 0)
    assert t.is_over and t.to_act() == [] and all(t.legal_actions(s) == [] for s in range(4))
    assert t.tile_census() == FULL_CENSUS


def test_no_kong_on_the_last_wall_tile() -> None:
    t = end_table(["", "", "", "7777s"], ending="S")
    discard_drawn_until(t, 4)
    assert t.current == 3 and ConcealedKong(tile("7s")) in t.legal_actions(3)
    discard_drawn_until(t, 0)
    assert t.current == 3
    assert not any(isinstance(a, ConcealedKong | AddedKong) for a in t.legal_actions(3))


def test_a_kong_with_one_tile_left_takes_it_as_replacement() -> None:
    # seat 2 draws 6p leaving one tile, declares a kong of 7s and wins on the last tile 4p:
    # 杠上开花 and 妙手回春 both count (D17)
    t = end_table(
        ["", "", "7777s 123m 456m 11p 5p", ""], ending="6p 4p", flowers=("abc", "def", "", "gh")
    )
    discard_drawn_until(t, 1)
    assert t.current == 2 and t.observation(2).drawn == tile("6p")
    act(t, 2, ConcealedKong(tile("7s")))
    assert t.wall.remaining == 0 and t.observation(2).drawn == tile("4p")
    act(t, 2, Win())
    got = fans(t)
    assert "杠上开花" in got and "妙手回春" in got


def test_a_flower_as_the_last_tile_ends_the_hand_as_a_draw() -> None:
    # seven flowers dealt, the eighth is the last live tile
    dealt = ["ab", "cd", "ef", "g"]
    t = table(dealt, ending="h", back="9p 9p 9p 9p 8p 8p 8p")
    discard_drawn_until(t, 1)
    seat = t.current
    act(t, seat, Discard(drawn(t)))
    settle(t)
    assert t.is_over
    r = t.result
    assert r is not None and r.is_draw and r.deltas == (0, 0, 0, 0)
    assert t.observation(0).flowers[(seat + 1) % 4][-1] == tile("h")
    assert t.tile_census() == FULL_CENSUS


def test_a_flower_replaced_by_the_last_tile_wins_as_the_last_tile_draw() -> None:
    # seven flowers dealt; seat 3 draws the eighth with one tile left, and its replacement (taken
    # from the back) is that last tile: 妙手回春, and 自摸 rather than 杠上开花 (D16, decision 5)
    dealt = ["ab", "cd", "efg", LOW]
    t = table(dealt, ending="h 2p", back="9p 9p 9p 9p 8p 8p 8p")
    discard_drawn_until(t, 2)
    assert t.current == 2
    act(t, 2, Discard(drawn(t)))
    settle(t)
    assert t.current == 3 and t.wall.remaining == 0
    assert t.observation(3).flowers[3] == (tile("h"),) and t.observation(3).drawn == tile("2p")
    act(t, 3, Win())
    got = fans(t)
    assert "妙手回春" in got and "杠上开花" not in got


# --------------------------------------------------------------------------- observations


def test_observation_shows_own_tiles_and_public_information_only() -> None:
    t = table(["1111m 5p", "55p", "", ""], back="1s")
    act(t, 0, ConcealedKong(tile("1m")))
    discard(t, 0, "5p")
    for seat in range(4):
        obs = t.observation(seat)
        assert obs.seat == seat and obs.seat_wind == seat and obs.dealer == 0
        own = sorted(x for x in range(34) for _ in range(t.concealed[seat][x]))
        assert list(obs.hand) == own
        assert obs.hand_sizes == tuple(sum(c) for c in t.concealed)
        assert obs.drawn is None
        assert obs.last_discard == tile("5p")
        kong = obs.melds[0][0]
        assert kong.tile == (tile("1m") if seat == 0 else HIDDEN)
        assert obs.legal_actions == tuple(t.legal_actions(seat))
    assert t.observation(2).legal_actions == ()
    assert t.observation(1).legal_actions == (Pung(), Pass())


def test_only_the_seat_on_turn_sees_its_drawn_tile() -> None:
    t = table(["P", "", "", ""], draws="3s")
    discard(t, 0, "P")
    settle(t)
    assert t.observation(1).drawn == tile("3s")
    assert all(t.observation(s).drawn is None for s in (0, 2, 3))
    draw_events = [e for e in t.events if e["type"] == "draw"]
    assert draw_events and all(e.get("private") for e in draw_events)


def quiet_and_busy(every_seat_answers: bool) -> tuple[Table, Table]:
    """Two tables after the dealer's 5p: at one nobody may claim it, at the other seat 3 may
    pung it. Seat 2 holds the same tiles at both and may claim nothing at either."""
    quiet = table(["5p", "", "", ""], every_seat_answers=every_seat_answers)
    busy = table(["5p", "", "", "55p"], every_seat_answers=every_seat_answers)
    for t in (quiet, busy):
        discard(t, 0, "5p")
    assert quiet.observation(2).hand == busy.observation(2).hand
    return quiet, busy


def test_fast_mode_opens_a_window_only_for_seats_that_may_claim() -> None:
    """``every_seat_answers=False`` is the documented fast mode for simulations: a window opens
    only when some seat may claim, so its phase is visible to the others (tables with people and
    the default keep every window open to all three seats; see the next test)."""
    quiet, busy = quiet_and_busy(every_seat_answers=False)
    assert quiet.observation(2).phase is Phase.TURN
    assert busy.observation(2).phase is Phase.CLAIM
    assert Table(RULES, 0).every_seat_answers  # the default reveals nothing


def test_with_every_seat_answering_a_window_reveals_nothing() -> None:
    quiet, busy = quiet_and_busy(every_seat_answers=True)
    assert quiet.observation(2) == busy.observation(2)
    assert quiet.observation(1) == busy.observation(1)
    assert sorted(quiet.to_act()) == sorted(busy.to_act()) == [1, 2, 3]
    assert quiet.legal_actions(3) == [Pass()] and set(busy.legal_actions(3)) == {Pung(), Pass()}
    # answering works as usual: passes, then the next player draws
    answer(quiet)
    assert quiet.phase is Phase.TURN and quiet.current == 1
    answer(busy, {3: Pung()})
    assert busy.current == 3


def test_with_every_seat_answering_an_added_kong_is_offered_to_all_three() -> None:
    t = table(["5p", "55p", "", ""], draws="E E E 5p", back="1s", every_seat_answers=True)
    discard(t, 0, "5p")
    answer(t, {1: Pung()})
    discard(t, 1, "S")
    discard_until_seat(t, 1)
    act(t, 1, AddedKong(tile("5p")))
    assert t.phase is Phase.ROB and sorted(t.to_act()) == [0, 2, 3]
    assert all(t.legal_actions(s) == [Pass()] for s in (0, 2, 3))
    answer(t)
    assert t.current == 1 and t.observation(1).drawn == tile("1s")


# --------------------------------------------------------------------------- illegal actions


def claim_window() -> Table:
    t = table(["5p", "46p", "", "55p"])
    discard(t, 0, "5p")
    return t


ILLEGAL_ON_TURN: list[tuple[int, Any]] = [
    (0, Discard(tile("9p"))),  # a tile not in hand
    (0, Pass()),  # nothing to pass on the own turn
    (0, Win()),  # no winning hand
    (0, ConcealedKong(tile("5p"))),
    (0, AddedKong(tile("5p"))),
    (0, Chow(tile("3p"))),
    (1, Discard(tile("S"))),  # not this seat's turn
    (4, Discard(tile("5p"))),  # no such seat
    (-1, Discard(tile("5p"))),
    (0, "discard 5p"),  # not an action at all
    (0, None),
]


@pytest.mark.parametrize(("seat", "action"), ILLEGAL_ON_TURN)
def test_illegal_action_on_a_turn_raises_and_changes_nothing(seat: int, action: Any) -> None:
    t = table(["5p", "46p", "", "55p"])
    before = snapshot(t)
    with pytest.raises(IllegalAction) as info:
        t.apply(seat, action)
    assert str(info.value)
    assert snapshot(t) == before


ILLEGAL_IN_CLAIM: list[tuple[int, Any]] = [
    (2, Chow(tile("4p"))),  # chow from the player opposite
    (3, Chow(tile("4p"))),  # chow from the right
    (1, Pung()),  # one 5p only
    (1, ExposedKong()),
    (3, ExposedKong()),  # two 5p only
    (1, Chow(tile("5p"))),  # 567p: no 6p 7p in hand
    (1, Win()),
    (2, Pass()),  # seat 2 has nothing to decide
    (0, Pass()),  # the discarder does not answer
    (0, Discard(tile("1m"))),
    (3, Discard(tile("5p"))),
]


@pytest.mark.parametrize(("seat", "action"), ILLEGAL_IN_CLAIM)
def test_illegal_claim_raises_and_changes_nothing(seat: int, action: Any) -> None:
    t = claim_window()
    before = snapshot(t)
    with pytest.raises(IllegalAction):
        t.apply(seat, action)
    assert snapshot(t) == before


def test_illegal_action_message_names_the_action_seat_and_reason() -> None:
    t = claim_window()
    with pytest.raises(IllegalAction, match=r"chow.*seat 2.*not this seat's decision"):
        t.apply(2, Chow(tile("4p")))
    with pytest.raises(IllegalAction, match=r"pung.*seat 1.*needs two copies"):
        t.apply(1, Pung())
    act(t, 1, Pass())
    with pytest.raises(IllegalAction, match="seat 1"):
        t.apply(1, Pass())  # an answer cannot be given twice


def test_no_action_after_the_hand_is_over() -> None:
    t = table(["1p", "", BIG, ""])
    discard(t, 0, "1p")
    answer(t, {2: Win()})
    before = snapshot(t)
    for seat in range(4):
        with pytest.raises(IllegalAction, match="over"):
            t.apply(seat, Discard(tile("1m")))
    assert snapshot(t) == before


@pytest.mark.parametrize(
    "action",
    [Discard(99), Discard("5m"), ConcealedKong(42), AddedKong(None)],  # type: ignore[arg-type]
)
def test_malformed_tile_in_an_action_raises_illegal_action(action: Action) -> None:
    t = table(["5p", "", "", ""])
    before = snapshot(t)
    with pytest.raises(IllegalAction):
        t.apply(0, action)
    assert snapshot(t) == before


# ---------------------------------------------------------------------- the spectator's view


_OWN_FIELDS = {"seat", "seat_wind", "hand", "drawn", "legal_actions", "may_win",
               "win_reaches_minimum"}
"""What only the seat itself may know."""


def _public_part(obs: Observation) -> PublicView:
    """A seat's observation with what only that seat may know removed."""
    fields = {name: getattr(obs, name) for name in Observation._fields if name not in _OWN_FIELDS}
    fields["melds"] = tuple(tuple(Meld(MeldKind.KONG, HIDDEN, 0) if m.is_concealed_kong else m
                                  for m in melds) for melds in obs.melds)
    return PublicView(**fields)


def test_the_public_view_has_every_public_field_of_an_observation_and_nothing_else() -> None:
    assert set(PublicView._fields) == set(Observation._fields) - _OWN_FIELDS


@pytest.mark.parametrize(("rules_name", "bot", "options"), [
    ("gb", "fan", {}),
    ("gb", "random", {"false_win": True}),
    ("huangyan", "wild", {}),
    ("huangyan", "random", {"throw_limit": 2}),
])
def test_the_spectator_sees_the_table_s_public_view(
    rules_name: str, bot: str, options: dict[str, Any]
) -> None:
    """At every step of a few hands the spectator's observation is each seat's with its own
    parts removed, and holds no concealed tile: no hand, no drawn tile, no legal action, every
    concealed kong face down."""
    from majiang.bots import make_bot
    from majiang.rules.registry import make_rules

    rules = make_rules(rules_name, options)
    kongs = steps = 0
    for seed in range(6):
        table = Table(rules, seed)
        agents = [make_bot(bot, seed * 4 + s) for s in range(4)]
        while True:
            seen = table.public_view()
            for seat in range(4):
                obs = table.observation(seat)
                assert seen == _public_part(obs) == public_part(obs), (seed, seat)
            for melds in seen.melds:
                for meld in melds:
                    if meld.is_concealed_kong:
                        assert meld.tile == HIDDEN
                        kongs += 1
            steps += 1
            if table.is_over:
                break
            seat = table.to_act()[0]
            table.apply(seat, agents[seat](table.observation(seat)))
    assert steps > 300
    if bot == "wild":  # it declares concealed kongs: the face-down check has met some
        assert kongs > 0
