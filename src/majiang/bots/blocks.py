"""Block values of partial hands, for bots: regular-shape distances with restrictions, fast.

A group (one suit's nine ranks, or honours) is a base-5 key of its counts. Its *vector* holds,
for a budget of ``m`` blocks (0-4) without and with the pair, the best ``2 * sets + partial sets
(+1 for the pair)`` its tiles make (the same measure as :mod:`majiang.shanten`). Vectors are
interned as small ints and combined by cached max-plus convolutions, so that the regular
distance of a hand, or of a hand restricted to some groups, or read as pungs only, is a few dict
look-ups. The distance with ``k`` sets still to make is ``2 * k - value``: 0 is ready (13 tiles),
-1 complete (14 tiles); for a 14-tile hand it is the best after one discard.

Unlike :func:`majiang.shanten.shanten` this module knows nothing of the special shapes and
accepts any number of tiles: bots use it to measure distances to target patterns whose tiles
are only part of the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..shanten import max_plus

NEG: Final = -99
Vector = tuple[int, int, int, int, int, int, int, int, int, int]

_EMPTY: Final[Vector] = (0, 0, 0, 0, 0, NEG, NEG, NEG, NEG, NEG)
_vectors: Final[list[Vector]] = [_EMPTY]
_vector_ids: Final[dict[Vector, int]] = {_EMPTY: 0}
_conv: Final[dict[int, int]] = {}
"""Combinations of vectors past the rows below, keyed by ``a << 20 | b``."""
_ROW: Final = 256
_rows: Final[list[list[int]]] = [[-1] * _ROW]
"""``_rows[a][b]``: the combination of vectors ``a <= b`` (b under ``_ROW``), -1 until asked: a
list look-up, where a dict needs a boxed key and its hash (a combination is asked several
hundred thousand times a simulated hand). Under a hundred vectors exist in play."""
_values: Final[list[tuple[int, ...]]] = [(0, 0, 0, 0, 0)]
"""Per vector id: the best value for each budget, pair or not."""

POW5: Final[tuple[int, ...]] = tuple(5**i for i in range(14))  # typed: ``5**i`` is Any
SUIT_SHIFT: Final = (0, 9, 18)


def _intern(vector: Vector) -> int:
    index = _vector_ids.get(vector)
    if index is None:
        index = _vector_ids[vector] = len(_vectors)
        _vectors.append(vector)
        if index < _ROW:
            _rows.append([-1] * _ROW)
        _values.append(tuple(max(vector[m], vector[5 + m]) for m in range(5)))  # type: ignore[arg-type]
    return index


def _block(a: Vector, gain: int) -> Vector:
    """One more (partial) set worth ``gain``: one unit of budget."""
    return (NEG, a[0] + gain, a[1] + gain, a[2] + gain, a[3] + gain,
            NEG, a[5] + gain, a[6] + gain, a[7] + gain, a[8] + gain)


def _pair(a: Vector) -> Vector:
    """The pair: value 1, no budget, onto a vector without one."""
    return (NEG, NEG, NEG, NEG, NEG, a[0] + 1, a[1] + 1, a[2] + 1, a[3] + 1, a[4] + 1)


def _max(a: Vector, b: Vector) -> Vector:
    # spelled out: compiled, a generator over zip() boxed both vectors and every value (9 µs)
    return (
        a[0] if a[0] > b[0] else b[0], a[1] if a[1] > b[1] else b[1],
        a[2] if a[2] > b[2] else b[2], a[3] if a[3] > b[3] else b[3],
        a[4] if a[4] > b[4] else b[4], a[5] if a[5] > b[5] else b[5],
        a[6] if a[6] > b[6] else b[6], a[7] if a[7] > b[7] else b[7],
        a[8] if a[8] > b[8] else b[8], a[9] if a[9] > b[9] else b[9],
    )


_suits: Final[tuple[dict[int, int], ...]] = ({0: 0}, {0: 0})
"""Vector id of each suit key: with chows, and pungs only."""


def suit_vector(key: int, pungs_only: bool = False) -> int:
    """The vector id of one suit's base-5 key (rank 1 the lowest digit)."""
    memo = _suits[pungs_only]
    found = memo.get(key)
    if found is not None:
        return found
    low = key
    while low % 5 == 0:
        low //= 5  # the value does not depend on where in the suit the pattern sits
    if low != key:
        found = memo[key] = suit_vector(low, pungs_only)
        return found
    vectors = _vectors
    c0 = key % 5
    best = vectors[suit_vector(key - 1, pungs_only)]  # the lowest tile is left over
    if c0 >= 3:
        best = _max(best, _block(vectors[suit_vector(key - 3, pungs_only)], 2))
    if c0 >= 2:
        rest = vectors[suit_vector(key - 2, pungs_only)]
        best = _max(best, _max(_block(rest, 1), _pair(rest)))
    if not pungs_only:
        c1 = key // 5 % 5
        c2 = key // 25 % 5
        if c1 and c2:
            best = _max(best, _block(vectors[suit_vector(key - 31)], 2))
        if c1:
            best = _max(best, _block(vectors[suit_vector(key - 6)], 1))
        if c2:
            best = _max(best, _block(vectors[suit_vector(key - 26)], 1))
    found = memo[key] = _intern(best)
    return found


