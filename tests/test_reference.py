"""Differential test against the reference calculator on random winning hands of all five shapes.

The reference scores the non-81 fan 明暗杠 (D1), so majiang runs with ``mixed_kong_pair_5`` here.
When two readings tie on total, only the fan names can differ (D22); such a hand passes when the
reference's fans are exactly those of one of majiang's equal-total readings.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

pytest.importorskip("MahjongGB")

from majiang.random_hands import random_winning_hand
from majiang.rules.guobiao.fans import FANS
from majiang.rules.guobiao.options import GuobiaoOptions
from majiang.rules.guobiao.scoring import score_hand
from reference import reference_fans

HANDS = 10_000
OPTIONS = GuobiaoOptions(mixed_kong_pair_5=True)


def _as_names(fans, flowers: int) -> dict[str, int]:  # type: ignore[no-untyped-def]
    names = {fc.fan.zh: fc.count for fc in fans}
    if flowers:
        names["花牌"] = flowers
    return names


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
        if mine == ref:
            continue
        tied = [
            _as_names(alt.fans, result.flowers)
            for alt in result.alternatives
            if alt.total == result.total_without_flowers
        ]
        if ref in tied:
            ties += 1
            continue
        failures.append((str(hand), ctx.describe(), mine, ref))
    assert not failures, failures[:5]
    assert ties < HANDS // 200
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
