"""Huangyan scoring rules (rules/huangyan.md §4-5), options (§0.4), the 得, notation, settlement.

Besides one test per rule and per option, an independent brute-force scorer written literally
from the spec (``oracle_raw``: every assignment of the 得, a naive recursive split, every place
for the winning tile) is compared with the real one on random hands, and hypothesis checks that
settlements are zero-sum, totals are capped multiples of ten, and a 得 is worth exactly the best
natural tile it could be, adjusted by the documented fans (无得 lost, 得还原 gained).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations_with_replacement

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from majiang.errors import (
    InvalidHandError,
    MajiangError,
    NotationError,
    NotWinningError,
    OptionError,
    SituationError,
)
from majiang.hand import CONCEALED_KONG, Hand, Meld, MeldKind, WinContext
from majiang.notation import parse_tiles
from majiang.rules.huangyan import (
    DEFAULT_OPTIONS,
    Dealership,
    HuangyanOptions,
    Wild,
    check_win,
    format_huangyan_hand,
    is_gunner,
    is_winning_shape,
    may_draw,
    may_kong,
    parse_face,
    parse_huangyan_hand,
    parse_reading,
    score_huangyan,
    score_loser,
    score_winner,
    settle_draw,
    settle_hand,
    settle_win,
)
from majiang.rules.huangyan.notation import check_tiles
from majiang.rules.huangyan.scoring import round_up_10
from majiang.shapes import regular_readings
from majiang.tiles import DRAGONS, TERMINALS, WHITE, WINDS

E, S, W, N = 0, 1, 2, 3


def hu_items(score: object) -> Counter[tuple[str, int]]:
    return Counter((i.zh, i.hu) for i in score.items)  # type: ignore[attr-defined]


def fan_items(score: object) -> dict[str, int]:
    return {f.zh: f.fan for f in score.fans}  # type: ignore[attr-defined]


# =========================================================================== options (§0.4)


def test_defaults_are_the_spec_recommendations() -> None:
    o = HuangyanOptions()
    assert (o.base_reward, o.limit, o.bullets, o.dealer_count_scope) == (20, 300, 2, "every")
    assert (o.edge_wait_bonus, o.single_wait_bonus, o.all_pungs_bonus, o.kong_bloom_bonus) == (
        0, 0, 0, 0,
    )
    assert (o.restored_fan_per_hand, o.full_flush_fan, o.no_wild_fan) == (False, 3, 1)
    assert (o.discard_pung_concealed, o.live_dragon_face) == (False, False)
    assert (o.rob_kong, o.skipped_win_restriction, o.gunner_test) == (True, False, "P1")
    assert o.throw_limit == 5
    assert (o.wild_self_draw_only, o.draw_reserve, o.raw_phase_tiles) == (False, 14, 30)
    assert HuangyanOptions.from_mapping(None) is DEFAULT_OPTIONS
    assert len(HuangyanOptions.names()) == 20
    assert HuangyanOptions.from_mapping(o.to_dict()) == o


def test_from_mapping_accepts_strings() -> None:
    o = HuangyanOptions.from_mapping(
        {"limit": "100", "rob_kong": "off", "gunner_test": "p2", "dealer_count_scope": "DEALER",
         "live_dragon_face": "on", "bullets": 5}
    )
    assert (o.limit, o.rob_kong, o.gunner_test) == (100, False, "P2")
    assert o.dealer_count_scope == "dealer"
    assert o.live_dragon_face and o.bullets == 5


@pytest.mark.parametrize(
    "values",
    [
        {"no_such_option": 1},
        {"limit": -1},
        {"limit": "lots"},
        {"limit": True},
        {"rob_kong": "maybe"},
        {"rob_kong": 1},
        {"gunner_test": "P4"},
        {"dealer_count_scope": "sometimes"},
        {"full_flush_fan": 2.5},
    ],
)
def test_bad_options_raise_option_error(values: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        HuangyanOptions.from_mapping(values)


def test_direct_construction_is_checked_too() -> None:
    with pytest.raises(OptionError):
        HuangyanOptions(gunner_test="P9")
    with pytest.raises(OptionError):
        HuangyanOptions(base_reward=-10)
    with pytest.raises(OptionError):
        score_huangyan("123m456p789p234s8m8m", wild="5s", options=[1])  # type: ignore[arg-type]


EX1 = "123m456p789p234s8m8m"  # Example 1's winner: hu 0, no 得


def test_option_base_reward() -> None:
    assert score_huangyan(EX1, wild="5s").total == 40
    assert score_huangyan(EX1, wild="5s", options={"base_reward": 10}).total == 20


def test_option_limit_for_winner_and_loser() -> None:
    ex3 = "[FFF][WWW]13p567p9p8m2p"
    assert score_huangyan(ex3, wild="8m", seat_wind="W").total == 280
    capped = score_huangyan(ex3, wild="8m", seat_wind="W", options={"limit": 100})
    assert capped.total == 100 and capped.limit
    unlimited = score_huangyan("111s234s567s7s9s99s8s", wild="N", seat_wind="S",
                               self_drawn=True, options={"limit": 0})
    assert (unlimited.raw, unlimited.total, unlimited.limit) == (512, 520, False)
    loser = "[FFFF]234p66m9m1s5m3sE"  # Example 1's N: 70
    assert score_loser(loser, "5s", seat_wind="N").total == 70
    assert score_loser(loser, "5s", seat_wind="N", options=HuangyanOptions(limit=50)).total == 50


def test_option_bullets() -> None:
    for b in (0, 5):
        s = settle_hand(0, 40, {1: 0, 2: 0, 3: 0}, dealer=0, self_drawn=True,
                        options=HuangyanOptions(bullets=b))
        assert s.bullets == (6 * b, -2 * b, -2 * b, -2 * b)


def test_option_dealer_count_scope_when_the_dealer_wins() -> None:
    for scope in ("every", "dealer", "dealer_wins"):
        s = settle_hand(0, 40, {1: 0, 2: 0, 3: 0}, dealer=0, self_drawn=False, dealer_count=3,
                        options=HuangyanOptions(dealer_count_scope=scope))
        assert s.bullets == (18, -6, -6, -6)
    # a non-dealer's win where the dealer is not involved: only 'every' multiplies W's payment
    for scope, paid in (("every", 6), ("dealer", 2), ("dealer_wins", 2)):
        s = settle_hand(1, 40, {0: 0, 2: 0, 3: 0}, dealer=0, self_drawn=False, dealer_count=3,
                        options=HuangyanOptions(dealer_count_scope=scope))
        assert s.paid(2, 1, "bullets") == paid


def test_option_edge_wait() -> None:
    on = {"edge_wait_bonus": 2}
    # 7 completing 789 and 3 completing 123 are edges; 3 completing 345 is not
    assert score_huangyan("[WWW]123p456p89s55m7s", wild="9p", seat_wind="W", options=on).hu == 10
    assert score_huangyan("[WWW]12p789p456s55m3p", wild="9m", seat_wind="W", options=on).hu == 10
    assert score_huangyan("[WWW]45p789p456s55m3p", wild="9m", seat_wind="W", options=on).hu == 8
    assert score_huangyan("[WWW]12p789p456s55m3p", wild="9m", seat_wind="W").hu == 8


def test_option_single_wait() -> None:
    hand = "[WWW]123p789p456s5m5m"
    assert score_huangyan(hand, wild="9m", seat_wind="W").hu == 8
    assert score_huangyan(hand, wild="9m", seat_wind="W",
                          options={"single_wait_bonus": 2}).hu == 10


def test_option_all_pungs() -> None:
    hand = "[WWW]222p888p55m66s6s"
    base = score_huangyan(hand, wild="9m", seat_wind="W")
    bonus = score_huangyan(hand, wild="9m", seat_wind="W", options={"all_pungs_bonus": 4})
    assert bonus.hu == base.hu + 4 and ("对对和", 4) in hu_items(bonus)
    # a chow anywhere (declared or concealed) means no 对对和
    chow = score_huangyan("[123m]222p888p55m66s6s", wild="9m", options={"all_pungs_bonus": 4})
    assert ("对对和", 4) not in hu_items(chow)


def test_option_kong_bloom() -> None:
    hand = "[WWWW]123p789p456s5m5m"
    on = {"kong_bloom_bonus": 4}
    drawn = score_huangyan(hand, wild="9m", seat_wind="W", self_drawn=True, kong=True,
                           options=on)
    assert ("杠上花", 4) in hu_items(drawn)
    plain = score_huangyan(hand, wild="9m", seat_wind="W", self_drawn=True, kong=True)
    assert drawn.hu == plain.hu + 4
    robbed = score_huangyan(hand, wild="9m", seat_wind="W", kong=True, options=on)
    assert ("杠上花", 4) not in hu_items(robbed)


def test_option_restored_fan_per_hand() -> None:
    # F = 6m; 78m + 6m* and P + 6m* (drawn): both 得 restored, hu 2 (self-draw)
    hand = "123m456p789s78mP6m6m"
    per_tile = score_huangyan(hand, wild="6m", self_drawn=True)
    assert (per_tile.raw, fan_items(per_tile)) == ((2 + 20) * 4, {"得还原": 2})
    per_hand = score_huangyan(hand, wild="6m", self_drawn=True,
                              options={"restored_fan_per_hand": True})
    assert (per_hand.raw, fan_items(per_hand)) == ((2 + 20) * 2, {"得还原": 1})


def test_option_flush_and_no_wild_fans() -> None:
    hand = "111s234s567s7s9s99s8s"
    two = score_huangyan(hand, wild="N", seat_wind="S", self_drawn=True,
                         options={"full_flush_fan": 2, "no_wild_fan": 2, "limit": 0})
    assert fan_items(two) == {"清一色": 2, "无得": 2} and two.raw == 32 * 16
    assert score_huangyan(EX1, wild="5s", options={"no_wild_fan": 2}).total == 80


def test_option_discard_pung_concealed() -> None:
    hand = "[CCC]11sNN999m567s1s"
    assert score_huangyan(hand, wild="4m", seat_wind="N").hu == 18
    assert score_huangyan(hand, wild="4m", seat_wind="N",
                          options={"discard_pung_concealed": True}).hu == 22


def test_option_live_dragon_face_for_losers() -> None:
    # F = C: the white dragons are dead red dragons; a pair of them scores nothing ...
    assert score_loser("PP123m456p789s1mE", "C", seat_wind="S").hu == 0
    live = HuangyanOptions(live_dragon_face=True)
    # ... unless the face is live: then a dragon pair 2, and a pung 8 with a fan
    assert score_loser("PP123m456p789s1mE", "C", seat_wind="S", options=live).hu == 2
    pung = score_loser("PPP23m456p789s1mE", "C", seat_wind="S", options=live)
    assert (pung.hu, pung.fan, pung.total) == (8, 1, 20)


def test_option_rob_kong() -> None:
    hand = parse_huangyan_hand("[WWW]123p789p456s5m5m", "9m")
    ctx = WinContext(self_drawn=False, seat_wind=W, kong=True)
    assert check_win(hand, ctx, "9m") is not None
    off = HuangyanOptions(rob_kong=False)
    assert check_win(hand, ctx, "9m", off) is None
    with pytest.raises(SituationError):
        score_winner(hand, "9m", seat_wind=W, kong=True, options=off)


def test_engine_only_options_do_not_change_a_score() -> None:
    for values in ({"skipped_win_restriction": True}, {"gunner_test": "P3"}):
        assert score_huangyan(EX1, wild="5s", options=values).total == 40


@pytest.mark.parametrize(
    ("test", "tile_raw", "all_raw", "could_be_ready", "ready", "expected"),
    [
        ("P1", True, False, False, False, True),
        ("P1", True, True, True, False, True),   # all raw but could have been ready
        ("P1", True, True, False, False, False),  # excused
        ("P1", False, False, True, True, False),  # a known tile is never a gun under P1
        ("P2", True, False, True, True, False),   # a ready discarder is never punished
        ("P2", True, True, False, False, True),
        ("P2", False, False, False, False, False),
        ("P3", False, False, True, False, True),  # any tile
        ("P3", False, True, False, False, False),
    ],
)
def test_gunner_tests(
    test: str, tile_raw: bool, all_raw: bool, could_be_ready: bool, ready: bool, expected: bool
) -> None:
    assert is_gunner(test, raw_phase=True, tile_raw=tile_raw, all_raw=all_raw,
                     could_be_ready=could_be_ready, ready=ready) is expected
    assert not is_gunner(test, raw_phase=False, tile_raw=tile_raw, all_raw=all_raw,
                         could_be_ready=could_be_ready, ready=ready)


def test_gunner_test_name_checked() -> None:
    with pytest.raises(OptionError):
        is_gunner("P0", raw_phase=True, tile_raw=True, all_raw=True, could_be_ready=True,
                  ready=True)


def test_wall_thresholds() -> None:
    assert may_draw(15, 0) and not may_draw(14, 0) and not may_draw(15, 1)
    assert may_kong(16, 0) and not may_kong(15, 0)  # the replacement needs R - 1 >= T(1) = 15


# =========================================================================== hu table (§4.2)

# One group X varied inside "X 23m 456m 789m 55p" + win 1m on a discard (no wait bonus, no flush,
# no 得: +1 fan). Seat E unless said.
_GROUPS = [
    # (group, seat, hu, extra fans)
    ("[EEE]", E, 8, 1), ("[EEE]", S, 4, 0), ("[999s]", E, 4, 0), ("[555s]", E, 2, 0),
    ("EEE", E, 16, 1), ("EEE", S, 8, 0), ("999s", E, 8, 0), ("555s", E, 4, 0),
    ("[EEEE,1]", E, 32, 1), ("[EEEE,2]", S, 16, 0), ("[9999s,3]", E, 16, 0),
    ("[5555s,5]", E, 8, 0),
    ("[EEEE]", E, 64, 1), ("[EEEE]", S, 32, 0), ("[9999s]", E, 32, 0), ("[5555s]", E, 16, 0),
    ("[CCC]", E, 4, 1), ("FFF", E, 8, 1), ("[CCCC]", E, 32, 1),
    ("[PPPP,1]", E, 8, 0),  # F = 3p: an exposed kong of stand-ins is a soft 3p kong
]


@pytest.mark.parametrize(("group", "seat", "hu", "fans"), _GROUPS)
def test_winner_group_values(group: str, seat: int, hu: int, fans: int) -> None:
    score = score_huangyan(f"{group}23m456m789m55p1m", wild="3p", seat_wind=seat)
    assert (score.hu, score.fan) == (hu, 1 + fans), score.explain()


@pytest.mark.parametrize(
    ("pair", "seat", "hu"),
    [("EE", E, 2), ("EE", S, 0), ("CC", E, 2), ("FF", E, 2), ("99p", E, 0), ("55p", E, 0),
     ("PP", E, 0)],  # F = 3p: PP is a pair of 3p
)
def test_winner_pair_values(pair: str, seat: int, hu: int) -> None:
    score = score_huangyan(f"111s23m456m789m{pair}1m", wild="3p", seat_wind=seat)
    assert score.hu == 8 + hu, score.explain()  # 111s concealed 8 + the pair


def test_stand_in_plays_as_the_wild_face() -> None:
    # F = 3p: [PPPP] is a kong of 3p (soft), no dragon fan; PP pairs are pairs of 3p.
    score = score_huangyan("[PPPP]23m456m789m55p1m", wild="3p")
    assert (score.hu, score.fan) == (16, 1)
    # and a stand-in completes a chow: 12p + P = 123p when F = 3p
    chow = score_huangyan("[EEE]12pP456m789m5p5p", wild="3p", seat_wind=S)
    assert chow.hu == 4 and "12pP" in chow.reading


def test_wind_wild_face_keeps_its_credit() -> None:
    # F = N, seat N: PPP is a concealed pung of the seat wind, 16 + 1 fan
    score = score_huangyan("PPP23m456m789m55p1m", wild="N", seat_wind="N")
    assert (score.hu, score.fan) == (16, 2)


def test_dead_face_pair_pung_and_flush() -> None:
    # F = P (翻白): no stand-in; F = C: stand-ins are dead red dragons
    dead = score_huangyan("PPP123s456s789s5s5s", wild="C", self_drawn=True)
    assert ("暗刻", 4) in hu_items(dead) and dead.hu == 4 + 2 + 2  # pung, self-draw, 嵌
    assert fan_items(dead) == {"清一色": 3, "无得": 1}  # the dead face is ignored in the flush
    pair = score_huangyan("111s234s456s789sPP", wild="F", seat_wind=S)
    assert ("对子", 0) in hu_items(pair) and "混一色" not in fan_items(pair)
    assert "清一色" in fan_items(pair)


def test_honours_only_hand_has_no_flush() -> None:
    score = score_huangyan("[EEE][SSS]WWWNNCCN", wild="9m", seat_wind=S)
    assert "混一色" not in fan_items(score) and "清一色" not in fan_items(score)


def test_half_flush_needs_an_honour_full_flush_none() -> None:
    half = score_huangyan("[EEE]123s456s789s5s5s", wild="9m", seat_wind=S)
    assert fan_items(half) == {"混一色": 1, "无得": 1}
    full = score_huangyan("[111s]123s456s789s5s5s", wild="9m")
    assert fan_items(full) == {"清一色": 3, "无得": 1}


def test_wild_face_ignored_in_flush_its_identity_counts() -> None:
    # F = E: a 得 used as 5s keeps a bamboo hand full flush
    score = score_huangyan("111s234s678s99s5sE4s", wild="E", self_drawn=True)
    assert "清一色" in fan_items(score) and "无得" not in fan_items(score)


@pytest.mark.parametrize(
    ("hand", "seat", "total"),
    [("123456789p111p5m5m", "E", 260), ("55m23333444457p6p", "W", 280)],
)
def test_a_pair_of_two_wild_de_keeps_the_flush_and_its_honour_credit(
    hand: str, seat: str, total: int
) -> None:
    """§4.3 ignores wild 得 in the flush tests, §4.1 gives honour credit by the group's
    identity: a pair of two wild 得 is the seat-wind pair (2 hu) of a 清一色 hand."""
    score = score_huangyan(hand, wild="5m", seat_wind=seat, self_drawn=True)
    assert score.total == total
    assert fan_items(score) == {"清一色": 3}
    assert ("门风对子", 2) in hu_items(score)


def test_a_restored_de_counts_as_its_face_in_the_flush_tests() -> None:
    """Only a *wild* 得 is ignored: two 得 restored as 5m make a dots hand two-suited, so the
    restored reading ((10 + 20) × 2^2 = 120, no flush) loses to the wild seat-wind pair (256);
    were the restored pair ignored too it would be (10 + 20) × 2^5 = 960."""
    score = score_huangyan("123456789p111p5m5m", wild="5m", self_drawn=True,
                           options={"limit": 0})
    assert (score.raw, score.restored) == (256, 0)


def test_wild_de_alone_make_no_suit_for_a_flush() -> None:
    """Honours and a pair of wild 得: the 得 standing for a suited tile is ignored, so no reading
    is a half flush (the best is the restored dead face, then the seat-wind pair, 104; a 得 pair
    as 1m is (30 + 20) × 2 = 100, not 200)."""
    score = score_huangyan("[EEE][SSS]WWWNNNCC", wild="C", seat_wind="S", self_drawn=True,
                           explain=True)
    assert score.raw == 400 and "混一色" not in fan_items(score)
    assert max(alt.raw for alt in score.alternatives) == 104
    assert all(alt.raw == 100 for alt in score.alternatives if "as 1m" in alt.reading)


def _one_suit_set_counts() -> list[tuple[int, ...]]:
    """Every way to hold four sets of one suit (9-slot counts, at most four of a rank)."""
    sets = [(0, r) for r in range(7)] + [(1, r) for r in range(9)]
    found = set()
    for combo in combinations_with_replacement(sets, 4):
        counts = [0] * 9
        for chow, r in combo:
            for x in ((r, r + 1, r + 2) if chow == 0 else (r, r, r)):
                counts[x] += 1
        if max(counts) <= 4:
            found.add(tuple(counts))
    return sorted(found)


def test_every_one_suit_hand_whose_pair_is_two_wild_de_scores_as_the_spec_says() -> None:
    """The family of the audit: four sets of bamboo and two wild 得 (every seventh of the 2,098
    shapes, 300 hands; the last bamboo tile self-drawn; the wild face and the seat vary; the whole
    family takes half a minute and agrees too), against the brute-force scorer
    written from the spec. Its 得 try the bamboo, ``F``, and one honour of each value class: a 得
    standing for anything else can only be half of a wild pair, and such a pair is worth what
    the seat wind's (2 hu), a live dragon's (2) or another wind's (0) is."""
    faces = [parse_face(f) for f in ("5m", "9p", "N", "C", "P")]
    shapes = _one_suit_set_counts()
    assert len(shapes) == 2098
    for index, counts in enumerate(shapes[::7]):
        face = faces[index % len(faces)]
        seat = index % 4
        tiles = [9 + r for r in range(9) for _ in range(counts[r])]
        win = tiles.pop()
        hand = Hand.of((), [*tiles, face, face], win)
        wild = Wild(face)
        other_wind = next(t for t in WINDS if t not in (WINDS[seat], face))
        live_dragon = next(t for t in DRAGONS if t != face)
        alphabet = sorted({*range(9, 18), WINDS[seat], other_wind, live_dragon, face})
        score = score_winner(hand, wild, seat_wind=seat, self_drawn=True)
        expected = oracle_raw(hand, wild, seat, True, identities=alphabet)
        assert score.raw == expected, (format_huangyan_hand(hand, wild), seat)


