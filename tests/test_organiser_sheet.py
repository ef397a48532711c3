"""The score sheet's rules: every hand paid as the rule set pays it, the deal moving as the
engine moves it, corrections and deletions recomputing everything after them, and bad entries
refused with a clear message (nothing recorded)."""

from __future__ import annotations

from typing import Any, cast

import pytest

from majiang import score
from majiang.errors import MajiangError
from majiang.organiser.entries import EntryError, parse_entry
from majiang.organiser.export import sheet_csv, sheet_json
from majiang.organiser.sheet import GameSettings, SheetState, compute, game_settings, rule_facts
from majiang.organiser.summary import history, summaries
from majiang.rules.base import CountedWins, WinCheck, WinSituation
from majiang.rules.guobiao.payments import false_win_deltas, seat_deltas
from majiang.rules.huangyan import score_huangyan, score_loser
from majiang.rules.registry import make_rules
from majiang.tiles import tile_from_name

NAMES = ["Ann", "Bob", "Cat", "Dan"]


def gb(**settings: Any) -> GameSettings:
    return game_settings("gb", NAMES, **settings)


def hy(**settings: Any) -> GameSettings:
    return game_settings("huangyan", NAMES, **settings)


def run(settings: GameSettings, *entries: dict[str, Any]) -> SheetState:
    return compute(settings, [parse_entry(e) for e in entries])


def win(winner: int, discarder: int | None, **how: Any) -> dict[str, Any]:
    return {"kind": "win", "winner": winner, "discarder": discarder, **how}


# ---------------------------------------------------------------------------- Guobiao payments


def test_a_discard_win_counted_by_points_pays_the_seed_formula() -> None:
    state = run(gb(), win(0, 2, points=10))
    assert state.lines[0].deltas == seat_deltas(0, 2, 10) == (34, -8, -18, -8)
    assert state.totals == (34, -8, -18, -8)


def test_a_self_drawn_win_with_flowers_and_a_stake() -> None:
    state = run(gb(stake=2), win(3, None, points=8, flowers=2))
    # F = 8 + 2 flowers; each loser pays (8 + 10) x 2
    assert state.lines[0].points == 10
    assert state.lines[0].deltas == (-36, -36, -36, 108)


def test_tiles_are_scored_by_the_scorer_with_the_seat_and_prevalent_winds() -> None:
    # hand 2: Bob (seat 1) deals, so he is East; hand 6: Bob deals in the South round
    hand = "[CCC,1][SSS,2]123m456m1m1m"
    state = run(gb(), {"kind": "draw"}, win(1, None, tiles=hand))
    expected = score(hand, self_drawn=True, seat_wind="E", prevalent_wind="E")
    assert state.lines[1].points == expected.total
    assert state.lines[1].deltas == seat_deltas(1, None, expected.total)
    assert [f["name"] for f in state.lines[1].detail["fans"]] == [fc.fan.zh for fc in
                                                                   expected.fans]
    later = run(gb(), *[{"kind": "draw"}] * 5, win(1, None, tiles=hand))
    south = score(hand, self_drawn=True, seat_wind="E", prevalent_wind="S")
    assert later.lines[5].hand.prevalent_wind == 1
    assert later.lines[5].points == south.total != expected.total


def test_situation_flags_reach_the_scorer() -> None:
    hand = "[EEE,1][SSSS,1]WWWNN55pN"
    plain = run(gb(), win(0, None, tiles=hand))
    last = run(gb(), win(0, None, tiles=hand, last_tile=True))
    expected = score(hand, self_drawn=True, seat_wind="E", last_tile=True)
    assert last.lines[0].points == expected.total != plain.lines[0].points
    assert "妙手回春" in [f["name"] for f in last.lines[0].detail["fans"]]


def test_fans_picked_from_the_list_add_their_points() -> None:
    state = run(gb(), win(3, 1, fans={"28": 1, "62": 1, "73": 2}))  # 16 + 2 + 1 x 2
    assert state.lines[0].points == 20
    assert [(f["name"], f["count"]) for f in state.lines[0].detail["fans"]] == [
        ("清龙", 1), ("门前清", 1), ("幺九刻", 2)]
    with pytest.raises(EntryError, match="no fan 99"):
        run(gb(), win(3, 1, fans={"99": 1}))


