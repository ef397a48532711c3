"""The bots' block values: the cached discard and draw tables agree with a direct computation."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.bots import blocks
from majiang.bots.blocks import POW5, combine, honor_vector, improving, removals, suit_vector, value
from majiang.shanten import max_plus

# A group's counts (0-4 of each rank; 0-14 tiles), the other groups' combined vector, the budget.
suits = st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda c: sum(c) <= 14)
honours = st.lists(st.integers(0, 4), min_size=7, max_size=7).filter(lambda c: sum(c) <= 14)
rests = st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda c: sum(c) <= 11)


def _key(counts: list[int]) -> int:
    return sum(n * POW5[r] for r, n in enumerate(counts))


def _value(rest: int, counts: list[int], honors: bool, k: int) -> int:
    group = honor_vector(_key(counts)) if honors else suit_vector(_key(counts))
    return value(combine(rest, group), k)


@settings(max_examples=300, deadline=None)
@given(st.one_of(suits.map(lambda c: (c, False)), honours.map(lambda c: (c, True))), rests,
       st.integers(0, 4))
def test_improving_and_removals_match_a_direct_computation(
    group: tuple[list[int], bool], other: list[int], k: int
) -> None:
    counts, honors = group
    rest = suit_vector(_key(other))
    current = _value(rest, counts, honors, k)
    raised = []
    for r, n in enumerate(counts):
        if n < 4:
            counts[r] += 1
            if _value(rest, counts, honors, k) > current:
                raised.append(r)
            counts[r] -= 1
    assert improving(rest, _key(counts), k, honors) == tuple(raised)
    expected = []
    for r, n in enumerate(counts):
        if n:
            counts[r] -= 1
            expected.append(_value(rest, counts, honors, k))
            counts[r] += 1
        else:
            expected.append(-1)
    assert removals(rest, _key(counts), k, honors) == tuple(expected)


def test_a_lone_far_tile_is_never_tried() -> None:
    """Only ranks within two of a held tile can raise a suit's value: the others are -1."""
    assert blocks.neighbours(_key([1, 0, 0, 0, 0, 0, 0, 0, 0]), False)[3:] == (-1,) * 6


_VALUES = st.tuples(*[st.sampled_from([-99, *range(12)])] * 10)


@settings(max_examples=300, deadline=None)
@given(_VALUES, _VALUES)
def test_max_plus_is_the_best_split_of_each_budget(x: tuple[int, ...], y: tuple[int, ...]) -> None:
    """For each budget m, the best x[i] + y[m - i]; with the pair (slots 5-9) from one side only;
    -99 when nothing reaches it."""
    for m in range(5):
        plain = max(x[i] + y[m - i] for i in range(m + 1))
        paired = max(max(x[5 + i] + y[m - i], x[i] + y[5 + m - i]) for i in range(m + 1))
        assert max_plus(x, y)[m] == max(plain, -99)
        assert max_plus(x, y)[5 + m] == max(paired, -99)


hands = st.lists(st.integers(0, 33), min_size=1, max_size=14).filter(
    lambda tiles: all(tiles.count(t) <= 4 for t in tiles)
)


@settings(max_examples=200, deadline=None)
@given(hands, st.integers(0, 4))
def test_the_hand_tables_match_each_tile_tried(tiles: list[int], k: int) -> None:
    """discard_values and improving_kinds of a whole hand: one tile taken out or added at a time."""
    counts = [tiles.count(t) for t in range(34)]
    keys = blocks.group_keys(counts)
    vectors = blocks.group_vectors(keys)

    def hand_value(changed: list[int]) -> int:
        return value(blocks.hand_vector(blocks.group_vectors(blocks.group_keys(changed))), k)

    expected = []
    for t in range(34):
        if counts[t]:
            counts[t] -= 1
            expected.append(hand_value(counts))
            counts[t] += 1
        else:
            expected.append(-1)
    assert blocks.discard_values(keys, vectors, k) == expected
    current = hand_value(counts)
    raised = []
    for t in range(34):
        if counts[t] < 4:
            counts[t] += 1
            if hand_value(counts) > current:
                raised.append(t)
            counts[t] -= 1
    assert blocks.improving_kinds(keys, vectors, k) == raised
