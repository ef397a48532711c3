"""Differential test against the reference calculator on random winning hands of all five shapes.

The reference scores the non-81 fan 明暗杠 (D1), so majiang runs with ``mixed_kong_pair_5`` here.
Totals and fan lists must agree on every hand: where readings tie on total (D22), majiang names
the one the reference names (``scoring.preferred``).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement

import pytest

pytest.importorskip("MahjongGB")

from majiang.errors import InvalidHandError
from majiang.hand import WinContext
from majiang.notation import parse_hand, parse_tiles
from majiang.random_hands import random_winning_hand
from majiang.rules.guobiao.fans import FANS
from majiang.rules.guobiao.options import GuobiaoOptions
from majiang.rules.guobiao.scoring import score_hand
from majiang.shapes import winning_tiles
from majiang.tiles import tile_name
from reference import reference_fans

HANDS = 10_000
OPTIONS = GuobiaoOptions(mixed_kong_pair_5=True)


def _names(hand: str, ctx: WinContext) -> tuple[dict[str, int], dict[str, int]]:
    parsed = parse_hand(hand)
    result = score_hand(parsed, ctx, OPTIONS)
    return {fc.fan.zh: fc.count for fc in result.fans}, reference_fans(parsed, ctx)


def test_agrees_with_the_reference_on_random_hands() -> None:
    rng = random.Random(20261129)
    shapes: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    flags: Counter[str] = Counter()
    ties = 0
    failures = []
    for _ in range(HANDS):
        hand, ctx = random_winning_hand(rng)
        result = score_hand(hand, ctx, OPTIONS, explain=True)
        mine = {fc.fan.zh: fc.count for fc in result.fans}
        ref = reference_fans(hand, ctx)
        shapes[result.reading.shape] += 1
        seen.update(mine)
        flags.update(
            name
            for name in ("self_drawn", "last_tile", "kong", "fourth_tile")
            if getattr(ctx, name)
        )
        flags["melded"] += bool(hand.melds)
        ties += any(
            alt.total == result.total_without_flowers
            and {fc.fan.zh for fc in alt.fans} != {fc.fan.zh for fc in result.fans}
            for alt in result.alternatives
        )
        if mine != ref:
            failures.append((str(hand), ctx.describe(), mine, ref))
    assert not failures, failures[:5]
    # Some hands had another reading of the same total and other names to choose from.
    assert ties > 10, ties
    # The random hands cover every shape, flag and nearly every fan.
    assert set(shapes) == {
        "regular",
        "seven pairs",
        "thirteen orphans",
        "honours and knitted",
        "knitted straight",
    }
    assert all(flags[name] > 100 for name in ("self_drawn", "last_tile", "kong", "fourth_tile"))
    assert flags["melded"] > HANDS // 4
    missing = {info.zh for info in FANS.values()} - set(seen)
    assert not missing, missing  # every one of the 81 fans (and 明暗杠) turns up


@pytest.mark.parametrize(
    ("hand", "self_drawn", "named"),
    [
        # 678m 678m 99m (坎张) comes before 66m 789m 789m (边张)
        ("[123p,1][123s,2]6678899m7m", False, "坎张"),
        # 123p 123p 44p (边张) comes before 11p 234p 234p (坎张)
        ("111m567s1122344p3p", False, "边张"),
        ("111m567s1122344p3p", True, "边张"),
        # 111p 234p 333p 456p 44p (幺九刻) before 11p 123p 333p 444p 456p (连六)
        ("1112333444456p3p", True, "幺九刻"),
    ],
)
def test_equal_totals_name_the_first_reading_in_the_reference_order(
    hand: str, self_drawn: bool, named: str
) -> None:
    mine, ref = _names(hand, WinContext(self_drawn=self_drawn))
    assert mine == ref and named in mine


@pytest.mark.parametrize(
    ("hand", "named"),
    [
        # 123s 666s 777s 888s 11s and 123s 678s 678s 678s 11s tie at 52: the later reading
        # with 一色三同顺 is named
        ("1112366677788s8s", "一色三同顺"),
        ("345m44455566s77p6s", "一色三同顺"),
    ],
)
def test_a_later_tie_with_pure_triple_chow_or_triple_pung_is_named(hand: str, named: str) -> None:
    mine, ref = _names(hand, WinContext())
    assert mine == ref and named in mine


FAMILY_CORES = (
    "1112344{s}789{s}", "1112333444456{s}", "1122344{s}", "1123456{s}", "11123789{s}",
    "1233789{s}", "66788999{s}", "1112345{s}", "1123478{s}", "2233445{s}", "1114567{s}",
    "1234567{s}", "2345678{s}", "11122233{s}",
)
"""One-suit cores (7, 8, 10 or 13 tiles) where a terminal pung, a pair and chows over shared
runs read several ways of the same total (老少副 / 幺九刻 / 一般高 / 连六 / 边张 / 坎张)."""
FAMILY_SETS = ("567{o}", "111{o}", "EEE", "[123{o},1]", "[999{o},2]")
FAMILY_PAIRS = ("99{o}", "NN")


def _family_hands() -> list[str]:
    """Each core filled to 13 tiles with sets and a pair of another suit or honours (declared
    sets first, as the notation writes them)."""
    hands = []
    for suit, other in (("m", "p"), ("s", "m"), ("p", "s")):
        for core in FAMILY_CORES:
            text = core.format(s=suit)
            missing = 13 - len(parse_tiles(text))
            pairs = [""] if missing % 3 == 0 else list(FAMILY_PAIRS)
            for pair in pairs:
                sets = (missing - len(pair)) // 3
                for chosen in combinations_with_replacement(FAMILY_SETS, sets):
                    melds = "".join(x for x in chosen if x.startswith("["))
                    rest = "".join(x for x in chosen if not x.startswith("["))
                    hands.append((melds + text + rest + pair).format(o=other))
    return hands


def test_families_of_equal_totals_name_what_the_reference_names() -> None:
    """Every family hand completed by each tile that wins it, on a discard and self-drawn:
    the reference's fan names."""
    checked = tied = 0
    failures = []
    for text in _family_hands():
        try:
            hand = parse_hand(text, allowed_counts=(13,))
        except InvalidHandError:  # five copies of a tile
            continue
        counts = [0] * 34
        for t in hand.concealed:
            counts[t] += 1
        for win in winning_tiles(counts, len(hand.melds)):
            if counts[win] == 4:
                continue
            for self_drawn in (False, True):
                full = parse_hand(text + tile_name(win))
                ctx = WinContext(self_drawn=self_drawn)
                result = score_hand(full, ctx, OPTIONS, explain=True)
                mine = {fc.fan.zh: fc.count for fc in result.fans}
                tied += any(
                    alt.total == result.total_without_flowers
                    and {fc.fan.zh: fc.count for fc in alt.fans} != mine
                    for alt in result.alternatives
                )
                ref = reference_fans(full, ctx)
                checked += 1
                if mine != ref:
                    failures.append((str(full), self_drawn, mine, ref))
    assert not failures, (len(failures), failures[:5])
    assert checked > 1500 and tied > 40, (checked, tied)
