"""The worked examples of rules/huangyan.md §7: every figure they state is checked.

Hands are written in the project notation (``parse_huangyan_hand``: the spec's ``[5555s]``
exposed kong is ``[5555s,1]``, its ``{9999p}`` concealed kong is ``[9999p]``, its chow
``[56p P]`` is ``[56pP,3]``), the winning tile last. Seats 0-3 are E S W N, E the dealer; B = 2,
n = 1, no thrown bullets unless the example says otherwise. The same hands in the spec's reading
notation are checked to parse to the same tiles.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest

from majiang.hand import Hand
from majiang.rules.huangyan import (
    Dealership,
    HuangyanOptions,
    Settlement,
    draw_threshold,
    in_raw_tile_phase,
    is_gunner,
    parse_huangyan_hand,
    parse_reading,
    raw_tile_threshold,
    score_huangyan,
    settle_draw,
    settle_hand,
    settle_win,
)

E, S, W, N = 0, 1, 2, 3
SEATS = "ESWN"


@dataclass
class Example:
    number: int
    wild: str
    winner: int
    self_drawn: bool
    hands: tuple[str, str, str, str]
    total: int
    hu: int
    fan: int
    items: list[tuple[str, int]]
    """(Chinese name, hu) of every hu item of the winner, chows included."""
    fans: dict[str, int]
    loser_totals: dict[int, int]
    loser_items: dict[int, list[tuple[str, int]]]
    net_hu: tuple[int, int, int, int]
    net_bullets: tuple[int, int, int, int]
    paid: list[tuple[int, int, int]] = field(default_factory=list)
    """(payer, payee, amount) of every loser-settlement payment the example names."""
    gunner: int | None = None
    reading: list[tuple[str, str | None]] = field(default_factory=list)
    """The four hands in the spec's reading notation, each with its winning tile or None."""