def test_closed_wait_needs_the_natural_winning_tile_in_the_middle() -> None:
    # the winning tile is a 得 used as a wild 2m: no 嵌
    wild = score_huangyan("13m456m789m555p99s9p", wild="9p", self_drawn=True)
    assert ("嵌档", 2) not in hu_items(wild) and wild.hu == 4 + 2
    # the winning tile is a 得 restored as 2m in the middle: 嵌 counts, plus the restored fan
    restored = score_huangyan("13m456m789m555p99s2m", wild="2m", self_drawn=True)
    assert ("嵌档", 2) in hu_items(restored) and restored.hu == 4 + 2 + 2
    assert fan_items(restored) == {"得还原": 1}
    # a natural winning tile in the middle of 13m
    assert ("嵌档", 2) in hu_items(score_huangyan("13m456m789m555p99s2m", wild="9p"))


def test_winner_chooses_where_the_winning_tile_goes() -> None:
    # 5s completes 456s (嵌 2) or the 55s pair: the 嵌 reading counts
    score = score_huangyan("4s6s5s5s123m456m789m5s", wild="9p")
    assert ("嵌档", 2) in hu_items(score)


def test_undeclared_four_tiles_are_a_pung_plus_a_tile_elsewhere() -> None:
    score = score_huangyan("1111m23m456p789p5s5s", wild="9s")
    assert ("暗刻", 8) in hu_items(score)


