"""Block values of partial hands, for bots: regular-shape distances with restrictions, fast.

A group (one suit's nine ranks, or honours) is a base-5 key of its counts, and its *vector* the
best ``2 * sets + partial sets (+1 for the pair)`` for each budget of blocks: the table of
:mod:`majiang.shanten` (this module reads the same vectors and their cached combinations). On it
this module builds what bots ask of a hand, or of a hand restricted to some groups, or read as
pungs only: distances, the draws that raise the value and the value left by each discard, each
cached per group key. The distance with ``k`` sets still to make is ``2 * k - value``: 0 is
ready (13 tiles), -1 complete (14 tiles); for a 14-tile hand it is the best after one discard.

Unlike :func:`majiang.shanten.shanten` this module knows nothing of the special shapes and
accepts any number of tiles: bots use it to measure distances to target patterns whose tiles
are only part of the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..shanten import (
    BEST_VALUES,
    POW5,
    combine,
    group_keys,
    group_vectors,
    hand_vector,
    honor_vector,
    suit_vector,
    value,
    vector_pair,
    vector_plain,
)

# --------------------------------------------------------------------------- hands


def tile_group(tile: int) -> tuple[int, int]:
    """(group, what one tile adds to the group's key)."""
    if tile < 27:
        return tile // 9, POW5[tile % 9]
    return 3, POW5[tile - 27]


TILE_GROUP: Final = tuple(tile_group(t) for t in range(34))


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
        values = BEST_VALUES
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
        values = BEST_VALUES
        found = tuple([values[combine(rest, v)][k] if v >= 0 else -1 for v in without(key, honors)])
        if len(_removals) > _CACHE_LIMIT:
            _removals.clear()
        _removals[cache_key] = found
    return found


def improving_kinds(keys: Sequence[int], vectors: Sequence[int], k: int) -> list[int]:
    """The kinds, in order, whose draw raises the regular value of the four group ``keys``
    (``vectors`` their vector ids) with ``k`` sets to make."""
    rest = rests(vectors)
    out: list[int] = []
    for g in range(4):
        key = keys[g]
        if key:
            base = 9 * g
            for r in improving(rest[g], key, k, g == 3):
                out.append(base + r)
    return out


def discard_values(keys: Sequence[int], vectors: Sequence[int], k: int) -> list[int]:
    """For each kind (34), the regular value of the four group ``keys`` (``vectors`` their vector
    ids, ``k`` blocks) once one tile of it is discarded, -1 where none is held."""
    rest = rests(vectors)
    out = [-1] * 34
    for g in range(4):
        key = keys[g]
        if key:
            found = removals(rest[g], key, k, g == 3)
            base = 9 * g
            out[base : base + len(found)] = found
    return out


def useful_of_keys(keys: Sequence[int], k: int, weights: Sequence[int]) -> int:
    """Sum of ``weights`` over the kinds whose draw raises the regular value of the four group
    ``keys`` with ``k`` sets to make (a 13-tile state: the kinds that lower its distance)."""
    total = 0
    for t in improving_kinds(keys, group_vectors(keys), k):
        total += weights[t]
    return total


def useful(counts: Sequence[int], k: int, weights: Sequence[int]) -> int:
    """:func:`useful_of_keys` of 34 counts."""
    return useful_of_keys(group_keys(counts), k, weights)


__all__ = [
    "POW5",
    "TILE_GROUP",
    "combine",
    "discard_values",
    "distance",
    "group_keys",
    "group_vectors",
    "hand_vector",
    "honor_vector",
    "improving",
    "improving_kinds",
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