EXAMPLES = [
    Example(
        1, "5s", E, False,
        ("123m456p789p234s8m8m", "[999s]CC234m67p1pWN", "777mWW12s45m6sN9p3p",
         "[FFFF]234p66m9m1s5m3sE"),
        total=40, hu=0, fan=1,
        items=[("顺子", 0)] * 4 + [("对子", 0)],
        fans={"无得": 1},
        loser_totals={S: 10, W: 10, N: 70},
        loser_items={S: [("明刻", 4), ("字牌对子", 2)], W: [("暗刻", 4), ("门风对子", 2)],
                     N: [("字牌暗杠", 32)]},
        net_hu=(120, -100, -100, 80), net_bullets=(6, -2, -2, -2),
        paid=[(S, N, 60), (W, N, 60)],
        reading=[("123m 456p 789p 234s 8m", "8m"), ("[999s] CC 234m 67p 1p W N", None),
                 ("777m WW 12s 45m 6s N 9p 3p", None), ("{FFFF} 234p 66m 9m 1s 5m 3s E", None)],
    ),
    Example(
        2, "3p", S, True,
        ("[EEE]12p456p88s78mN", "999m4s6s7p3p9p123m66m5s", "CCC2m4m56p789s1sWN",
         "[234s]PP111p56m8mSE"),
        total=40, hu=12, fan=0,
        items=[("暗刻", 8), ("顺子", 0), ("顺子", 0), ("顺子", 0), ("对子", 0), ("嵌档", 2),
               ("自摸", 2)],
        fans={},
        loser_totals={E: 10, W: 20, N: 10},
        loser_items={E: [("门风明刻", 4)], W: [("字牌暗刻", 8)], N: [("暗刻", 8)]},
        net_hu=(-50, 120, -20, -50), net_bullets=(-4, 12, -4, -4),
        paid=[(E, W, 10), (N, W, 10)],
        reading=[("[EEE] 12p 456p 88s 78m N", None), ("999m 4s 6s 7p 3p* 9p 123m 66m", "5s"),
                 ("CCC 2m 4m 56p 789s 1s W N", None), ("[234s] PP 111p 56m 8m S E", None)],
    ),
    Example(
        3, "8m", W, False,
        ("CCC2222m456p1s9sN", "[5555s,1]SS123p44p8s9sE", "[FFF][WWW]13p567p9p8m2p",
         "EEE345m67m88p12sP"),
        total=280, hu=14, fan=3,
        items=[("字牌明刻", 4), ("门风明刻", 8), ("顺子", 0), ("顺子", 0), ("对子", 0),
               ("嵌档", 2)],
        fans={"字牌刻杠": 1, "门风刻杠": 1, "混一色": 1},
        loser_totals={E: 30, S: 10, N: 10},
        loser_items={E: [("字牌暗刻", 8), ("暗刻", 4)], S: [("明杠", 8), ("门风对子", 2)],
                     N: [("暗刻", 8)]},
        net_hu=(-240, -300, 840, -300), net_bullets=(-2, -2, 6, -2),
        paid=[(S, E, 20), (N, E, 20)],
        reading=[("CCC 2222m 456p 1s 9s N", None), ("[5555s] SS 123p 44p 8s 9s E", None),
                 ("[FFF] [WWW] 13p 567p 9p 8m*", "2p"), ("EEE 345m 67m 88p 12s P", None)],
    ),
    Example(
        4, "N", S, True,
        ("[CCC]999m234m67p1p5m", "111s234s567s7s9s99s8s", "WWFF333m567p1m9p2p",
         "[EEE]PP456m888p2p1p"),
        total=300, hu=12, fan=4,
        items=[("暗刻", 8), ("顺子", 0), ("顺子", 0), ("顺子", 0), ("对子", 0), ("嵌档", 2),
               ("自摸", 2)],
        fans={"清一色": 3, "无得": 1},
        loser_totals={E: 30, W: 10, N: 10},
        loser_items={E: [("字牌明刻", 4), ("暗刻", 8)],
                     W: [("门风对子", 2), ("字牌对子", 2), ("暗刻", 4)],
                     N: [("明刻", 4), ("门风对子", 2), ("暗刻", 4)]},
        net_hu=(-260, 900, -320, -320), net_bullets=(-4, 12, -4, -4),
        paid=[(W, E, 20), (N, E, 20)],
        reading=[("[CCC] 999m 234m 67p 1p 5m", None), ("111s 234s 567s 7s 9s 99s", "8s"),
                 ("WW FF 333m 567p 1m 9p 2p", None), ("[EEE] PP 456m 888p 2p 1p", None)],
    ),
    Example(
        5, "3s", N, False,
        ("[NNN]111p345m78s6pC", "SSS234p67s99sE1mN", "[FFFF,1]22m567s89mP4p1m",
         "[999m]2s3s456m789p55p1s"),
        total=50, hu=4, fan=1,
        items=[("明刻", 4), ("顺子", 0), ("顺子", 0), ("顺子", 0), ("对子", 0)],
        fans={"得还原": 1},
        loser_totals={E: 20, S: 20, W: 40},
        loser_items={E: [("明刻", 4), ("暗刻", 8)], S: [("门风暗刻", 8)],
                     W: [("字牌明杠", 16)]},
        net_hu=(-70, -70, -10, 150), net_bullets=(-2, -2, -2, 6),
        paid=[(E, W, 20), (S, W, 20)],
        reading=[("[NNN] 111p 345m 78s 6p C", None), ("SSS 234p 67s 99s E 1m N", None),
                 ("[FFFF] 22m 567s 89m P 4p 1m", None), ("[999m] 2s 3s* 456m 789p 55p", "1s")],
    ),
    Example(
        6, "7p", E, True,
        ("[56pP,3]PP7p11m2s4s678m3s", "P999p234mSS1s5sCW", "[CCC]44p123p555m9sE",
         "NNNN678s22p8p9pF3m"),
        total=60, hu=8, fan=1,
        items=[("顺子", 0), ("暗刻", 4), ("对子", 0), ("顺子", 0),
               ("顺子", 0), ("嵌档", 2), ("自摸", 2)],
        fans={"得还原": 1},
        loser_totals={S: 10, W: 20, N: 20},
        loser_items={S: [("暗刻", 8), ("门风对子", 2)], W: [("字牌明刻", 4), ("暗刻", 4)],
                     N: [("门风暗刻", 8)]},
        net_hu=(180, -80, -50, -50), net_bullets=(12, -4, -4, -4),
        paid=[(S, W, 10), (S, N, 10)],
        reading=[("[56p P] P P 7p* 11m 2s 4s 678m", "3s"), ("P 999p 234m SS 1s 5s C W", None),
                 ("[CCC] 44p 123p 555m 9s E", None), ("NNNN 678s 22p 8p 9p F 3m", None)],
    ),
    Example(
        7, "P", W, False,
        ("EEE456p789m11sNW", "[222p]P55m345s89pCS", "[CCC]23mPFFP678s9s9s",
         "[1111p]NN44s666m2s3pE"),
        total=130, hu=12, fan=2,
        items=[("字牌明刻", 4), ("字牌暗刻", 8), ("顺子", 0), ("顺子", 0), ("对子", 0)],
        fans={"字牌刻杠": 2},
        loser_totals={E: 20, S: 10, N: 40},
        loser_items={E: [("门风暗刻", 8)], S: [("明刻", 2)],
                     N: [("暗杠", 32), ("门风对子", 2), ("暗刻", 4)]},
        net_hu=(-140, -170, 390, -80), net_bullets=(-2, -2, 6, -2),
        paid=[(S, E, 10), (E, N, 20), (S, N, 30)],
        reading=[("EEE 456p 789m 11s N W", None), ("[222p] P 55m 345s 89p C S", None),
                 ("[CCC] 23m P FF P 678s 9s", "9s"), ("{1111p} NN 44s 666m 2s 3p E", None)],
    ),
    Example(
        8, "6m", N, True,
        ("123m45p78p99s2sSWC", "[888p]SS345m78sFN1s", "[FFF]222p99m4m1s3s5s6p",
         "1p3p456s78m6m6m6mEEE2p"),
        total=300, hu=12, fan=3,
        items=[("暗刻", 8), ("顺子", 0), ("顺子", 0), ("顺子", 0), ("对子", 0), ("嵌档", 2),
               ("自摸", 2)],
        fans={"得还原": 3},
        loser_totals={E: 0, S: 10, W: 20},
        loser_items={E: [], S: [("明刻", 2), ("门风对子", 2)], W: [("字牌明刻", 4), ("暗刻", 4)]},
        net_hu=(-330, -300, -270, 900), net_bullets=(-4, -4, -4, 12),
        paid=[(E, S, 10), (E, W, 20), (S, W, 10)],
        reading=[("123m 45p 78p 99s 2s S W C", None), ("[888p] SS 345m 78s F N 1s", None),
                 ("[FFF] 222p 99m 4m 1s 3s 5s 6p", None),
                 ("1p 3p 456s 78m 6m* 6m* 6m* EEE", "2p")],
    ),
    Example(
        9, "2s", S, False,
        ("111s456p789mCCWN", "[SSSS,1][9999p]34m678s5p2s5m", "[EEE]WWW123m67mF3p",
         "[7777p,1]PPP45s88m9sN1p"),
        total=170, hu=64, fan=1,
        items=[("门风明杠", 32), ("暗杠", 32), ("顺子", 0), ("顺子", 0), ("对子", 0)],
        fans={"门风刻杠": 1},
        loser_totals={E: 10, W: 30, N: 20},
        loser_items={E: [("暗刻", 8), ("字牌对子", 2)], W: [("明刻", 4), ("门风暗刻", 8)],
                     N: [("明杠", 8), ("暗刻", 4)]},
        net_hu=(-200, 510, -140, -170), net_bullets=(-2, 6, -2, -2),
        paid=[(E, W, 20), (E, N, 10), (N, W, 10)],
        reading=[("111s 456p 789m CC W N", None), ("[SSSS] {9999p} 34m 678s 5p 2s*", "5m"),
                 ("[EEE] WWW 123m 67m F 3p", None), ("[7777p] PPP 45s 88m 9s N 1p", None)],
    ),
    Example(
        10, "4m", N, False,
        ("[123p][EEE]456p88sPW", "FFSSS23m5m678p9pW", "[2222s]WW78m34s111m5p",
         "[CCC]11sNN999m567s1s"),
        total=160, hu=18, fan=2,
        items=[("字牌明刻", 4), ("明刻", 4), ("门风对子", 2), ("暗刻", 8), ("顺子", 0)],
        fans={"字牌刻杠": 1, "无得": 1},
        loser_totals={E: 10, S: 20, W: 30},
        loser_items={E: [("门风明刻", 4)],
                     S: [("字牌对子", 2), ("门风暗刻", 8)],
                     W: [("暗杠", 16), ("门风对子", 2), ("暗刻", 8)]},
        net_hu=(-190, -160, -130, 480), net_bullets=(-2, -2, -2, 6),
        paid=[(E, S, 10), (E, W, 20), (S, W, 10)],
        reading=[("[123p] [EEE] 456p 88s P W", None), ("FF SSS 23m 5m 678p 9p W", None),
                 ("{2222s} WW 78m 34s 111m 5p", None), ("[CCC] 11s NN 999m 567s", "1s")],
    ),
    Example(
        11, "1p", E, True,
        ("234m567p345s678s9m9m", "1m4m7m3p4p8p1s2s9sEWNC", "2m5m8m2p3p9p5s8s9sSNFP",
         "1m6m9m6p7p2s3s9sESFC8m"),
        total=50, hu=2, fan=1,
        items=[("顺子", 0)] * 4 + [("对子", 0), ("自摸", 2)],
        fans={"无得": 1},
        loser_totals={S: 0, W: 0, N: 0},
        loser_items={S: [], W: [], N: []},
        net_hu=(150, -50, -50, -50), net_bullets=(44, -18, -14, -12),
        reading=[("234m 567p 345s 678s 9m", "9m"), ("1m 4m 7m 3p 4p 8p 1s 2s 9s E W N C", None),
                 ("2m 5m 8m 2p 3p 9p 5s 8s 9s S N F P", None),
                 ("1m 6m 9m 6p 7p 2s 3s 9s E S F C 8m", None)],
    ),
    Example(
        12, "9p", W, False,
        ("CCC999s345m22s1mE", "[SSS]666m123s88pF4s", "[WWW]123p456p89s55m7s",
         "[FFF]222m456s78m3pE"),
        total=120, hu=8, fan=2,
        items=[("门风明刻", 8), ("顺子", 0), ("顺子", 0), ("顺子", 0), ("对子", 0)],
        fans={"门风刻杠": 1, "无得": 1},
        loser_totals={E: 40, S: 20, N: 0},
        loser_items={E: [("字牌暗刻", 8), ("暗刻", 8)], S: [("门风明刻", 4), ("暗刻", 4)],
                     N: [("字牌明刻", 4), ("暗刻", 4)]},
        net_hu=(60, 20, 360, -440), net_bullets=(0, 0, 6, -6),
        paid=[(N, W, 360), (N, E, 60), (N, S, 20)],
        gunner=N,
        reading=[("CCC 999s 345m 22s 1m E", None), ("[SSS] 666m 123s 88p F 4s", None),
                 ("[WWW] 123p 456p 89s 55m", "7s"), ("[FFF] 222m 456s 78m 3p E", None)],
    ),
    Example(
        13, "5s", S, True,
        ("[888s]11p456m999pEW", "SS5s123m789m34p66p2p", "FFFF34s6s78pCC1sN",
         "NN5s23s456p777sE9m"),
        total=80, hu=18, fan=1,
        items=[("门风暗刻", 16), ("顺子", 0), ("顺子", 0), ("顺子", 0), ("对子", 0), ("自摸", 2)],
        fans={"门风刻杠": 1},
        loser_totals={E: 10, W: 20, N: 10},
        loser_items={E: [("明刻", 2), ("暗刻", 8)], W: [("字牌暗刻", 8), ("字牌对子", 2)],
                     N: [("门风对子", 2), ("暗刻", 4)]},
        net_hu=(-90, 240, -60, -90), net_bullets=(-4, 12, -4, -4),
        paid=[(E, W, 10), (N, W, 10)],
        reading=[("[888s] 11p 456m 999p E W", None), ("SS 5s* 123m 789m 34p 66p", "2p"),
                 ("FFFF 34s 6s 78p CC 1s N", None), ("NN 5s* 23s 456p 777s E 9m", None)],
    ),
    Example(
        14, "C", E, False,
        ("PPP123s4s6s789sEE5s", "C222m567p89mWW1p3p", "[999p]FF345m12p777m",
         "[NNNN,1]44p123m6p8pSF5m"),
        total=120, hu=8, fan=2,
        items=[("暗刻", 4), ("门风对子", 2), ("顺子", 0), ("顺子", 0), ("顺子", 0), ("嵌档", 2)],
        fans={"混一色": 1, "无得": 1},
        loser_totals={S: 10, W: 10, N: 40},
        loser_items={S: [("暗刻", 4)], W: [("明刻", 4), ("字牌对子", 2), ("暗刻", 4)],
                     N: [("门风明杠", 16)]},
        net_hu=(360, -150, -150, -60), net_bullets=(6, -2, -2, -2),
        paid=[(S, N, 30), (W, N, 30)],
        reading=[("PPP 123s 4s 6s 789s EE", "5s"), ("C 222m 567p 89m WW 1p 3p", None),
                 ("[999p] FF 345m 12p 777m", None), ("[NNNN] 44p 123m 6p 8p S F 5m", None)],
    ),
]


