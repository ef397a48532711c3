"""Shanten (tiles away from ready) of each winning shape, from tables keyed by suit pattern.

A suit's nine counts are a base-5 key. For each key a table gives the suit's *vector*: for a
budget of ``m`` blocks (0-4) and with or without the pair, the best value ``2 * sets + partial
sets (+1 for the pair)`` its tiles can make with at most ``m`` sets and partial sets. Vectors are
interned as small ints, and the max-plus combination of two vectors is cached too, so the regular
shanten of a hand is four table look-ups and three cached combinations, whatever the tiles.
Shanten is then ``2 * k - value`` with ``k = 4 - melds`` sets to make: 0 is ready (a 13-tile
hand), -1 complete (a 14-tile hand). A 14-tile hand's shanten is the best of its 13-tile hands
after one discard.

Tables fill lazily: a new suit pattern costs one memoised recursion (shared with its
sub-patterns); :func:`build_tables` fills every pattern at once. Like the reference calculator,
shanten counts a kind as a possible draw even when all four copies are held.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .errors import InvalidHandError
from .tiles import NUM_KINDS

SHAPES: Final = (
    "regular",
    "seven_pairs",
    "thirteen_orphans",
    "honors_knitted",
    "knitted_straight",
)
"""The five shapes of ``rules/guobiao.md`` §3.1, in the order :func:`shanten_by_shape` lists them."""

_NEG: Final = -99
_POW5: Final = tuple(5**i for i in range(10))
_GROUP: Final = tuple(min(t // 9, 3) for t in range(NUM_KINDS))
_WEIGHT: Final = tuple(_POW5[t % 9] if t < 27 else _POW5[t - 27] for t in range(NUM_KINDS))
_SUIT_KEYS: Final = 5**9
_HONOR_KEYS: Final = 5**7

# --------------------------------------------------------------------------- vectors

Vector = tuple[int, ...]
"""Ten values: ``v[m]`` without the pair and ``v[5 + m]`` with it, for budgets m = 0..4."""

_EMPTY: Final[Vector] = (0, 0, 0, 0, 0, _NEG, _NEG, _NEG, _NEG, _NEG)
_vectors: list[Vector] = [_EMPTY]
_vector_ids: dict[Vector, int] = {_EMPTY: 0}
_combined: dict[int, int] = {}
_best_of: dict[int, Vector] = {}


def _intern(vector: Vector) -> int:
    index = _vector_ids.get(vector)
    if index is None:
        index = _vector_ids[vector] = len(_vectors)
        _vectors.append(vector)
    return index


def _add_block(vector: Vector, value: int) -> Vector:
    """One more set (value 2) or partial set (value 1): uses one unit of budget."""
    a = vector
    return (
        _NEG, a[0] + value, a[1] + value, a[2] + value, a[3] + value,
        _NEG, a[5] + value, a[6] + value, a[7] + value, a[8] + value,
    )


def _add_pair(vector: Vector) -> Vector:
    """The pair (value 1, no budget): only onto a vector without one."""
    a = vector
    return (_NEG, _NEG, _NEG, _NEG, _NEG, a[0] + 1, a[1] + 1, a[2] + 1, a[3] + 1, a[4] + 1)


def _best(vectors: list[Vector]) -> Vector:
    return tuple(max(column) for column in zip(*vectors, strict=True))


def _convolve(a: Vector, b: Vector) -> Vector:
    """Max-plus combination of two groups' vectors (the pair in at most one of them)."""
    out = []
    for m in range(5):
        out.append(max(a[i] + b[m - i] for i in range(m + 1)))
    for m in range(5):
        out.append(
            max(max(a[5 + i] + b[m - i], a[i] + b[5 + m - i]) for i in range(m + 1))
        )
    return tuple(max(v, _NEG) for v in out)


def _combine(a: int, b: int) -> int:
    """The interned combination of two interned vectors (cached)."""
    key = a << 20 | b
    c = _combined.get(key)
    if c is None:
        c = _combined[key] = _intern(_convolve(_vectors[a], _vectors[b]))
    return c