def test_the_fan_list_leaves_flowers_apart_and_follows_the_options() -> None:
    facts = rule_facts(make_rules("gb"))
    ids = [f["id"] for f in facts["fans"]]
    assert ids == list(range(1, 81)) and facts["flowers"] and not facts["false_wins"]
    mixed = rule_facts(make_rules("gb", {"mixed_kong_pair_5": True}))
    assert mixed["fans"][-1]["zh"] == "明暗杠"
    assert rule_facts(make_rules("huangyan"))["fans"] == []


# ---------------------------------------------------------------------------- the deal


def test_sixteen_hands_move_the_deal_and_the_prevalent_wind_as_the_seed_says() -> None:
    state = run(gb(), *[{"kind": "draw"}] * 15)
    assert [(x.hand.number, x.hand.dealer, x.hand.prevalent_wind) for x in state.lines] == [
        (k, (k - 1) % 4, (k - 1) // 4) for k in range(1, 16)]
    assert state.next_hand is not None and state.next_hand.number == 16
    done = run(gb(), *[{"kind": "draw"}] * 16)
    assert done.finished and done.next_hand is None
    with pytest.raises(EntryError, match="the game is over after 16 hands"):
        run(gb(), *[{"kind": "draw"}] * 17)


def test_the_first_dealer_and_a_shorter_game() -> None:
    state = run(gb(first_dealer=2, hands=4), {"kind": "draw"}, {"kind": "draw"})
    assert [x.hand.dealer for x in state.lines] == [2, 3]
    assert state.next_hand is not None and state.next_hand.dealer == 0
    assert state.seat_winds(state.next_hand) == [0, 1, 2, 3]


def test_huangyan_dealer_streaks_count_and_a_draw_passes_the_deal() -> None:
    losers = {"1": 0, "2": 0, "3": 0}
    state = run(hy(rounds=1), win(0, None, points=50, losers=losers),
                win(0, 1, points=30, losers=losers), {"kind": "draw"})
    assert [(x.hand.dealer, x.hand.dealer_count) for x in state.lines] == [(0, 1), (0, 2), (0, 3)]
    assert state.next_hand is not None
    assert (state.next_hand.dealer, state.next_hand.dealer_count) == (1, 1)


# ---------------------------------------------------------------------------- false wins


def test_under_eight_fans_is_refused_where_false_wins_are_not_played() -> None:
    with pytest.raises(EntryError, match="7 fans without flowers is under the 8-fan minimum: "
                       "not a win, and this game does not play false wins"):
        run(gb(), win(0, 2, points=7))
    with pytest.raises(EntryError, match="under the 8-fan minimum"):
        run(gb(), win(0, 2, tiles="12345m678p999s22p3m"))


def test_under_eight_fans_is_a_false_win_where_they_are_played_and_the_hand_goes_on() -> None:
    state = run(gb(options={"false_win": True}), win(0, 2, points=7), win(1, 0, points=8))
    first, second = state.lines
    assert first.kind == "false_win" and first.winner == 0 and not first.ends_hand
    assert "recorded as a false win" in first.message
    assert first.deltas == false_win_deltas(0) == (-30, 10, 10, 10)
    assert second.hand.number == 1 and second.kind == "win"
    assert state.totals == (-30 - 16, 10 + 32, 10 - 8, 10 - 8)
    assert state.hands_played == 1


def test_a_false_win_entry_needs_a_game_that_plays_them() -> None:
    with pytest.raises(EntryError, match="does not play false wins"):
        run(gb(), {"kind": "false_win", "seat": 1})
    state = run(gb(options={"false_win": True, "false_win_penalty": 5}),
                {"kind": "false_win", "seat": 1})
    assert state.lines[0].deltas == (5, -15, 5, 5)


# ---------------------------------------------------------------------------- bad input


def test_tiles_that_do_not_win_are_refused_with_the_scorers_reason() -> None:
    with pytest.raises(EntryError, match=r"hand 1: not a winning hand: .* forms none of the five"):
        run(gb(), win(0, 1, tiles="123m456p789s11sEE1p"))
    with pytest.raises(EntryError, match="unexpected character"):
        run(gb(), win(0, 1, tiles="123m456p789s11sEEX"))


@pytest.mark.parametrize("entry,message", [
    (win(1, 1, points=8), "seat 1 is entered twice: the winner cannot be the discarder"),
    ({**win(0, 1, points=50), "losers": {"0": 10}}, "seat 0 is entered twice: the winner is no "
                                                     "loser"),
    ({"kind": "draw", "throw": 1, "accepted": [1, 1]}, "a seat is entered twice"),
    ({"kind": "win", "winner": 4, "points": 8}, "winner must be a seat 0-3"),
    ({"kind": "win", "winner": 0}, "count the win one way"),
    ({"kind": "win", "winner": 0, "points": 8, "tiles": "x"}, "count the win one way"),
    ({"kind": "win", "winner": 0, "discarder": None, "points": 8, "gunner": True},
     "a self-drawn win has no gunner"),
    ({"kind": "lose"}, "kind must be one of"),
    ({"kind": "draw", "winner": 1}, "a draw has no winner"),
    ({"kind": "win", "winner": 0, "points": 8, "colour": 1}, "unknown field 'colour'"),
    ([1, 2], "an entry is a JSON object"),
])
def test_malformed_entries_say_what_is_wrong(entry: Any, message: str) -> None:
    with pytest.raises(EntryError, match=message):
        parse_entry(entry)


def test_a_name_entered_twice_is_refused() -> None:
    with pytest.raises(MajiangError, match="ann is entered twice: each seat needs its own name"):
        game_settings("gb", ["Ann", "Bob", "ann", "Dan"])
    with pytest.raises(MajiangError, match="four names"):
        game_settings("gb", ["Ann", "Bob"])
    with pytest.raises(MajiangError, match="unknown Guobiao option"):
        game_settings("gb", NAMES, options={"colour": True})


def test_rule_set_situations_are_checked() -> None:
    with pytest.raises(EntryError, match="last tile is no situation of these rules"):
        run(hy(), win(0, None, tiles="SS5s123m789m34p66p2p", wild="5s", last_tile=True,
                      losers={"1": 0, "2": 0, "3": 0}))
    with pytest.raises(EntryError, match="these rules play no flowers"):
        run(hy(), win(0, None, points=50, flowers=1, losers={"1": 0, "2": 0, "3": 0}))
    with pytest.raises(EntryError, match="turns up no wild indicator"):
        run(gb(), win(0, None, points=8, wild="5s"))
    with pytest.raises(EntryError, match="only the winner's hand is counted"):
        run(gb(), win(0, 1, points=8, losers={"2": 10}))
    with pytest.raises(EntryError, match="no gunner"):
        run(gb(), win(0, 1, points=8, gunner=True))
    with pytest.raises(EntryError, match="situation flags change the count of written tiles"):
        run(gb(), win(0, 1, points=8, kong=True))


# ---------------------------------------------------------------------------- Huangyan


def test_huangyan_written_tiles_with_the_wild_and_each_losers_count() -> None:
    # seat 1 is South in hand 1 (seat 0 deals): the README's hand, 80
    loser = "123m456p789s11sEE"  # seat 3 (North): EE is no scoring pair for him
    state = run(hy(), win(1, None, tiles="SS5s123m789m34p66p2p", wild="5s",
                          losers={"0": 20, "2": 0, "3": loser}))
    line = state.lines[0]
    assert line.points == score_huangyan("SS5s123m789m34p66p2p", wild="5s", seat_wind="S",
                                         self_drawn=True).total == 80
    north = score_loser(loser, "5s", seat_wind="N").total
    assert line.detail["losers"] == {"0": 20, "2": 0, "3": north}
    assert sum(line.deltas) == 0 and line.deltas[1] == 240
    assert line.bullets == (-4, 12, -4, -4)  # B 2 x n 1 x self-drawn 2 from each


def test_huangyan_example_12_the_gunner_pays_everything() -> None:
    # rules/huangyan.md example 12: W wins on N's raw discard; E 40, S 20, N (gunner) 20 -> 0
    state = run(hy(), win(2, 3, points=120, losers={"0": 40, "1": 20, "3": 20}, gunner=True))
    assert state.lines[0].deltas == (60, 20, 360, -440)
    assert state.lines[0].bullets == (0, 0, 6, -6)
    plain = run(hy(), win(2, 3, points=120, losers={"0": 40, "1": 20, "3": 20}))
    assert plain.lines[0].deltas == (-80, -140, 360, -140)


def test_huangyan_example_11_thrown_bullets_stay_with_the_dealership() -> None:
    none = {"1": 0, "2": 0, "3": 0}
    state = run(
        hy(),
        win(0, None, points=50, losers=none, throw=1, accepted=[1, 2]),
        win(0, None, points=50, losers=none, throw=2, accepted=[1]),
        win(0, None, points=50, losers=none),
        win(1, 3, points=50, losers={"0": 0, "2": 0, "3": 0}),
        {"kind": "draw"},
    )
    third, fourth, fifth = state.lines[2:]
    assert third.hand.dealer_count == 3 and third.thrown == (0, 3, 1, 0)
    assert third.bullets == (44, -18, -14, -12)  # the spec's 11a
    assert fourth.bullets == (-11, 27, -8, -8)  # 11b, reading (a)
    assert fifth.hand.dealer == 1 and fifth.thrown == (0, 0, 0, 0)


def test_thrown_bullets_are_checked() -> None:
    with pytest.raises(EntryError, match="this game has no thrown bullets"):
        run(gb(), {"kind": "draw", "throw": 1, "accepted": [1]})
    with pytest.raises(EntryError, match=r"the dealer, seat 0 .*cannot accept"):
        run(hy(), {"kind": "draw", "throw": 1, "accepted": [0]})
    with pytest.raises(EntryError, match="at most 5 bullets"):
        run(hy(), {"kind": "draw", "throw": 6, "accepted": [1]})


def test_huangyan_counts_are_checked() -> None:
    with pytest.raises(EntryError, match=r"give each loser's own count .missing: seat 3"):
        run(hy(), win(0, None, points=50, losers={"1": 0, "2": 0}))
    with pytest.raises(EntryError, match="rounded up to a multiple of 10"):
        run(hy(), win(0, None, points=55, losers={"1": 0, "2": 0, "3": 0}))
    with pytest.raises(EntryError, match="at most the limit"):
        run(hy(), win(0, None, points=310, losers={"1": 0, "2": 0, "3": 0}))
    with pytest.raises(EntryError, match="give this hand's wild"):
        run(hy(), win(0, None, tiles="SS5s123m789m34p66p2p", losers={"1": 0, "2": 0, "3": 0}))
    with pytest.raises(EntryError, match="is dead and cannot be won on"):
        run(hy(), win(0, 1, tiles="SS123m789m34p66p2p5s", wild="5s",
                      losers={"1": 0, "2": 0, "3": 0}))


# ---------------------------------------------------------------------------- corrections


def test_a_correction_recomputes_every_later_total() -> None:
    entries = [win(0, 2, points=10), win(1, 0, points=8), {"kind": "draw"}]
    before = run(gb(), *entries)
    entries[0] = win(0, 2, points=20)
    after = run(gb(), *entries)
    assert before.totals == (34 - 16, -8 + 32, -18 - 8, -8 - 8)
    assert after.totals == (44 - 16, -8 + 32, -28 - 8, -8 - 8)
    assert [x.totals for x in after.lines][1:] != [x.totals for x in before.lines][1:]


def test_a_correction_that_makes_a_later_entry_impossible_is_refused() -> None:
    # hand 2 throws bullets accepted by seat 1; a correction making seat 1 the dealer then
    # (he, not seat 0, wins hand 1) leaves the second entry impossible
    none = {"1": 0, "2": 0, "3": 0}
    entries = [win(0, None, points=50, losers=none),
               {"kind": "draw", "throw": 1, "accepted": [1]}]
    assert run(hy(), *entries).lines[1].hand.dealer == 0
    entries[0] = win(1, None, points=50, losers={"0": 0, "2": 0, "3": 0})
    with pytest.raises(EntryError, match=r"hand 2: the dealer, seat 1 .*cannot accept") as error:
        run(hy(), *entries)
    assert error.value.index == 1


def test_deleting_an_entry_moves_every_later_hand() -> None:
    state = run(gb(), {"kind": "draw"}, win(2, None, points=8))
    assert state.lines[1].hand.number == 2
    shorter = run(gb(), win(2, None, points=8))
    assert shorter.lines[0].hand.number == 1 and shorter.lines[0].hand.dealer == 0


# ---------------------------------------------------------------------------- summaries, export


def _game() -> SheetState:
    return run(gb(options={"false_win": True}), win(0, 2, points=10), win(1, None, points=16),
               {"kind": "draw"}, win(0, 1, points=24), {"kind": "false_win", "seat": 3})


def test_summaries_count_wins_self_draws_deal_ins_and_mean_points() -> None:
    ann, bob, cat, dan = summaries(_game())
    assert (ann.wins, ann.self_drawn, ann.mean_points, ann.deal_ins) == (2, 0, 17.0, 0)
    assert (bob.wins, bob.self_drawn, bob.deal_ins) == (1, 1, 1)
    assert (cat.deal_ins, cat.mean_points) == (1, None)
    assert dan.false_wins == 1 and ann.hands == 4
    assert sum(s.total for s in (ann, bob, cat, dan)) == 0
    assert list(cat.to_json().items()) == [
        ("seat", 2), ("name", cat.name), ("hands", 4), ("wins", 0), ("self_drawn", 0),
        ("deal_ins", 1), ("false_wins", 0), ("mean_points", None), ("total", cat.total),
        ("bullets", cat.bullets),
    ]


def test_history_filters() -> None:
    lines = _game().lines
    assert [x.index for x in history(lines, "win")] == [0, 1, 3]
    assert [x.index for x in history(lines, "self_drawn")] == [1]
    assert [x.index for x in history(lines, "deal_in", 1)] == [3]
    assert [x.index for x in history(lines, "draw")] == [2]
    assert [x.index for x in history(lines, "false_win")] == [4]
    assert [x.index for x in history(lines, None, 2)] == [0]
    with pytest.raises(MajiangError, match="filter by one of"):
        history(lines, "lost")


def test_csv_and_json_exports() -> None:
    state = _game()
    rows = sheet_csv(state).splitlines()
    assert rows[0].startswith("entry,hand,prevalent,dealer,result,winner,discarder,points")
    assert rows[0].endswith("Ann total,Bob total,Cat total,Dan total")
    assert rows[1].split(",")[:8] == ["1", "1", "E", "Ann", "win", "Ann", "Cat", "10"]
    assert rows[2].split(",")[6] == "self-drawn"
    assert rows[-1].split(",")[-4:] == [str(t) for t in state.totals]
    entries = [parse_entry(e) for e in (win(0, 2, points=10),)]
    document = sheet_json(compute(gb(), entries), entries, "ABC234")
    assert document["entries"] == [{"kind": "win", "winner": 0, "discarder": 2, "points": 10}]
    assert [parse_entry(e) for e in document["entries"]] == entries


# ---------------------------------------------------------------------------- the rule-set hooks


def test_guobiao_counted_wins() -> None:
    rules = cast(CountedWins, make_rules("gb"))
    assert rules.check_counted(8, 1) == WinCheck(True, 9, {"fans": [], "total": 9, "flowers": 1})
    under = rules.check_counted(7, 3)
    assert not under.legal and under.detail["reason"] == ("7 fans without flowers is under the "
                                                           "8-fan minimum")
    with pytest.raises(MajiangError, match="flowers must be a whole number from 0 to 8"):
        rules.check_counted(8, 9)
    settled = rules.settle_counted(WinCheck(True, 12), WinSituation(2, None, 0, 1, 3))
    assert settled.deltas == seat_deltas(2, None, 12, 3)


def test_huangyan_counted_wins_bind_the_wild_face() -> None:
    rules = make_rules("huangyan")
    with pytest.raises(MajiangError, match="need the wild face"):
        cast(CountedWins, rules).count_loser("123m456p789s11sEE", 0)
    bound = cast(CountedWins, rules.begin_hand([tile_from_name("5s")]))
    assert bound.count_loser("111m456p789s11sEE", 0) == score_loser("111m456p789s11sEE", "5s",
                                                                    seat_wind="E").total