def _items(score: object) -> Counter[tuple[str, int]]:
    return Counter((i.zh, i.hu) for i in score.items)  # type: ignore[attr-defined]


def _settle(ex: Example) -> object:
    return settle_win(list(ex.hands), ex.winner, wild=ex.wild, self_drawn=ex.self_drawn,
                      gunner=ex.gunner, dealer_count=3 if ex.number == 11 else 1,
                      thrown={S: 3, W: 1} if ex.number == 11 else None)


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda ex: f"example{ex.number}")
def test_winner(ex: Example) -> None:
    score = score_huangyan(ex.hands[ex.winner], wild=ex.wild, self_drawn=ex.self_drawn,
                           seat_wind=ex.winner)
    assert (score.total, score.hu, score.fan) == (ex.total, ex.hu, ex.fan), score.explain()
    assert _items(score) == Counter(ex.items), score.explain()
    assert {f.zh: f.fan for f in score.fans} == ex.fans, score.explain()
    assert sum(i.hu for i in score.items) == score.hu
    assert sum(f.fan for f in score.fans) == score.fan


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda ex: f"example{ex.number}")
def test_losers_and_settlement(ex: Example) -> None:
    result = _settle(ex)
    losers = result.losers  # type: ignore[attr-defined]
    own = {s: r.total for s, r in losers.items()}
    if ex.gunner is not None:  # the example gives N's own 20 before the penalty zeroes it
        assert own[ex.gunner] == 20
        own[ex.gunner] = 0
    assert own == ex.loser_totals
    for seat, items in ex.loser_items.items():
        assert _items(losers[seat]) == Counter(items), (SEATS[seat], losers[seat].explain())
    settlement: Settlement = result.settlement  # type: ignore[attr-defined]
    assert settlement.hu == ex.net_hu, settlement.explain()
    assert settlement.bullets == ex.net_bullets, settlement.explain()
    for payer, payee, amount in ex.paid:
        assert settlement.paid(payer, payee) == amount, settlement.explain()
    if ex.gunner is None:  # every loser pays the winner W
        for s in range(4):
            if s != ex.winner:
                assert settlement.paid(s, ex.winner) == ex.total


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda ex: f"example{ex.number}")
def test_reading_notation_gives_the_same_hands(ex: Example) -> None:
    def sets(hand: Hand) -> list[tuple[int, int, bool]]:  # the reading notation has no ,N
        return [(m.kind, m.tile, m.is_concealed_kong) for m in hand.melds]

    for seat, (text, win) in enumerate(ex.reading):
        read = parse_reading(text, ex.wild, win=win)
        project = parse_huangyan_hand(ex.hands[seat], ex.wild)
        assert (sets(read), read.concealed, read.win_tile) == (
            sets(project), project.concealed, project.win_tile
        ), SEATS[seat]


