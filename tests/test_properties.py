"""Properties of the Guobiao scorer over random winning hands (random_winning_hand)."""

from __future__ import annotations

import dataclasses
import random
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from majiang import Hand, Meld, WinContext, format_hand, parse_hand, score
from majiang.notation import format_meld, format_tiles
from majiang.random_hands import random_winning_hand
from majiang.rules.guobiao.scoring import Score, score_hand
from majiang.tiles import FLOWER_LETTERS, tile_name

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FLOWER = "花牌"
CHICKEN = "无番和"
SUIT_SPECIFIC = {"推不倒", "绿一色"}
"""Fans that depend on which suit is which (reversible tiles, all green)."""

PROPERTY = settings(max_examples=200, deadline=None)


def winning(seed: int) -> tuple[Hand, WinContext]:
    return random_winning_hand(random.Random(seed))


def fan_map(result: Score) -> dict[str, int]:
    return {fc.fan.zh: fc.count for fc in result.fans}


def without_flowers(hand: Hand) -> Hand:
    return Hand(hand.melds, hand.concealed, hand.win_tile, ())


def score_kwargs(context: WinContext) -> dict[str, object]:
    """score()'s keyword arguments for a context (winds as letters)."""
    return {
        "self_drawn": context.self_drawn,
        "seat_wind": "ESWN"[context.seat_wind],
        "prevalent_wind": "ESWN"[context.prevalent_wind],
        "flowers": context.extra_flowers,
        "last_tile": context.last_tile,
        "kong": context.kong,
        "fourth_tile": context.fourth_tile,
    }


def test_random_hands_are_reproducible() -> None:
    assert winning(12345) == winning(12345)


# --------------------------------------------------------------------------- (a) concealed order


@PROPERTY
@given(SEEDS, st.randoms(use_true_random=False))
def test_concealed_order_does_not_matter(seed: int, rnd: random.Random) -> None:
    hand, context = winning(seed)
    expected = score_hand(hand, context)
    concealed = list(hand.concealed)
    rnd.shuffle(concealed)
    permuted = Hand(hand.melds, tuple(concealed), hand.win_tile, hand.flowers)
    result = score_hand(permuted, context)
    assert result.total == expected.total
    assert fan_map(result) == fan_map(expected)
    assert result.meets_minimum == expected.meets_minimum


@PROPERTY
@given(SEEDS, st.randoms(use_true_random=False))
def test_concealed_order_in_notation_does_not_matter(seed: int, rnd: random.Random) -> None:
    hand, context = winning(seed)
    expected = score_hand(hand, context)
    assert hand.win_tile is not None
    concealed = list(hand.concealed)
    rnd.shuffle(concealed)
    tokens = [format_meld(m) for m in hand.melds]
    if rnd.random() < 0.5:
        tokens.append(format_tiles(concealed))
    else:
        tokens.extend(tile_name(t) for t in concealed)
    tokens.append(tile_name(hand.win_tile))
    for placed, f in enumerate(hand.flowers):  # flowers first, in any order among themselves
        tokens.insert(rnd.randrange(placed + 1), FLOWER_LETTERS[f - 34])
    text = "".join(tokens)
    assert parse_hand(text) == hand
    result = score(text, **score_kwargs(context))  # type: ignore[arg-type]
    assert result.total == expected.total
    assert fan_map(result) == fan_map(expected)
    assert result.meets_minimum == expected.meets_minimum
    assert result.flowers == expected.flowers


# --------------------------------------------------------------------------- (b) flowers


@PROPERTY
@given(SEEDS, st.integers(0, 8), st.data())
def test_flowers_add_exactly_their_count(seed: int, k: int, data: st.DataObject) -> None:
    hand, context = winning(seed)
    bare = without_flowers(hand)
    base = score_hand(bare, context)
    assert FLOWER not in fan_map(base)
    # Written in the hand, given in the context, or split between the two.
    written = data.draw(st.integers(0, k))
    letters = data.draw(st.lists(st.integers(34, 41), min_size=written, max_size=written,
                                 unique=True))
    flowered = Hand.of(bare.melds, bare.concealed, bare.win_tile, letters)
    result = score_hand(flowered, dataclasses.replace(context, extra_flowers=k - written))
    assert result.total == base.total + k
    assert result.flowers == k
    assert result.meets_minimum == base.meets_minimum
    assert result.total_without_flowers == base.total
    expected = fan_map(base)
    if k:
        expected[FLOWER] = k
    assert fan_map(result) == expected