def _finish(a: int, b: int) -> Vector:
    """Best value per budget k (pair or not) of the combination of two vectors (cached)."""
    key = a << 20 | b
    best = _best_of.get(key)
    if best is None:
        v = _convolve(_vectors[a], _vectors[b])
        best = _best_of[key] = tuple(max(v[m], v[5 + m]) for m in range(5))
    return best


# --------------------------------------------------------------------------- suit patterns

_suit_memo: dict[int, Vector] = {0: _EMPTY}


def _suit_vector(key: int) -> Vector:
    """The vector of one suit's base-5 key (rank 1 is the lowest digit)."""
    while key and key % 5 == 0:
        key //= 5  # a pattern's vector does not depend on where in the suit it sits
    vector = _suit_memo.get(key)
    if vector is not None:
        return vector
    c0 = key % 5
    c1 = key // 5 % 5
    c2 = key // 25 % 5
    options = [_suit_vector(key - 1)]  # the lowest tile is left over
    if c0 >= 3:
        options.append(_add_block(_suit_vector(key - 3), 2))
    if c0 >= 2:
        rest = _suit_vector(key - 2)
        options.append(_add_block(rest, 1))
        options.append(_add_pair(rest))
    if c1:
        if c2:
            options.append(_add_block(_suit_vector(key - 31), 2))
        options.append(_add_block(_suit_vector(key - 6), 1))
    if c2:
        options.append(_add_block(_suit_vector(key - 26), 1))
    vector = _suit_memo[key] = _best(options)
    return vector


def _honor_vector(counts: tuple[int, ...]) -> Vector:
    vector = _EMPTY
    for n in counts:
        if n:
            vector = _convolve(vector, _suit_vector(n))  # a lone kind: no chows
    return vector


# --------------------------------------------------------------------------- per-group facts

_ORPHAN_RANKS: Final = (0, 8)
_KNITTED_RANKS: Final = ((0, 3, 6), (1, 4, 7), (2, 5, 8))

SuitInfo = tuple[int, int, int, int, int]
"""(vector id, tiles, pairs, orphan kinds, orphan pair) of one group's key."""
KnitInfo = tuple[int, int, int, int, int, int]
"""(held 147, held 258, held 369, key without them) of one suit's key, per pattern."""

_suit_info: list[SuitInfo | None] = [None] * _SUIT_KEYS
_honor_info: list[SuitInfo | None] = [None] * _HONOR_KEYS
_knit_info: dict[int, KnitInfo] = {}