_honors: Final[dict[int, int]] = {0: 0}


def honor_vector(key: int) -> int:
    """The vector id of an honours key (7 digits; no chows)."""
    found = _honors.get(key)
    if found is None:
        found = 0
        rest = key
        while rest:
            n = rest % 5
            if n:
                found = combine(found, suit_vector(n))
            rest //= 5
        _honors[key] = found
    return found


def combine(a: int, b: int) -> int:
    """The max-plus combination of two groups' vectors (the pair in at most one)."""
    if a > b:
        a, b = b, a
    if b < _ROW:
        found = _rows[a][b]
        if found < 0:
            found = _rows[a][b] = _combined(a, b)
        return found
    key = a << 20 | b
    known = _conv.get(key)
    if known is None:
        known = _conv[key] = _combined(a, b)
    return known


def _combined(a: int, b: int) -> int:
    return _intern(max_plus(_vectors[a], _vectors[b]))  # type: ignore[arg-type]


def value(vector: int, k: int) -> int:
    """The best value of a vector with ``k`` blocks (pair or not)."""
    return _values[vector][k]


def vector_plain(vector: int, k: int) -> int:
    """The best value of a vector with ``k`` blocks and no pair."""
    return _vectors[vector][k]


def vector_pair(vector: int, k: int) -> int:
    """The best value of a vector with ``k`` blocks that includes the pair."""
    return _vectors[vector][5 + k]


# --------------------------------------------------------------------------- hands


def group_keys(counts: Sequence[int]) -> list[int]:
    """The four group keys (characters, bamboo, dots, honours) of 34 counts."""
    keys = [0, 0, 0, 0]
    for t in range(34):
        n = counts[t]
        if n:
            g = t // 9 if t < 27 else 3
            keys[g] = keys[g] + n * POW5[t - 9 * g]  # native when compiled (see bots.view)
    return keys


def tile_group(tile: int) -> tuple[int, int]:
    """(group, what one tile adds to the group's key)."""
    if tile < 27:
        return tile // 9, POW5[tile % 9]
    return 3, POW5[tile - 27]


TILE_GROUP: Final = tuple(tile_group(t) for t in range(34))


def group_vectors(keys: Sequence[int], pungs_only: bool = False) -> list[int]:
    """Vector ids of the four groups."""
    return [
        suit_vector(keys[0], pungs_only),
        suit_vector(keys[1], pungs_only),
        suit_vector(keys[2], pungs_only),
        honor_vector(keys[3]),
    ]


def hand_vector(vectors: Sequence[int]) -> int:
    """The combined vector of the four groups."""
    return combine(combine(vectors[0], vectors[1]), combine(vectors[2], vectors[3]))


def distance(counts: Sequence[int], k: int, pungs_only: bool = False) -> int:
    """Regular distance of the counts with ``k`` sets to make (``2k - value``)."""
    return 2 * k - value(hand_vector(group_vectors(group_keys(counts), pungs_only)), k)


def rests(vectors: Sequence[int]) -> tuple[int, ...]:
    """For each group, the combination of the other three (typed ``tuple[int, ...]``: compiled,
    a fixed-length tuple is a C struct, boxed into a new tuple at each index by a variable)."""
    a, b, c, h = vectors[0], vectors[1], vectors[2], vectors[3]  # no iterator over a Sequence
    ab = combine(a, b)
    ch = combine(c, h)
    return combine(b, ch), combine(a, ch), combine(ab, h), combine(ab, c)


_neighbours: Final[dict[int, tuple[int, ...]]] = {}
"""Per group key (honours flagged): the vector id of the group with one more tile of each rank
or kind, -1 where a drawn tile cannot help (no held tile within two ranks, an honour not held,
or four held)."""
_without: Final[dict[int, tuple[int, ...]]] = {}
"""Per group key (honours flagged): the vector id of the group less one tile of each rank or
kind, -1 where none is held."""


def _group_vector(key: int, honors: bool) -> int:
    return honor_vector(key) if honors else suit_vector(key)