def test_exposed_pung_with_the_fourth_tile_in_hand() -> None:
    score = score_huangyan("[111m]1m23m456p789p5s5s", wild="9s")
    assert ("明刻", 4) in hu_items(score) and score.hu == 4


def test_a_discarded_wild_cannot_be_won_on() -> None:
    with pytest.raises(SituationError):
        score_huangyan("123m456p789s55sE E 9p", wild="9p")
    hand = parse_huangyan_hand("123m456p789sEE55s9p", "9p")
    assert check_win(hand, WinContext(self_drawn=False), "9p") is None
    drawn = check_win(hand, WinContext(self_drawn=True), "9p")
    assert drawn is not None and drawn.wilds == 1


def test_three_wilds_is_the_limit_and_reaches_300_without_one() -> None:
    hand = "123m456p78sEE5s9m9m9m"
    assert score_huangyan(hand, wild="9m", self_drawn=True).total == 300
    assert score_huangyan(hand, wild="9m", self_drawn=True, options={"limit": 100}).total == 100
    none = score_huangyan(hand, wild="9m", self_drawn=True, options={"limit": 0})
    assert none.three_wilds and none.total == max(300, round_up_10(none.raw))


def test_rounding() -> None:
    assert [round_up_10(v) for v in (0, 1, 132, 140, 272, 299, 301)] == [
        0, 10, 140, 140, 280, 300, 310,
    ]