def test_no_face_more_than_four_times_counting_the_indicator() -> None:
    from majiang.rules.huangyan.notation import physical_counts
    from majiang.rules.huangyan.wild import Wild

    for ex in EXAMPLES:
        wild = Wild.of(ex.wild)
        total = [0] * 34
        for text in ex.hands:
            for face, n in enumerate(physical_counts(parse_huangyan_hand(text, wild), wild)):
                total[face] += n
        total[wild.face] += 1
        assert max(total) <= 4, ex.number


# ------------------------------------------------------------------ what the examples add


def test_example1_dealer_continues() -> None:
    assert Dealership(E).after(E) == Dealership(E, 2)


def test_example2_deal_passes_to_south() -> None:
    nxt = Dealership(E).after(S)
    assert (nxt.dealer, nxt.count, nxt.seat_wind(S), nxt.seat_wind(E)) == (S, 1, 0, 3)


def test_example6_reading_b_is_smaller() -> None:
    score = score_huangyan(EXAMPLES[5].hands[E], wild="7p", self_drawn=True, seat_wind=E,
                           explain=True)
    assert score.raw == 56
    alt = score.alternatives[0]
    assert (alt.hu, alt.fan, alt.raw) == (12, 0, 32)
    assert "7p*(as 1m)" in alt.reading