def _digits(key: int, n: int) -> tuple[int, ...]:
    return tuple(key // _POW5[i] % 5 for i in range(n))


def _make_suit_info(key: int) -> SuitInfo:
    counts = _digits(key, 9)
    orphans = [counts[r] for r in _ORPHAN_RANKS]
    info = (
        _intern(_suit_vector(key)),
        sum(counts),
        sum(n // 2 for n in counts),
        sum(1 for n in orphans if n),
        int(any(n >= 2 for n in orphans)),
    )
    _suit_info[key] = info
    return info


def _make_honor_info(key: int) -> SuitInfo:
    counts = _digits(key, 7)
    info = (
        _intern(_honor_vector(counts)),
        sum(counts),
        sum(n // 2 for n in counts),
        sum(1 for n in counts if n),
        int(any(n >= 2 for n in counts)),
    )
    _honor_info[key] = info
    return info


def _knit(key: int) -> KnitInfo:
    info = _knit_info.get(key)
    if info is None:
        counts = _digits(key, 9)
        held = [[r for r in ranks if counts[r]] for ranks in _KNITTED_RANKS]
        info = _knit_info[key] = (
            len(held[0]), len(held[1]), len(held[2]),
            key - sum(_POW5[r] for r in held[0]),
            key - sum(_POW5[r] for r in held[1]),
            key - sum(_POW5[r] for r in held[2]),
        )
    return info


def build_tables() -> int:
    """Fill the suit tables for every pattern of at most 14 tiles; return how many there are.

    Optional: the tables otherwise fill as patterns are met.
    """
    filled = 0
    for key in range(_SUIT_KEYS):
        k, total = key, 0
        while k:
            total += k % 5
            k //= 5
        if total <= 14:
            if _suit_info[key] is None:
                _make_suit_info(key)
            filled += 1
    return filled


def table_sizes() -> dict[str, int]:
    """How many entries each cache holds (for the benchmark and tests)."""
    return {
        "suit_patterns": len(_suit_memo),
        "suit_keys": sum(1 for x in _suit_info if x is not None),
        "honor_keys": sum(1 for x in _honor_info if x is not None),
        "vectors": len(_vectors),
        "combinations": len(_combined) + len(_best_of),
    }


# --------------------------------------------------------------------------- the hand

Keys = list[int]
"""Base-5 keys of characters, bamboo, dots and honours."""


def hand_keys(tiles: Iterable[int]) -> Keys:
    """The four group keys of concealed tiles (ints 0-33)."""
    keys = [0, 0, 0, 0]
    group = _GROUP
    weight = _WEIGHT
    try:
        for t in tiles:
            keys[group[t]] += weight[t]
    except (IndexError, TypeError):
        raise InvalidHandError(f"tiles must be ints 0-{NUM_KINDS - 1}") from None
    return keys


def _infos(keys: Keys) -> tuple[SuitInfo, SuitInfo, SuitInfo, SuitInfo]:
    try:
        a = _suit_info[keys[0]] or _make_suit_info(keys[0])
        b = _suit_info[keys[1]] or _make_suit_info(keys[1])
        c = _suit_info[keys[2]] or _make_suit_info(keys[2])
        h = _honor_info[keys[3]] or _make_honor_info(keys[3])
    except IndexError:
        raise InvalidHandError("more than 4 copies of a tile") from None
    return a, b, c, h


def _check(infos: Sequence[SuitInfo], n_tiles: int, melds: int) -> int:
    """The number of sets to make; raise if the tiles and melds are not a 13/14-tile hand."""
    held = infos[0][1] + infos[1][1] + infos[2][1] + infos[3][1]
    if held != n_tiles:
        raise InvalidHandError("more than 4 copies of a tile")
    if not 0 <= melds <= 4 or n_tiles + 3 * melds not in (13, 14):
        raise InvalidHandError(
            f"{n_tiles} concealed tiles and {melds} melds: a hand has 13 or 14 tiles "
            "(a meld counts 3)"
        )
    return 4 - melds


def _regular(infos: Sequence[SuitInfo], k: int) -> int:
    a, b, c, h = infos
    return 2 * k - _finish(_combine(_combine(a[0], b[0]), c[0]), h[0])[k]


def _seven_pairs(infos: Sequence[SuitInfo]) -> int:
    return 6 - (infos[0][2] + infos[1][2] + infos[2][2] + infos[3][2])


def _thirteen_orphans(infos: Sequence[SuitInfo]) -> int:
    a, b, c, h = infos
    kinds = a[3] + b[3] + c[3] + h[3]
    return 13 - kinds - (a[4] | b[4] | c[4] | h[4])


# The six knitted sets as which of 147/258/369 (0/1/2) each suit holds.
_KNITTED_PATTERNS: Final = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))


def _honors_knitted(keys: Keys, infos: Sequence[SuitInfo]) -> int:
    x, y, z = _knit(keys[0]), _knit(keys[1]), _knit(keys[2])
    best = max(x[p] + y[q] + z[r] for p, q, r in _KNITTED_PATTERNS)
    return 13 - min(best + infos[3][3], 14)


def _knitted_straight(keys: Keys, infos: Sequence[SuitInfo], k: int, bound: int) -> int:
    """Knitted straight shanten, or ``bound`` if it cannot be lower than ``bound``."""
    x, y, z = _knit(keys[0]), _knit(keys[1]), _knit(keys[2])
    k -= 3  # the knitted tiles stand for three of the sets
    h = infos[3][0]
    best = bound
    for p, q, r in _KNITTED_PATTERNS:
        missing = 9 - x[p] - y[q] - z[r]
        if missing - 1 >= best:
            continue  # the rest can at best be complete (-1)
        a = _suit_info[x[3 + p]] or _make_suit_info(x[3 + p])
        b = _suit_info[y[3 + q]] or _make_suit_info(y[3 + q])
        c = _suit_info[z[3 + r]] or _make_suit_info(z[3 + r])
        value = missing + 2 * k - _finish(_combine(_combine(a[0], b[0]), c[0]), h)[k]
        if value < best:
            best = value
    return best


def shanten(tiles: Sequence[int], melds: int = 0) -> int:
    """Shanten of concealed ``tiles`` (ints 0-33) plus ``melds`` declared sets, any shape.

    13 or 14 tiles in all (a meld counts 3): 0 is ready, -1 a complete 14-tile hand. Raises
    :class:`~majiang.errors.InvalidHandError` for other counts or a fifth copy.
    """
    keys = hand_keys(tiles)
    infos = _infos(keys)
    k = _check(infos, len(tiles), melds)
    best = _regular(infos, k)
    if melds == 0:
        other = _seven_pairs(infos)
        if other < best:
            best = other
        other = _thirteen_orphans(infos)
        if other < best:
            best = other
        other = _honors_knitted(keys, infos)
        if other < best:
            best = other
    if melds <= 1 and best > -1:
        best = _knitted_straight(keys, infos, k, best)
    return best


def shanten_of_keys(keys: Keys, n_tiles: int, melds: int = 0) -> int:
    """:func:`shanten` of group keys (see :func:`hand_keys`), for callers that update keys."""
    infos = _infos(keys)
    k = _check(infos, n_tiles, melds)
    best = _regular(infos, k)
    if melds == 0:
        best = min(best, _seven_pairs(infos), _thirteen_orphans(infos),
                   _honors_knitted(keys, infos))
    if melds <= 1 and best > -1:
        best = _knitted_straight(keys, infos, k, best)
    return best


def regular_shanten(tiles: Sequence[int], melds: int = 0) -> int:
    """Shanten towards four sets and a pair (melds count as sets)."""
    infos = _infos(hand_keys(tiles))
    return _regular(infos, _check(infos, len(tiles), melds))


def seven_pairs_shanten(tiles: Sequence[int], melds: int = 0) -> int | None:
    """Shanten towards seven pairs (four of a kind is two pairs); None with melds."""
    infos = _infos(hand_keys(tiles))
    _check(infos, len(tiles), melds)
    return _seven_pairs(infos) if melds == 0 else None


def thirteen_orphans_shanten(tiles: Sequence[int], melds: int = 0) -> int | None:
    """Shanten towards thirteen orphans; None with melds."""
    infos = _infos(hand_keys(tiles))
    _check(infos, len(tiles), melds)
    return _thirteen_orphans(infos) if melds == 0 else None


def honors_knitted_shanten(tiles: Sequence[int], melds: int = 0) -> int | None:
    """Shanten towards honours and knitted tiles (全不靠); None with melds."""
    keys = hand_keys(tiles)
    infos = _infos(keys)
    _check(infos, len(tiles), melds)
    return _honors_knitted(keys, infos) if melds == 0 else None


def knitted_straight_shanten(tiles: Sequence[int], melds: int = 0) -> int | None:
    """Shanten towards a knitted straight plus a set and a pair; None with two or more melds."""
    keys = hand_keys(tiles)
    infos = _infos(keys)
    k = _check(infos, len(tiles), melds)
    return _knitted_straight(keys, infos, k, 99) if melds <= 1 else None


def shanten_by_shape(tiles: Sequence[int], melds: int = 0) -> dict[str, int]:
    """Shanten of each shape that the melds still allow, by name (see :data:`SHAPES`)."""
    keys = hand_keys(tiles)
    infos = _infos(keys)
    k = _check(infos, len(tiles), melds)
    out = {"regular": _regular(infos, k)}
    if melds == 0:
        out["seven_pairs"] = _seven_pairs(infos)
        out["thirteen_orphans"] = _thirteen_orphans(infos)
        out["honors_knitted"] = _honors_knitted(keys, infos)
    if melds <= 1:
        out["knitted_straight"] = _knitted_straight(keys, infos, k, 99)
    return out


__all__ = [
    "SHAPES",
    "build_tables",
    "hand_keys",
    "honors_knitted_shanten",
    "knitted_straight_shanten",
    "regular_shanten",
    "seven_pairs_shanten",
    "shanten",
    "shanten_by_shape",
    "shanten_of_keys",
    "table_sizes",
    "thirteen_orphans_shanten",
]