def test_loser_table() -> None:
    # seat wind: hard values (no seat column) plus a fan; other winds hard, no fan
    assert score_loser("[EEE]123m456p789s1m", "9m", seat_wind="E").hu == 4
    own = score_loser("EEE123m456p789s1m", "9m", seat_wind="E")
    assert (own.hu, own.fan, own.total) == (8, 1, 20)
    other = score_loser("EEE123m456p789s1m", "9m", seat_wind="S")
    assert (other.hu, other.fan, other.total) == (8, 0, 10)
    # pairs: only the seat wind and live dragons; other winds and terminals 0
    assert score_loser("SS11m456p789s234m", "9p", seat_wind="S").hu == 2
    assert score_loser("WW11m456p789s234m", "9p", seat_wind="S").hu == 0
    assert score_loser("FF11m456p789s234m", "9p", seat_wind="S").hu == 2
    # kongs
    assert score_loser("[5555s,1]123m456p789p1s", "9m").hu == 8
    assert score_loser("[5555s]123m456p789p1s", "9m").hu == 16
    assert score_loser("[CCCC]123m456p789p1s", "9m").hu == 32
    ck = score_loser("[CCCC]123m456p789p1s", "9m")
    assert (ck.fan, ck.total) == (1, 70)


def test_loser_wild_is_only_its_face() -> None:
    # F = 5s: NN + 5s is not a pung; three 5s-faced tiles (stand-ins and 得) are a 5s pung
    assert score_loser("NN5s23s456p777sE9m", "5s", seat_wind="N").hu == 6
    assert score_loser("PP5s23s456p789sE9m", "5s", seat_wind="N").hu == 4
    # F = E for seat E: two stand-ins and a 得 of face E are three E: his seat-wind pung
    seat = score_loser("PPE23s456p789s19m", "E", seat_wind="E")
    assert (seat.hu, seat.fan) == (8, 1)