@PROPERTY
@given(SEEDS, st.integers(0, 8))
def test_flowers_through_score_api(seed: int, k: int) -> None:
    hand, context = winning(seed)
    text = format_hand(without_flowers(hand))
    kwargs = score_kwargs(context)
    base = score(text, **kwargs)  # type: ignore[arg-type]
    with_letters = score(FLOWER_LETTERS[:k] + text, **kwargs)  # type: ignore[arg-type]
    kwargs["flowers"] = k
    with_count = score(text, **kwargs)  # type: ignore[arg-type]
    for result in (with_letters, with_count):
        assert result.total == base.total + k
        assert fan_map(result).get(FLOWER, 0) == k
        assert result.meets_minimum == base.meets_minimum


# --------------------------------------------------------------------------- (c), (d), (g)


@PROPERTY
@given(SEEDS)
def test_total_is_the_sum_of_counted_fans(seed: int) -> None:
    hand, context = winning(seed)
    result = score_hand(hand, context)
    assert result.total == sum(fc.fan.points * fc.count for fc in result.fans)
    assert result.total == sum(fc.total for fc in result.fans)
    assert all(fc.count >= 1 for fc in result.fans)
    assert len({fc.fan.zh for fc in result.fans}) == len(result.fans)
    assert result.flowers == len(hand.flowers) + context.extra_flowers
    assert fan_map(result).get(FLOWER, 0) == result.flowers


@PROPERTY
@given(SEEDS)
def test_meets_minimum_is_eight_without_flowers(seed: int) -> None:
    hand, context = winning(seed)
    result = score_hand(hand, context)
    assert result.meets_minimum == (result.total - result.flowers >= 8)
    assert result.total - result.flowers >= 1


@PROPERTY
@given(SEEDS)
def test_chicken_hand_only_alone(seed: int) -> None:
    hand, context = winning(seed)
    result = score_hand(hand, context)
    names = set(fan_map(result))
    if CHICKEN in names:
        assert names <= {CHICKEN, FLOWER}
        assert fan_map(result)[CHICKEN] == 1
        assert result.total - result.flowers == 8
    # Every winning hand has at least one fan besides flowers.
    assert names - {FLOWER}


# --------------------------------------------------------------------------- (e) determinism


@PROPERTY
@given(SEEDS)
def test_scoring_is_deterministic(seed: int) -> None:
    hand, context = winning(seed)
    first = score_hand(hand, context)
    again = score_hand(hand, context)
    rebuilt = score_hand(parse_hand(format_hand(hand)), dataclasses.replace(context))
    assert first == again
    assert first.total == rebuilt.total
    assert first.fans == rebuilt.fans
    assert first.meets_minimum == rebuilt.meets_minimum


# --------------------------------------------------------------------------- (f) suit symmetry


def relabel(tile: int, perm: tuple[int, ...]) -> int:
    return perm[tile // 9] * 9 + tile % 9 if tile < 27 else tile


def relabel_hand(hand: Hand, perm: tuple[int, ...]) -> Hand:
    assert hand.win_tile is not None
    return Hand.of(
        [Meld(m.kind, relabel(m.tile, perm), m.source) for m in hand.melds],
        [relabel(t, perm) for t in hand.concealed],
        relabel(hand.win_tile, perm),
        hand.flowers,
    )


@PROPERTY
@given(SEEDS)
def test_suit_permutation_does_not_change_the_total(seed: int) -> None:
    hand, context = winning(seed)
    original = score_hand(hand, context)
    for perm in permutations(range(3)):
        swapped = score_hand(relabel_hand(hand, perm), context)
        if SUIT_SPECIFIC & (set(fan_map(original)) | set(fan_map(swapped))):
            continue
        assert swapped.total == original.total, (format_hand(hand), perm)
        assert swapped.meets_minimum == original.meets_minimum


def test_suit_specific_fans_do_change() -> None:
    """Sanity check of the exclusion above: 绿一色 is bamboo-only."""
    green = score("[234s][666s]234s88sFFF")
    moved = score("[234m][666m]234m88mFFF")
    assert "绿一色" in fan_map(green)
    assert "绿一色" not in fan_map(moved)