def _digits(key: int, honors: bool) -> list[int]:
    return [key // POW5[r] % 5 for r in range(7 if honors else 9)]


def neighbours(key: int, honors: bool) -> tuple[int, ...]:
    """The vector ids of the group ``key`` with one more tile of each rank (-1 where that tile
    cannot raise any hand's value: a lone tile adds nothing), cached per key."""
    cache_key = key << 1 | honors
    found = _neighbours.get(cache_key)
    if found is None:
        digits = _digits(key, honors)
        n = len(digits)
        out = []
        for r in range(n):  # native loops when compiled
            near = digits[r] > 0
            if not honors:
                for q in range(max(0, r - 2), min(n, r + 3)):
                    if digits[q]:
                        near = True
                        break
            out.append(_group_vector(key + POW5[r], honors) if near and digits[r] < 4 else -1)
        found = _neighbours[cache_key] = tuple(out)
    return found


def without(key: int, honors: bool) -> tuple[int, ...]:
    """The vector ids of the group ``key`` less one tile of each rank (-1 where none is held),
    cached per key."""
    cache_key = key << 1 | honors
    found = _without.get(cache_key)
    if found is None:
        digits = _digits(key, honors)
        found = tuple(
            _group_vector(key - POW5[r], honors) if digits[r] else -1 for r in range(len(digits))
        )
        _without[cache_key] = found
    return found


_improving: Final[dict[int, tuple[int, ...]]] = {}
"""Ranks whose draw raises the value, keyed by the rest's vector, the group key, k and kind."""
_removals: Final[dict[int, tuple[int, ...]]] = {}
"""The discard table of a group, with the same keys."""
_CACHE_LIMIT: Final = 500_000
"""Entries a cache may hold before it starts again: a long simulation must not grow without
limit."""


def improving(rest: int, key: int, k: int, honors: bool) -> tuple[int, ...]:
    """The ranks (0-8, or honour kinds 0-6) of one group whose draw raises the value of the
    hand made of this group (``key``) and the other groups combined (``rest``) with ``k``
    blocks. Only kinds next to a held tile can help (a lone tile adds nothing).

    Few vectors exist (under a hundred in play): a miss is a handful of cached combinations
    of ``rest`` with the group's :func:`neighbours`."""
    cache_key = ((rest << 32 | key) << 3 | k) << 1 | honors
    found = _improving.get(cache_key)
    if found is None:
        values = _values
        current = values[combine(rest, _group_vector(key, honors))][k]
        raised = []
        for r, v in enumerate(neighbours(key, honors)):  # a native loop when compiled
            if v >= 0 and values[combine(rest, v)][k] > current:
                raised.append(r)
        found = tuple(raised)
        if len(_improving) > _CACHE_LIMIT:
            _improving.clear()
        _improving[cache_key] = found
    return found


def removals(rest: int, key: int, k: int, honors: bool) -> tuple[int, ...]:
    """For each rank (0-8, or honour kind 0-6) of one group, the value of the hand (this group
    and ``rest`` combined, ``k`` blocks) once one tile of that rank is taken out (-1 where the
    group holds none): the discard table of a 14-tile hand."""
    cache_key = ((rest << 32 | key) << 3 | k) << 1 | honors
    found = _removals.get(cache_key)
    if found is None:
        values = _values
        found = tuple([values[combine(rest, v)][k] if v >= 0 else -1 for v in without(key, honors)])
        if len(_removals) > _CACHE_LIMIT:
            _removals.clear()
        _removals[cache_key] = found
    return found


def useful_of_keys(keys: Sequence[int], k: int, weights: Sequence[int]) -> int:
    """Sum of ``weights`` over the kinds whose draw raises the regular value of the four group
    ``keys`` with ``k`` sets to make (a 13-tile state: the kinds that lower its distance)."""
    rest = rests(group_vectors(keys))
    total = 0
    for g in range(4):
        key = keys[g]
        if key:
            base = 9 * g
            for r in improving(rest[g], key, k, g == 3):
                total += weights[base + r]
    return total


def useful(counts: Sequence[int], k: int, weights: Sequence[int]) -> int:
    """:func:`useful_of_keys` of 34 counts."""
    return useful_of_keys(group_keys(counts), k, weights)


__all__ = [
    "NEG",
    "POW5",
    "TILE_GROUP",
    "combine",
    "distance",
    "group_keys",
    "group_vectors",
    "hand_vector",
    "honor_vector",
    "improving",
    "neighbours",
    "removals",
    "rests",
    "suit_vector",
    "useful",
    "useful_of_keys",
    "value",
    "vector_pair",
    "vector_plain",
    "without",
]