def test_loser_identity_held_five_times() -> None:
    # F = E: four stand-ins and a 得 are five E: one concealed pung and a seat-wind pair
    five = score_loser("PPPPE2s456p789s1m", "E", seat_wind="E")
    assert Counter((i.zh, i.hu) for i in five.items) == Counter(
        [("门风暗刻", 8), ("门风对子", 2)]
    )


# =========================================================================== the 得: cases


@pytest.mark.parametrize(
    ("hand", "wild", "seat", "drawn", "raw", "restored"),
    [
        # one 得: as the seat wind (16 + fan) beats restoring it in a chow
        ("SS 9p 123m 789m 34p 66p 2p", "9p", S, True, 76, 0),
        # one 得: restoring (a fan) beats a terminal pung (8 hu): Example 6
        ("[56pP,3]PP7p11m2s4s678m3s", "7p", E, True, 56, 1),
        # two 得: a concealed red-dragon pung (8 + fan) beats a dragon pair and a 1s pung
        ("123m 456p 789s C 6m 6m 1s 1s", "6m", E, False, (8 + 20) * 2, 0),
        # two 得 and one natural wind: a seat-wind concealed pung
        ("S 9p 9p 123m 456p 789s 5s 5s", "9p", S, False, (16 + 20) * 2, 0),
        # three 得: the limit whatever the reading; best ordinary reading reported
        ("123m 456p 789s 1s 7p7p7p 1s", "7p", E, False, (4 + 20) * 2**3, 3),
    ],
)
def test_best_reading_with_wilds(
    hand: str, wild: str, seat: int, drawn: bool, raw: int, restored: int
) -> None:
    score = score_huangyan(hand.replace(" ", ""), wild=wild, seat_wind=seat, self_drawn=drawn)
    assert (score.raw, score.restored) == (raw, restored), score.explain()
    assert score.raw == oracle_raw(parse_huangyan_hand(hand.replace(" ", ""), wild),
                                   Wild.of(wild), seat, drawn)


def test_every_single_wild_replacement_of_a_hand() -> None:
    """Each concealed tile of a winning hand replaced by a 得 in turn, F = 3 faces."""
    base = "[EEE]13m345p789s 99p 2m"
    for wild in ("5s", "C", "P"):
        hand = parse_huangyan_hand(base.replace(" ", ""), wild)
        for i in range(len(hand.concealed)):
            tiles = list(hand.concealed)
            tiles[i] = Wild.of(wild).face
            h = Hand.of(hand.melds, tiles, hand.win_tile)
            got = score_winner(h, wild, seat_wind=S).raw
            assert got == oracle_raw(h, Wild.of(wild), S, False), (wild, i)


def test_every_pair_of_wild_replacements() -> None:
    base = parse_huangyan_hand("13m345p789sFFF99p2m", "1s")
    for i in range(len(base.concealed)):
        for j in range(i + 1, len(base.concealed)):
            tiles = list(base.concealed)
            tiles[i] = tiles[j] = 9  # 1s
            h = Hand.of(base.melds, tiles, base.win_tile)
            assert score_winner(h, "1s", seat_wind=W).raw == oracle_raw(
                h, Wild.of("1s"), W, False
            ), (i, j)


def test_triples_of_wild_replacements_reach_the_limit() -> None:
    """Three 得 anywhere in the concealed part: always a win at the limit (A11); the best
    ordinary reading agrees with the oracle (every tenth triple; a 3-得 search is ~25 ms)."""
    from itertools import combinations

    base = parse_huangyan_hand("13m345p789sFFF99p2m", "1s")
    for n, trio in enumerate(combinations(range(len(base.concealed)), 3)):
        if n % 10:
            continue
        tiles = list(base.concealed)
        for i in trio:
            tiles[i] = 9  # 1s
        h = Hand.of(base.melds, tiles, base.win_tile)
        score = score_winner(h, "1s", seat_wind=N)
        assert score.three_wilds and score.total == 300
        if n % 90 == 0:
            assert score.raw == oracle_raw(h, Wild.of("1s"), N, False), trio


# =========================================================================== the oracle


def _ident(tile: int, face: int) -> int:
    return face if tile == WHITE and face != WHITE else tile


def _splits(ids: Counter[int], pair_done: bool) -> Iterator[list[tuple[str, int]]]:
    """Naive split of identity counts into ('pair'|'pung'|'chow', first identity) groups."""
    rest = sorted(t for t, n in ids.items() if n)
    if not rest:
        if pair_done:
            yield []
        return
    t = rest[0]
    if not pair_done and ids[t] >= 2:
        ids[t] -= 2
        for more in _splits(ids, True):
            yield [("pair", t), *more]
        ids[t] += 2
    if ids[t] >= 3:
        ids[t] -= 3
        for more in _splits(ids, pair_done):
            yield [("pung", t), *more]
        ids[t] += 3
    if t < 27 and t % 9 <= 6 and ids[t + 1] and ids[t + 2]:
        for x in (t, t + 1, t + 2):
            ids[x] -= 1
        for more in _splits(ids, pair_done):
            yield [("chow", t), *more]
        for x in (t, t + 1, t + 2):
            ids[x] += 1