def test_example7_other_reading() -> None:
    score = score_huangyan(EXAMPLES[6].hands[W], wild="P", seat_wind=W, explain=True)
    assert score.raw == 128
    assert any((a.hu, a.fan, a.raw, a.total) == (10, 1, 60, 60) for a in score.alternatives)


def test_example8_best_ordinary_reading_is_260() -> None:
    score = score_huangyan(EXAMPLES[7].hands[N], wild="6m", self_drawn=True, seat_wind=N)
    assert score.three_wilds and score.limit
    assert (score.raw, score.restored) == (256, 3)


def test_example10_variants() -> None:
    hand = EXAMPLES[9].hands[N]
    concealed = score_huangyan(hand, wild="4m", seat_wind=N,
                               options={"discard_pung_concealed": True})
    assert (concealed.hu, concealed.total) == (22, 170)
    drawn = score_huangyan(hand, wild="4m", seat_wind=N, self_drawn=True)
    assert (drawn.hu, drawn.raw, drawn.total) == (24, 176, 180)
    on_north = score_huangyan("[CCC]11sNN999m567sN", wild="4m", seat_wind=N)
    assert (on_north.hu, on_north.fan, on_north.raw, on_north.total) == (20, 3, 320, 300)
    assert on_north.limit
    assert ("门风明刻", 8) in _items(on_north) and ("对子", 0) in _items(on_north)