def oracle_raw(
    hand: Hand, wild: Wild, seat: int, self_drawn: bool,
    options: HuangyanOptions = DEFAULT_OPTIONS,
    identities: list[int] | None = None,
) -> int:
    """The largest (hu + base) × 2^fan, by brute force straight from §4.1-4.3; each 得 tries
    every identity (or those of ``identities``)."""
    face = wild.face
    seat_id = WINDS[seat]
    dead = face if face in DRAGONS and not options.live_dragon_face else None

    def hard(t: int) -> bool:
        return t in WINDS or t in TERMINALS or (t in DRAGONS and t != dead)

    def value(kind: str, t: int) -> int:
        index = ["pair", "pung", "cpung", "kong", "ckong"].index(kind)
        if t == seat_id:
            return [2, 8, 16, 32, 64][index]
        if kind == "pair":
            return 2 if t in DRAGONS and t != dead else 0
        return ([2, 4, 8, 16, 32] if hard(t) else [0, 2, 4, 8, 16])[index]

    fixed: list[tuple[str, int]] = []
    for m in hand.melds:
        t = _ident(m.tile, face)
        if m.kind is MeldKind.CHOW:
            fixed.append(("chow", t))
        elif m.kind is MeldKind.PUNG:
            fixed.append(("pung", t))
        else:
            fixed.append(("ckong" if m.source == CONCEALED_KONG else "kong", t))
    naturals = Counter(_ident(t, face) for t in hand.concealed_with_win if t != face)
    k = sum(1 for t in hand.concealed_with_win if t == face)
    assert hand.win_tile is not None
    win_wild = hand.win_tile == face
    best = -1
    for assign in combinations_with_replacement(identities or range(34), k):
        ids = Counter(naturals)
        ids.update(assign)
        restored = assign.count(face)
        for split in _splits(ids, False):
            if win_wild:
                wins: list[int | None] = [None] + ([face] if restored else [])
            else:
                wins = [_ident(hand.win_tile, face)]
            for w in wins:
                spots = [None] if w is None else [
                    i for i, (kind, t) in enumerate(split)
                    if (kind == "chow" and t <= w <= t + 2) or (kind != "chow" and t == w)
                ]
                for spot in spots:
                    hu = 2 if self_drawn else 0
                    fan = 0
                    groups = list(fixed)
                    for i, (kind, t) in enumerate(split):
                        if kind == "pung":
                            exposed = (i == spot and not self_drawn
                                       and not options.discard_pung_concealed)
                            kind = "pung" if exposed else "cpung"
                        groups.append((kind, t))
                    for kind, t in groups:
                        if kind == "chow":
                            continue
                        hu += value(kind, t)
                        if kind != "pair":
                            fan += (t == seat_id) + (t in DRAGONS and t != dead)
                    if spot is not None and split[spot][0] == "chow":
                        start = split[spot][1]
                        if w == start + 1:
                            hu += 2
                        elif (w == start + 2 and start % 9 == 0) or (w == start and
                                                                      start % 9 == 6):
                            hu += options.edge_wait_bonus
                    if spot is not None and split[spot][0] == "pair":
                        hu += options.single_wait_bonus
                    # §4.3: the flush tests look at the tiles, wild 得 and the dead face
                    # ignored: declared sets, natural concealed tiles and restored 得 (face F)
                    tiles = [t for _, t in fixed] + list(naturals) + [face] * restored
                    suits = {t // 9 for t in tiles if t < 27}
                    honours = any(t >= 27 and t != dead for t in tiles)
                    if len(suits) == 1:
                        fan += 1 if honours else options.full_flush_fan
                    if k == 0:
                        fan += options.no_wild_fan
                    else:
                        fan += restored
                    best = max(best, (hu + options.base_reward) * 2**fan)
    return best


# =========================================================================== random hands


@st.composite
def winning_hands(draw: st.DrawFn, wilds: int = 2) -> tuple[Hand, Wild, int, bool]:
    """A random legal winning hand: 4 sets and a pair of identities, some declared, then up to
    ``wilds`` concealed tiles turned into 得."""
    face = draw(st.integers(0, 33))
    wild = Wild(face)
    sets: list[tuple[str, int]] = []
    for _ in range(4):
        if draw(st.booleans()):
            suit, rank = draw(st.integers(0, 2)), draw(st.integers(0, 6))
            sets.append(("chow", suit * 9 + rank))
        else:
            sets.append(("pung", draw(st.integers(0, 33))))
    pair = draw(st.integers(0, 33))
    n_melds = draw(st.integers(0, 2))
    melds: list[Meld] = []
    concealed: list[int] = [pair, pair]
    for i, (kind, t) in enumerate(sets):
        tiles = [t, t + 1, t + 2] if kind == "chow" else [t] * 3
        if i < n_melds:
            if face == WHITE and face in tiles:
                assume(False)
            if kind == "chow":
                melds.append(Meld(MeldKind.CHOW, t))
            else:
                if draw(st.booleans()):
                    melds.append(Meld(MeldKind.PUNG, t, draw(st.sampled_from([1, 2, 3]))))
                else:
                    source = draw(st.sampled_from([0, 1, 2, 3, 5, 6, 7]))
                    melds.append(Meld(MeldKind.KONG, t, source))
        else:
            concealed.extend(tiles)
    # identity F in the concealed part is carried by stand-ins (or is a 得 when F is P)
    concealed = [WHITE if t == face else t for t in concealed]
    turned = draw(st.lists(st.integers(0, len(concealed) - 1), max_size=wilds, unique=True))
    for i in turned:
        concealed[i] = face
    draw(st.randoms()).shuffle(concealed)
    win = concealed.pop()
    self_drawn = draw(st.booleans()) or win == face
    hand = Hand.of(melds, concealed, win)
    try:
        check_tiles(hand, wild)
    except InvalidHandError:
        assume(False)
    return hand, wild, draw(st.integers(0, 3)), self_drawn


_SETTINGS = settings(max_examples=60, deadline=None,
                     suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


@_SETTINGS
@given(winning_hands())
def test_scorer_matches_the_oracle(case: tuple[Hand, Wild, int, bool]) -> None:
    hand, wild, seat, drawn = case
    score = score_winner(hand, wild, seat_wind=seat, self_drawn=drawn)
    assert score.raw == oracle_raw(hand, wild, seat, drawn)
    assert sum(i.hu for i in score.items) == score.hu
    assert sum(f.fan for f in score.fans) == score.fan
    assert score.raw == (score.hu + 20) * 2**score.fan


@_SETTINGS
@given(winning_hands(), st.sampled_from(
    [{"edge_wait_bonus": 2}, {"single_wait_bonus": 2}, {"discard_pung_concealed": True},
     {"live_dragon_face": True}, {"full_flush_fan": 2, "no_wild_fan": 2}, {"base_reward": 10}]
))
def test_scorer_matches_the_oracle_under_options(
    case: tuple[Hand, Wild, int, bool], values: dict[str, object]
) -> None:
    hand, wild, seat, drawn = case
    options = HuangyanOptions.from_mapping(values)
    score = score_winner(hand, wild, seat_wind=seat, self_drawn=drawn, options=options)
    assert score.raw == oracle_raw(hand, wild, seat, drawn, options)


@_SETTINGS
@given(winning_hands(wilds=3))
def test_totals_are_capped_multiples_of_ten(case: tuple[Hand, Wild, int, bool]) -> None:
    hand, wild, seat, drawn = case
    score = score_winner(hand, wild, seat_wind=seat, self_drawn=drawn)
    assert score.total % 10 == 0 and 0 < score.total <= 300
    assert score.total == 300 if score.wilds == 3 else score.total == min(
        300, round_up_10(score.raw)
    )
    for limit in (100, 50):
        capped = score_winner(hand, wild, seat_wind=seat, self_drawn=drawn,
                              options=HuangyanOptions(limit=limit))
        assert capped.total <= limit and capped.total % 10 == 0


@_SETTINGS
@given(winning_hands(wilds=0), st.data())
def test_a_wild_is_worth_the_best_natural_tile_plus_the_documented_fans(
    case: tuple[Hand, Wild, int, bool], data: st.DataObject
) -> None:
    """Replacing a natural tile by a 得: the 得 may take back that tile (so the hand loses at most
    无得, and gains 得还原 if the tile was a stand-in), and never scores more than the best natural
    tile in its place with 无得 taken off and 得还原 added when that tile is F."""
    hand, wild, seat, drawn = case
    assume(wild.face != WHITE and hand.win_tile != wild.face)
    i = data.draw(st.integers(0, len(hand.concealed) - 1))
    replaced = hand.concealed[i]
    tiles = list(hand.concealed)
    tiles[i] = wild.face
    with_wild = Hand.of(hand.melds, tiles, hand.win_tile)
    before = score_winner(hand, wild, seat_wind=seat, self_drawn=drawn).raw
    after = score_winner(with_wild, wild, seat_wind=seat, self_drawn=drawn).raw
    no_wild = DEFAULT_OPTIONS.no_wild_fan
    restored = wild.identity(replaced) == wild.face
    assert after * 2**no_wild >= before * (2 if restored else 1)
    best = 0
    for x in range(34):
        natural = list(tiles)
        natural[i] = wild.physical(x)
        raw = oracle_raw(Hand.of(hand.melds, natural, hand.win_tile), wild, seat, drawn)
        if raw > 0:
            best = max(best, raw * (2 if x == wild.face else 1) // 2**no_wild)
    assert after == best


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=14, max_size=14), st.integers(0, 33))
def test_is_winning_shape_agrees_with_the_oracle(tiles: list[int], face: int) -> None:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    wild = Wild(face)
    assume(counts[face] <= 2)  # the oracle's 3-得 search is slow; 3 得 are covered elsewhere
    assume(max(counts) <= 4)  # a fifth copy is refused (see the test below)
    hand = Hand.of((), tiles[:-1], tiles[-1])
    assert is_winning_shape(counts, 0, wild) is (oracle_raw(hand, wild, 0, True) > 0)


def test_readings_of_identity_counts_above_four() -> None:
    """A 得 may be a fifth copy: an identity held five times is a pung and the pair or sits in
    chows, six times two pungs, seven times never a reading."""
    counts = [0] * 34
    counts[27], counts[0], counts[1], counts[2] = 5, 3, 3, 3
    assert regular_readings(counts) == [(27, (), (27, 0, 1, 2)), (27, (0, 0, 0), (27,))]
    counts[27], counts[28] = 6, 2
    assert regular_readings(counts) == [(28, (), (27, 27, 0, 1, 2)), (28, (0, 0, 0), (27, 27))]
    counts[27] = 7
    assert regular_readings(counts) == []
    suited = [0] * 34
    suited[0], suited[1], suited[2], suited[27] = 5, 2, 2, 2
    assert regular_readings(suited) == [(27, (0, 0), (0,))]
    score = score_huangyan("EEEE123m456m789m5p", wild="5p", self_drawn=True, seat_wind="S")
    assert (score.reading, score.total) == ("EEE 123m 456m 789m E 5p*(as E)", 60)


def test_is_winning_shape_refuses_a_fifth_copy() -> None:
    counts = [0] * 34
    for t in parse_tiles("11111m234s567pEEE"):
        counts[t] += 1
    with pytest.raises(InvalidHandError, match="5 tiles of 1m: there are four of each"):
        is_winning_shape(counts, 0, Wild.of("5p"))


@_SETTINGS
@given(winning_hands(wilds=2), st.data())
def test_is_winning_shape_near_winning_hands(
    case: tuple[Hand, Wild, int, bool], data: st.DataObject
) -> None:
    """One concealed tile of a winning hand changed: winning or not, as the oracle says."""
    hand, wild, _, _ = case
    tiles = list(hand.concealed)
    tiles[data.draw(st.integers(0, len(tiles) - 1))] = data.draw(st.integers(0, 33))
    assume(tiles.count(wild.face) + (hand.win_tile == wild.face) <= 2)
    changed = Hand.of(hand.melds, tiles, hand.win_tile)
    counts = [0] * 34
    for t in changed.concealed_with_win:
        counts[t] += 1
    assume(max(counts) <= 4)
    assert is_winning_shape(counts, len(hand.melds), wild) is (
        oracle_raw(changed, wild, 0, True) > 0
    )


@_SETTINGS
@given(winning_hands(wilds=3))
def test_is_winning_shape_accepts_every_generated_hand(case: tuple[Hand, Wild, int, bool]) -> None:
    hand, wild, _, _ = case
    counts = [0] * 34
    for t in hand.concealed_with_win:
        counts[t] += 1
    assert is_winning_shape(counts, len(hand.melds), wild)


@_SETTINGS
@given(winning_hands(wilds=2))
def test_notation_round_trip(case: tuple[Hand, Wild, int, bool]) -> None:
    hand, wild, _, _ = case
    text = format_huangyan_hand(hand, wild)
    parsed = parse_huangyan_hand(text, wild)
    assert (parsed.melds, parsed.concealed, parsed.win_tile) == (
        tuple(Meld(m.kind, wild.identity(m.tile), m.source) for m in hand.melds),
        hand.concealed,
        hand.win_tile,
    )


# =========================================================================== settlement


@given(
    winner=st.integers(0, 3),
    dealer=st.integers(0, 3),
    w_total=st.integers(0, 30).map(lambda x: 10 * x),
    totals=st.lists(st.integers(0, 30).map(lambda x: 10 * x), min_size=3, max_size=3),
    self_drawn=st.booleans(),
    gunner_pick=st.one_of(st.none(), st.integers(0, 2)),
    n=st.integers(1, 6),
    stakes=st.lists(st.integers(0, 5), min_size=4, max_size=4),
    bullets=st.integers(0, 5),
    scope=st.sampled_from(["every", "dealer", "dealer_wins"]),
)
def test_settlements_are_zero_sum_and_follow_5_4_and_5_6(
    winner: int, dealer: int, w_total: int, totals: list[int], self_drawn: bool,
    gunner_pick: int | None, n: int, stakes: list[int], bullets: int, scope: str,
) -> None:
    losers = [s for s in range(4) if s != winner]
    loser_totals = dict(zip(losers, totals, strict=True))
    gunner = None if self_drawn or gunner_pick is None else losers[gunner_pick]
    thrown = {s: t for s, t in enumerate(stakes) if s != dealer}
    options = HuangyanOptions(bullets=bullets, dealer_count_scope=scope)
    s = settle_hand(winner, w_total, loser_totals, dealer=dealer, self_drawn=self_drawn,
                    gunner=gunner, dealer_count=n, thrown=thrown, options=options)
    assert sum(s.hu) == 0 and sum(s.bullets) == 0
    assert s.hu[winner] == 3 * w_total
    assert all(p.amount > 0 for p in s.payments)
    z = 2 if self_drawn else 1
    assert s.bullets[winner] >= 3 * bullets * z
    if gunner is None:
        for i in losers:
            expected = -w_total + sum(loser_totals[i] - loser_totals[j] for j in losers if j != i)
            assert s.hu[i] == expected
    else:
        assert all(p.payer == gunner for p in s.payments)
        others = [p for p in losers if p != gunner]
        for k in others:
            other = next(o for o in others if o != k)
            ik, io = loser_totals[k], loser_totals[other]
            assert s.hu[k] == ik + max(0, ik - io)
            assert s.bullets[k] == 0


def test_settle_draw_is_empty() -> None:
    draw = settle_draw()
    assert (draw.winner, draw.hu, draw.bullets, draw.payments) == (None, (0,) * 4, (0,) * 4, ())
    assert "exhaustive draw" in draw.explain()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"gunner": 0},  # the winner
        {"gunner": 2, "self_drawn": True},  # a self-drawn win has no gunner
        {"dealer_count": 0},
        {"thrown": {0: 2}},  # the dealer's own stake
        {"thrown": {1: -1}},
        {"dealer": 4},
    ],
)
def test_settle_hand_rejects_contradictions(kwargs: dict[str, object]) -> None:
    args: dict[str, object] = {"dealer": 0, "self_drawn": False}
    args.update(kwargs)
    with pytest.raises(SituationError):
        settle_hand(0, 40, {1: 10, 2: 10, 3: 0}, **args)  # type: ignore[arg-type]
    with pytest.raises(SituationError):
        settle_hand(0, 40, {1: 10, 2: 10}, dealer=0, self_drawn=False)


def test_dealership() -> None:
    d = Dealership(2)
    assert [d.seat_wind(s) for s in range(4)] == [2, 3, 0, 1]
    with pytest.raises(SituationError):
        d.accept(2, 1)
    with pytest.raises(SituationError):
        Dealership(0, 0)


# =========================================================================== notation, errors


def test_parse_face() -> None:
    assert [parse_face(x) for x in ("7p", "P", "E", 5)] == [24, 33, 27, 5]
    for bad in ("77p", "x", 34, -1, True, "", None):
        with pytest.raises(SituationError):
            parse_face(bad)  # type: ignore[arg-type]


def test_stand_in_chow_in_a_declared_set() -> None:
    hand = parse_huangyan_hand("[56pP,3]PP7p11m2s4s678m3s", "7p")
    assert hand.melds[0] == Meld(MeldKind.CHOW, 22, 3)
    assert format_huangyan_hand(hand, "7p") == "[56pP,3]11678m24s7pPP3s"
    assert parse_huangyan_hand("[56pP3]PP7p11m2s4s678m3s", "7p").melds == hand.melds
    assert parse_huangyan_hand("[567p,3]PP7p11m2s4s678m3s", "7p").melds == hand.melds


@pytest.mark.parametrize(
    ("text", "wild", "error"),
    [
        ("[PPP]123m456p789s1m1m", "P", InvalidHandError),  # a 得 in a set (A20)
        ("123m456p789s7p7p7p7p", "7p", InvalidHandError),  # four tiles of the wild face
        ("[PPP]PP123m456p789s", "5s", InvalidHandError),  # five stand-ins
        ("123m456p789s11mEa", "5s", NotationError),  # flowers
        ("123m456p789s11mE9", "5s", NotationError),
        ("[12m]456p789s11mEE", "5s", NotationError),
        ("[1234m]456p789s11m", "5s", NotationError),
        ("123m456p789s11m", "5s", InvalidHandError),  # 11 tiles
        ("{1111m}456p789s11m", "5s", NotationError),  # braces only in the reading notation
    ],
)
def test_notation_errors(text: str, wild: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        parse_huangyan_hand(text, wild)


def test_reading_notation() -> None:
    hand = parse_reading("[SSSS] {9999p} 34m 678s 5p 2s*", "2s", win="5m")
    assert [m.source for m in hand.melds] == [1, CONCEALED_KONG]
    with pytest.raises(NotationError):
        parse_reading("{999p} 34m", "2s")
    with pytest.raises(NotationError):
        parse_reading("123m 456p 789s 11m E", "2s", win="5m5m")


def test_scoring_errors_are_majiang_errors() -> None:
    with pytest.raises(NotWinningError):
        score_huangyan("123m456p789s1s3sEE5m", wild="9p")
    with pytest.raises(SituationError):
        score_huangyan(EX1, wild="5s", seat_wind="X")
    with pytest.raises(SituationError):
        score_huangyan(EX1, wild="11s")
    with pytest.raises(InvalidHandError):
        score_huangyan("123m456p789p234s8m", wild="5s")
    with pytest.raises(InvalidHandError):
        score_loser(EX1, "5s")
    with pytest.raises(SituationError):
        settle_win(["", "", ""], 0, wild="5s")
    hand = parse_huangyan_hand("123m456p789s1s3sEE5m", "9p")
    assert check_win(hand, WinContext(), "9p") is None
    for exc in (NotWinningError, SituationError, InvalidHandError, OptionError):
        assert issubclass(exc, MajiangError)


def test_explain_names_every_item() -> None:
    score = score_huangyan("SS5s123m789m34p66p2p", wild="5s", seat_wind="S", self_drawn=True,
                           explain=True)
    text = score.explain()
    for line in ("门风暗刻", "SS 5s*(as S)", "自摸", "门风刻杠", "(18 + 20) × 2^1 = 76 → 80",
                 "other reading"):
        assert line in text
    assert score.to_dict()["total"] == 80