def test_example11_dealer_streak_and_thrown_bullets() -> None:
    streak = Dealership(E, 3).accept(S, 1).accept(S, 2).accept(W, 1)
    assert streak.stakes() == {S: 3, W: 1}
    result = settle_win(list(EXAMPLES[10].hands), E, wild="1p", self_drawn=True,
                        dealer_count=streak.count, thrown=streak.stakes())
    assert result.settlement.bullets == (44, -18, -14, -12)
    assert result.settlement.paid(S, E, "bullets") == 12 + 6
    nxt = streak.after(E)
    assert (nxt.count, nxt.stakes()) == (4, {S: 3, W: 1})


@pytest.mark.parametrize(
    ("scope", "bullets"),
    [("every", (-11, 27, -8, -8)), ("dealer", (-11, 15, -2, -2)), ("dealer_wins", (-5, 9, -2, -2))],
)
def test_example11b_dealer_count_scope(scope: str, bullets: tuple[int, ...]) -> None:
    options = HuangyanOptions(dealer_count_scope=scope)
    settlement = settle_hand(S, 40, {E: 0, W: 0, N: 0}, dealer=E, self_drawn=False,
                             dealer_count=4, thrown={S: 3, W: 1}, options=options)
    assert settlement.bullets == bullets
    assert settlement.paid(E, S, "bullets") == -bullets[E]
    nxt = Dealership(E, 4, (0, 3, 1, 0)).after(S)
    assert nxt == Dealership(S, 1, (0, 0, 0, 0))


def test_example12_gunner_facts_and_no_gunner_variant() -> None:
    assert in_raw_tile_phase(26, 0)
    # N's hand is not all raw (3p is known): he is the gunner under P1.
    assert is_gunner("P1", raw_phase=True, tile_raw=True, all_raw=False, could_be_ready=True,
                     ready=False)
    # All raw and he could not be ready: excused, nobody is the gunner.
    assert not is_gunner("P1", raw_phase=True, tile_raw=True, all_raw=True,
                         could_be_ready=False, ready=False)
    ex = EXAMPLES[11]
    plain = settle_win(list(ex.hands), W, wild="9p").settlement
    assert plain.hu == (-80, -140, 360, -140)
    assert plain.bullets == (-2, -2, 6, -2)
    assert plain.paid(S, E) == 20 and plain.paid(N, E) == 20
    gunned = _settle(ex).settlement  # type: ignore[attr-defined]
    assert gunned.paid(N, W, "bullets") == 6 and gunned.paid(E, W, "bullets") == 0
    edge = score_huangyan(ex.hands[W], wild="9p", seat_wind=W, options={"edge_wait_bonus": 2})
    assert (edge.hu, edge.raw, edge.total) == (10, 120, 120)


def test_example13_wild_as_6p_gives_30() -> None:
    score = score_huangyan(EXAMPLES[12].hands[S], wild="5s", self_drawn=True, seat_wind=S,
                           explain=True)
    alt = score.alternatives[0]
    assert (alt.hu, alt.raw, alt.total) == (8, 28, 30)


def test_example14_live_face_alternative() -> None:
    score = score_huangyan(EXAMPLES[13].hands[E], wild="C", seat_wind=E,
                           options={"live_dragon_face": True})
    assert (score.hu, score.fan, score.raw, score.total) == (12, 3, 256, 260)


def test_example15_exhaustive_draw_with_a_kong() -> None:
    assert (draw_threshold(1), raw_tile_threshold(1)) == (15, 31)
    assert (draw_threshold(0), raw_tile_threshold(0)) == (14, 30)
    assert in_raw_tile_phase(31, 1) and not in_raw_tile_phase(32, 1)
    draw = settle_draw()
    assert draw.hu == (0, 0, 0, 0) and draw.bullets == (0, 0, 0, 0) and not draw.payments
    nxt = Dealership(E, 2, (0, 1, 0, 0)).after(None)
    assert nxt == Dealership(S, 1, (0, 0, 0, 0))
    assert [nxt.seat_wind(seat) for seat in (S, W, N, E)] == [0, 1, 2, 3]
