"""Shanten (tiles away from ready) of each winning shape, from tables keyed by suit pattern.

A suit's nine counts are a base-5 key. For each key a table gives the suit's *vector*: for a
budget of ``m`` blocks (0-4), with and without the pair, the best value ``2 * sets + partial sets
(+1 for the pair)`` its tiles can make with at most ``m`` sets and partial sets. There are only a
couple of hundred distinct vectors, so they are interned as small ints and the max-plus
combination of two of them is cached too: the regular shanten of any hand is four table look-ups
and three cached combinations. With ``k = 4 - melds`` sets to make, shanten is
``2 * k - value``: 0 is ready (a 13-tile hand), -1 complete (a 14-tile hand); a 14-tile hand's
shanten is the best of its 13-tile hands after one discard. The special shapes need only
per-suit counts kept beside the vector (pairs, orphans, knitted tiles), and the knitted straight
re-reads the rest of the hand with the same tables.

The vectors are the one block table of the project: the bots' block values
(:mod:`majiang.bots.blocks`) and the regular shape with jokers (:func:`wild_regular_shanten`,
Huangyan's winning-shape test and its bot's shanten) read the same vectors and combinations.

The tables fill lazily: a suit pattern seen for the first time costs one memoised recursion that
shares its sub-patterns with every other pattern. Like the reference calculator, shanten does not
look at the fourth copy: a kind counts as a possible draw even when all four are held.
"""

from __future__ import annotations

from collections.abc import Sequence
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
"""The five shapes of ``rules/guobiao.md`` §3.1, in :func:`shanten_by_shape`'s order."""

# --------------------------------------------------------------------------- hand keys

_BITS: Final = 21
"""Bits of one group in a hand key (5**9 < 2**21)."""
_MASK: Final = (1 << _BITS) - 1
POW5: Final[tuple[int, ...]] = tuple(5**i for i in range(14))  # typed: ``5**i`` is Any
"""Powers of 5: the weight of each rank (or honour kind) in a group key."""
_SUIT_KEYS: Final = 5**9
_HONOR_KEYS: Final = 5**7

TILE_KEYS: Final[tuple[int, ...]] = tuple(
    POW5[t % 9] << (_BITS * (t // 9)) if t < 27 else POW5[t - 27] << (3 * _BITS)
    for t in range(NUM_KINDS)
)
"""What one tile adds to a hand key: the hand key of tiles is the sum of theirs."""
_TILE_KEY: Final = dict(enumerate(TILE_KEYS)).__getitem__


def hand_key(tiles: Sequence[int]) -> int:
    """The hand key of concealed tiles (ints 0-33): four base-5 group keys in one int.

    Keys add: ``hand_key(a + b) == hand_key(a) + hand_key(b)``, so a caller that draws and
    discards can keep one up to date with :data:`TILE_KEYS` and call :func:`shanten_of_key`.
    """
    try:
        return sum(map(_TILE_KEY, tiles))
    except (KeyError, TypeError):
        items: Sequence[object] = tiles  # any objects: compiled code would check them for int
        bad = next((t for t in items if t not in range(NUM_KINDS)), None)
        raise InvalidHandError(f"not a tile: {bad!r} (tiles are ints 0-33)") from None


# --------------------------------------------------------------------------- block vectors

NEG: Final = -99
"""A value out of reach (no pair where one is asked for)."""
Vector = tuple[int, ...]
"""Ten values: ``v[m]`` without the pair and ``v[5 + m]`` with it, for budgets m = 0..4."""

_EMPTY: Final[Vector] = (0, 0, 0, 0, 0, NEG, NEG, NEG, NEG, NEG)
_vectors: Final[list[Vector]] = [_EMPTY]
_vector_ids: Final[dict[Vector, int]] = {_EMPTY: 0}
BEST_VALUES: Final[list[tuple[int, ...]]] = [(0, 0, 0, 0, 0)]
"""Per vector id: the best value for each budget, pair or not (see :func:`value`)."""
_ROW: Final = 512
_rows: Final[list[list[int]]] = [[-1] * _ROW]
"""``_rows[a][b]``: the combination of the vectors ``a <= b`` (b under ``_ROW``), -1 until asked.
A list look-up: a dict would need a boxed key and its hash, and a bot's turn asks for several
hundred thousand. Fewer than 300 vectors exist."""
_conv: Final[dict[int, int]] = {}
"""Combinations past the rows, keyed by ``a << 20 | b`` (not reached in practice)."""


def _intern(vector: Vector) -> int:
    index = _vector_ids.get(vector)
    if index is None:
        index = _vector_ids[vector] = len(_vectors)
        _vectors.append(vector)
        if index < _ROW:
            _rows.append([-1] * _ROW)
        BEST_VALUES.append(tuple([max(vector[m], vector[5 + m]) for m in range(5)]))
    return index


def _block(a: Vector, gain: int) -> Vector:
    """One more (partial) set worth ``gain``: one unit of budget."""
    return (NEG, a[0] + gain, a[1] + gain, a[2] + gain, a[3] + gain,
            NEG, a[5] + gain, a[6] + gain, a[7] + gain, a[8] + gain)


def _pair(a: Vector) -> Vector:
    """The pair: value 1, no budget, onto a vector without one."""
    return (NEG, NEG, NEG, NEG, NEG, a[0] + 1, a[1] + 1, a[2] + 1, a[3] + 1, a[4] + 1)


def _max(a: Vector, b: Vector) -> Vector:
    # spelled out: compiled, a generator over zip() boxes both vectors and every value
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
    """The vector id of one suit's base-5 key (rank 1 the lowest digit), read with chows and
    pungs or with pungs only."""
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
        row = _rows[a]
        found = row[b]
        if found < 0:
            found = row[b] = _combined(a, b)
        return found
    key = a << 20 | b
    known = _conv.get(key)
    if known is None:
        known = _conv[key] = _combined(a, b)
    return known


def max_plus(x: Vector, y: Vector) -> Vector:
    """The max-plus combination of two groups' ten-value vectors (see ``Vector``): for each
    budget, the best split of it between the two, the pair in at most one (-99: none).
    Native loops when compiled (nested generators cost several µs a call)."""
    out = []
    for m in range(5):
        best = NEG
        for i in range(m + 1):
            v = x[i] + y[m - i]
            if v > best:
                best = v
        out.append(best)
    for m in range(5):
        best = NEG
        for i in range(m + 1):
            v = x[5 + i] + y[m - i]
            if v > best:
                best = v
            v = x[i] + y[5 + m - i]
            if v > best:
                best = v
        out.append(best)
    return tuple(out)


def _combined(a: int, b: int) -> int:
    return _intern(max_plus(_vectors[a], _vectors[b]))


def value(vector: int, k: int) -> int:
    """The best value of a vector with ``k`` blocks (pair or not)."""
    return BEST_VALUES[vector][k]


def vector_plain(vector: int, k: int) -> int:
    """The best value of a vector with ``k`` blocks and no pair."""
    return _vectors[vector][k]


def vector_pair(vector: int, k: int) -> int:
    """The best value of a vector with ``k`` blocks that includes the pair."""
    return _vectors[vector][5 + k]


# --------------------------------------------------------------------------- counts and jokers


def group_keys(counts: Sequence[int]) -> list[int]:
    """The four group keys (characters, bamboo, dots, honours; base 5) of 34 counts (0-4)."""
    keys = [0, 0, 0, 0]
    for t in range(NUM_KINDS):
        n = counts[t]
        if n:
            g = t // 9 if t < 27 else 3
            keys[g] = keys[g] + n * POW5[t - 9 * g]  # native when compiled (see bots.view)
    return keys


def group_vectors(keys: Sequence[int], pungs_only: bool = False) -> list[int]:
    """Vector ids of the four groups' keys."""
    return [
        suit_vector(keys[0], pungs_only),
        suit_vector(keys[1], pungs_only),
        suit_vector(keys[2], pungs_only),
        honor_vector(keys[3]),
    ]


def hand_vector(vectors: Sequence[int]) -> int:
    """The combined vector of the four groups."""
    return combine(combine(vectors[0], vectors[1]), combine(vectors[2], vectors[3]))


def wild_regular_shanten(counts: Sequence[int], jokers: int, melds: int) -> int:
    """Shanten of four sets and a pair: 34 counts (0-4 each, not checked) plus ``jokers`` tiles
    that stand for any tile plus ``melds`` declared sets, 13 or 14 tiles in all.

    With ``k = 4 - melds`` sets to make and ``V`` the block value of the counts, the best target
    hand uses ``min(N, V + k + 1)`` of the ``N`` counted tiles and each joker fills one missing
    tile, so the shanten is ``max(2k - V - jokers, 13 - 3 * melds - N - jokers)``: 0 is ready
    (13 tiles), -1 complete (14 tiles). Target hands may hold any number of copies of a tile.
    """
    k = 4 - melds
    n = sum(counts)
    shanten = 2 * k - BEST_VALUES[hand_vector(group_vectors(group_keys(counts)))][k] - jokers
    floor = 13 - 3 * melds - n - jokers
    return shanten if shanten > floor else floor


# --------------------------------------------------------------------------- per-group facts

Info = tuple[int, ...]
"""(vector id, tiles, pairs, orphan kinds, orphan pair 0/1, knitted, residue) of one group's key.

Knitted: for a suit, the distinct ranks held of 147, 258 and 369, two bits each; for the honours,
the distinct kinds held. Residue: 0, 1 or 4 for tiles ≡ 0, 1 or 2 (mod 3), so that the four
groups' residues add up to the count of groups ≡ 1 plus four times the count of groups ≡ 2
(:func:`is_ready_of_key`).

Typed as a tuple of any length on purpose: compiled code keeps it a Python tuple, where a
fixed-length tuple type would be unpacked into a C struct and boxed again at every hand-off.
"""
_RESIDUE: Final = (0, 1, 4)
_KNITTED_RANKS: Final = ((0, 3, 6), (1, 4, 7), (2, 5, 8))

_suit_info: Final[dict[int, Info]] = {}
_honor_info: Final[dict[int, Info]] = {}
"""By key, filled on first use. Dicts, not lists indexed by key: the garbage collector walks
every slot of a list on each full collection, and a list of all 5**9 suit keys made that a
tenth of a simulation's time, for the few thousand keys play ever reaches."""
_knit_info: Final[dict[int, tuple[int, ...]]] = {}


def _digits(key: int, n: int) -> list[int]:
    digits = []
    for i in range(n):
        digits.append(key // POW5[i] % 5)
    return digits


def _make_suit(key: int) -> Info:
    if key >= _SUIT_KEYS:
        raise InvalidHandError("more than 4 copies of a tile")  # a fifth copy carried over
    c = _digits(key, 9)
    tiles = pairs = knitted = 0
    for r in range(9):  # one native loop (generator sums are not, compiled)
        n = c[r]
        tiles += n
        pairs += n >> 1
        if n:
            knitted += 1 << 2 * (r % 3)  # held ranks of 147, 258, 369: two bits each
    info = (
        suit_vector(key),
        tiles,
        pairs,
        (c[0] > 0) + (c[8] > 0),
        int(c[0] >= 2 or c[8] >= 2),
        knitted,
        _RESIDUE[tiles % 3],
    )
    _suit_info[key] = info
    return info


def _make_honor(key: int) -> Info:
    if key >= _HONOR_KEYS:
        raise InvalidHandError("more than 4 copies of a tile")
    c = _digits(key, 7)
    kinds = sum(1 for n in c if n)
    info = (
        honor_vector(key), sum(c), sum(n // 2 for n in c), kinds, int(max(c) >= 2), kinds,
        _RESIDUE[sum(c) % 3],
    )  # fmt: skip
    _honor_info[key] = info
    return info


def _knit(key: int) -> tuple[int, ...]:
    """Knitted tiles held of 147, 258, 369, then the key without one of each of them."""
    info = _knit_info.get(key)
    if info is None:
        c = _digits(key, 9)
        held = [[r for r in ranks if c[r]] for ranks in _KNITTED_RANKS]
        info = _knit_info[key] = (
            len(held[0]), len(held[1]), len(held[2]),
            key - sum(POW5[r] for r in held[0]),
            key - sum(POW5[r] for r in held[1]),
            key - sum(POW5[r] for r in held[2]),
        )
    return info


def table_sizes() -> dict[str, int]:
    """How many entries each lazily filled table holds (for the benchmark and tests)."""
    return {
        "suit_patterns": len(_suits[0]) + len(_suits[1]),
        "suit_keys": len(_suit_info),
        "honor_keys": len(_honor_info),
        "knitted_keys": len(_knit_info),
        "vectors": len(_vectors),
        "cached_operations": len(_conv) + sum(1 for row in _rows for x in row if x != -1),
    }


# --------------------------------------------------------------------------- the shapes

def _infos(key: int, n_tiles: int, melds: int) -> tuple[Info, Info, Info, Info]:
    """The four groups' facts; raise unless the key holds ``n_tiles`` tiles of a legal hand."""
    k0 = key & _MASK
    k1 = key >> _BITS & _MASK
    k2 = key >> 2 * _BITS & _MASK
    k3 = key >> 3 * _BITS
    a = _group_info(0, k0)
    b = _group_info(1, k1)
    c = _group_info(2, k2)
    h = _group_info(3, k3)
    if a[1] + b[1] + c[1] + h[1] != n_tiles:
        raise InvalidHandError("more than 4 copies of a tile")
    if n_tiles + 3 * melds not in (13, 14) or not 0 <= melds <= 4:
        raise InvalidHandError(
            f"{n_tiles} concealed tiles and {melds} melds: a hand has 13 or 14 tiles "
            "(a meld counts 3)"
        )
    return a, b, c, h


def _regular(a: Info, b: Info, c: Info, h: Info, k: int) -> int:
    """The regular shape's shanten with ``k`` sets to make, from the four groups' facts (three
    combinations read from the rows: this is every bot turn's hot path)."""
    return 2 * k - BEST_VALUES[combine(combine(combine(a[0], b[0]), c[0]), h[0])][k]


# The six knitted sets, as which of 147/258/369 (0/1/2) each suit holds.
_KNITTED_PATTERNS: Final = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))


_two_suits: Final[dict[int, tuple[int, int, int]]] = {}
"""For the knitted fields of characters and bamboo: the most knitted tiles they hold when dots
take 147, 258 or 369 (4,096 keys at most)."""


def _knitted(a: Info, b: Info, c: Info) -> int:
    """The most tiles of one knitted set held (distinct), from the suits' knitted fields."""
    key = a[5] << 6 | b[5]
    two = _two_suits.get(key)
    if two is None:
        x, y = a[5], b[5]
        best = [0, 0, 0]
        for p, q, r in _KNITTED_PATTERNS:
            best[r] = max(best[r], (x >> 2 * p & 3) + (y >> 2 * q & 3))
        two = _two_suits[key] = (best[0], best[1], best[2])
    z = c[5]
    return max(two[0] + (z & 3), two[1] + (z >> 2 & 3), two[2] + (z >> 4))


def _knitted_straight(key: int, h: int, k: int, bound: int) -> int:
    """Knitted straight shanten (``k`` sets to make, ``h`` the honours' vector id), or ``bound``
    if it is not lower than ``bound``."""
    x = _knit(key & _MASK)
    y = _knit(key >> _BITS & _MASK)
    z = _knit(key >> 2 * _BITS & _MASK)
    k -= 3  # the nine knitted tiles stand for three sets
    best = bound
    for p, q, r in _KNITTED_PATTERNS:
        missing = 9 - x[p] - y[q] - z[r]
        if missing - 1 >= best:
            continue  # the rest is at best complete
        a = _group_info(0, x[3 + p])
        b = _group_info(1, y[3 + q])
        c = _group_info(2, z[3 + r])
        rest = BEST_VALUES[combine(combine(combine(a[0], b[0]), c[0]), h)][k]
        if missing + 2 * k - rest < best:
            best = missing + 2 * k - rest
    return best


def shanten_of_key(key: int, n_tiles: int, melds: int = 0) -> int:
    """:func:`shanten` of a :func:`hand_key` holding ``n_tiles`` concealed tiles."""
    a, b, c, h = _infos(key, n_tiles, melds)
    k = 4 - melds
    best = _regular(a, b, c, h, k)
    if melds > 1 or best <= 13 - n_tiles - 3 * melds:
        return best  # no other shape, or nothing beats ready (13 tiles) or complete (14)
    knitted = _knitted(a, b, c)
    if melds == 0:
        other = _concealed_shapes(a, b, c, h, knitted)
        if other < best:
            best = other
    if 8 - knitted < best:
        best = _knitted_straight(key, h[0], k, best)
    return best


def special_shanten_of_key(key: int, n_tiles: int, melds: int, bound: int) -> int:
    """The lowest shanten of the shapes other than the regular one (seven pairs, thirteen
    orphans, the two knitted shapes) of a :func:`hand_key`, or ``bound`` if none is lower: the
    rest of :func:`shanten_of_key` for a caller that knows the regular shape's."""
    if melds > 1:
        return bound
    a, b, c, h = _infos(key, n_tiles, melds)
    knitted = _knitted(a, b, c)
    best = bound
    if melds == 0:
        other = _concealed_shapes(a, b, c, h, knitted)
        if other < best:
            best = other
    if 8 - knitted < best:
        best = _knitted_straight(key, h[0], 4 - melds, best)
    return best


_REGULAR_RESIDUES: Final = (1, 8)
"""The sums of the four groups' residues (``Info``) of the 13-tile hands that may be one tile
from sets and a pair: a complete hand's groups hold ≡ 0, 0, 0, 2 tiles (mod 3) and the tile adds
one to one group, so a ready hand's groups hold ≡ 0, 0, 0, 1 (sum 1) or 0, 0, 2, 2 (sum 8)."""


def is_ready_of_key(key: int, n_tiles: int, melds: int = 0) -> bool:
    """Whether a 13-tile :func:`hand_key` (``n_tiles + 3 * melds == 13``) is ready, i.e.
    ``shanten_of_key(key, n_tiles, melds) == 0``, faster on the hands that are not (nearly
    all of them, in play): the regular shape's tables are read only for the hands whose tile
    counts per group allow it (:data:`_REGULAR_RESIDUES`, about one hand in three), and the
    special shapes are tested only as far as being ready goes (the knitted straight only with
    eight knitted tiles).
    """
    if n_tiles + 3 * melds != 13 or melds < 0:
        raise InvalidHandError(
            f"{n_tiles} concealed tiles and {melds} melds: a ready test needs a 13-tile hand"
        )
    a, b, c, h = _infos(key, n_tiles, melds)
    k = 4 - melds
    if a[6] + b[6] + c[6] + h[6] in _REGULAR_RESIDUES and _regular(a, b, c, h, k) <= 0:
        return True
    if melds > 1:
        return False  # the special shapes need a concealed hand, or all but one meld of it
    knitted = _knitted(a, b, c)
    if melds == 0 and _concealed_shapes(a, b, c, h, knitted) <= 0:
        return True
    return knitted >= 8 and _knitted_straight(key, h[0], k, 1) <= 0


def _concealed_shapes(a: Info, b: Info, c: Info, h: Info, knitted: int) -> int:
    """The lowest shanten of the shapes that need a concealed hand: seven pairs, thirteen
    orphans, honours and knitted tiles (``knitted``: :func:`_knitted` of the three suits)."""
    return min(
        6 - a[2] - b[2] - c[2] - h[2],
        13 - a[3] - b[3] - c[3] - h[3] - (a[4] | b[4] | c[4] | h[4]),
        13 - min(knitted + h[5], 14),
    )


def shanten(tiles: Sequence[int], melds: int = 0) -> int:
    """Shanten of concealed ``tiles`` (ints 0-33) plus ``melds`` declared sets, any shape.

    13 or 14 tiles in all (a meld counts 3): 0 is ready, -1 a complete 14-tile hand. Raises
    :class:`~majiang.errors.InvalidHandError` for other counts or a fifth copy.
    """
    try:
        key = sum(map(_TILE_KEY, tiles))
    except (KeyError, TypeError):
        key = hand_key(tiles)  # raises the error
    return shanten_of_key(key, len(tiles), melds)


def shanten_by_shape_of_key(key: int, n_tiles: int, melds: int = 0) -> dict[str, int]:
    """:func:`shanten_by_shape` of a :func:`hand_key`."""
    a, b, c, h = _infos(key, n_tiles, melds)
    k = 4 - melds
    out = {"regular": _regular(a, b, c, h, k)}
    if melds == 0:
        out["seven_pairs"] = 6 - a[2] - b[2] - c[2] - h[2]
        out["thirteen_orphans"] = 13 - a[3] - b[3] - c[3] - h[3] - (a[4] | b[4] | c[4] | h[4])
        out["honors_knitted"] = 13 - min(_knitted(a, b, c) + h[5], 14)
    if melds <= 1:
        out["knitted_straight"] = _knitted_straight(key, h[0], k, 99)
    return out


def shanten_by_shape(tiles: Sequence[int], melds: int = 0) -> dict[str, int]:
    """Shanten of each shape the melds allow, by name in the order of :data:`SHAPES`.

    Seven pairs, thirteen orphans and honours-and-knitted need a concealed hand; the knitted
    straight allows one meld. Shapes out of reach are left out.
    """
    return shanten_by_shape_of_key(hand_key(tiles), len(tiles), melds)


_NEAR: Final = tuple(
    sum(1 << u for u in range(max(t - t % 9, t - 2), min(t - t % 9 + 9, t + 3))) if t < 27
    else 1 << t
    for t in range(NUM_KINDS)
)
"""For each kind, the kinds a drawn tile must be to form a (partial) set with it."""
_ORPHAN_MASK: Final = sum(1 << t for t in (0, 8, 9, 17, 18, 26, *range(27, NUM_KINDS)))
_ALL_KINDS: Final = (1 << NUM_KINDS) - 1


_NO_WAITS: Final[frozenset[int]] = frozenset()


def waiting_tiles_of_key(key: int, counts: list[int], melds: int) -> frozenset[int]:
    """The winning tiles of a ready hand (any shape) given by its :func:`hand_key` and its 34
    concealed counts; empty if it is not ready. A quick ready test comes first: nearly every
    hand a table asks about is not ready (Guobiao's ``waiting_tiles_of_key``, compiled with
    this module so that the table's call runs no Python frame)."""
    n_tiles = 0
    for t in range(NUM_KINDS):
        n_tiles += counts[t]
    if n_tiles + 3 * melds != 13:  # never asked by a table
        if shanten_of_key(key, n_tiles, melds) != 0:
            return _NO_WAITS
        raise InvalidHandError(
            f"waits need a 13-tile hand, not {n_tiles + 3 * melds} (a meld counts 3)"
        )
    if not is_ready_of_key(key, n_tiles, melds):
        return _NO_WAITS
    return frozenset(useful_of_key(key, n_tiles, melds, counts))


def useful_of_key(key: int, n_tiles: int, melds: int, counts: Sequence[int]) -> list[int]:
    """Kinds whose draw lowers the shanten of a 13-tile :func:`hand_key` (``counts``: the same
    concealed tiles as 34 counts). Kinds held four times are left out: they cannot be drawn.

    A draw lowers a shape by at most one, so only the shapes at the hand's shanten matter, and
    the regular shape, seven pairs and thirteen orphans can only use a few kinds: the others are
    not tried.
    """
    a, b, c, h = _infos(key, n_tiles, melds)
    current = shanten_of_key(key, n_tiles, melds)
    k = 4 - melds
    held = near = 0
    for t in range(NUM_KINDS):
        if counts[t]:
            held |= 1 << t
            near |= _NEAR[t]
    wanted = near if _regular(a, b, c, h, k) == current else 0
    special = False  # a shape other than the regular one is at the hand's shanten
    if melds <= 1:
        knitted = _knitted(a, b, c)
        if melds == 0:
            if 6 - a[2] - b[2] - c[2] - h[2] == current:
                wanted |= held
                special = True
            if 13 - a[3] - b[3] - c[3] - h[3] - (a[4] | b[4] | c[4] | h[4]) == current:
                wanted |= _ORPHAN_MASK
                special = True
            if 13 - min(knitted + h[5], 14) == current:
                wanted = _ALL_KINDS
                special = True
        if 8 - knitted <= current and _knitted_straight(key, h[0], k, current + 1) == current:
            wanted = _ALL_KINDS
            special = True
    n = n_tiles + 1
    if current == 0:
        return _waits(key, (a, b, c, h), melds, counts, wanted, special)
    return [
        t
        for t in range(NUM_KINDS)
        if wanted >> t & 1
        and counts[t] < 4
        and shanten_of_key(key + TILE_KEYS[t], n, melds) < current
    ]


def _waits(
    key: int, infos: tuple[Info, Info, Info, Info], melds: int, counts: Sequence[int],
    wanted: int, special: bool,
) -> list[int]:
    """The ``wanted`` kinds (held fewer than four times) that complete a ready hand: the group
    the tile joins is looked up again, the other three are reused (the table asks this each time
    a ready seat changes its hand). The shapes other than the regular one are tried only if
    ``special`` (one of them is ready: a tile lowers a shanten by one at most)."""
    keys = (key & _MASK, key >> _BITS & _MASK, key >> 2 * _BITS & _MASK, key >> 3 * _BITS)
    k = 4 - melds
    out = []
    for t in range(NUM_KINDS):
        if not wanted >> t & 1 or counts[t] >= 4:
            continue
        g = t // 9 if t < 27 else 3
        info = _group_info(g, keys[g] + POW5[t - 9 * g])
        a, b, c, h = (
            info if g == 0 else infos[0],
            info if g == 1 else infos[1],
            info if g == 2 else infos[2],
            info if g == 3 else infos[3],
        )
        if _regular(a, b, c, h, k) < 0 or (
            special and _special_complete(key + TILE_KEYS[t], a, b, c, h, melds)
        ):
            out.append(t)
    return out


def _group_info(group: int, key: int) -> Info:
    """The facts of one group's key (0-2 a suit, 3 the honours)."""
    if group < 3:
        return _suit_info.get(key) or _make_suit(key)
    return _honor_info.get(key) or _make_honor(key)


def _special_complete(key: int, a: Info, b: Info, c: Info, h: Info, melds: int) -> bool:
    """Whether a 14-tile hand (at most one meld) is complete in a shape other than the regular
    one (their shanten formulas of :func:`shanten_of_key` at -1)."""
    knitted = _knitted(a, b, c)
    if melds == 0 and _concealed_shapes(a, b, c, h, knitted) < 0:
        return True
    return knitted == 9 and _knitted_straight(key, h[0], 4 - melds, 0) < 0


def regular_shanten(tiles: Sequence[int], melds: int = 0) -> int:
    """Shanten towards four sets and a pair (melds count as sets)."""
    a, b, c, h = _infos(hand_key(tiles), len(tiles), melds)
    return _regular(a, b, c, h, 4 - melds)


def seven_pairs_shanten(tiles: Sequence[int], melds: int = 0) -> int | None:
    """Shanten towards seven pairs (four of a kind is two pairs); None with melds."""
    return shanten_by_shape(tiles, melds).get("seven_pairs")


def thirteen_orphans_shanten(tiles: Sequence[int], melds: int = 0) -> int | None:
    """Shanten towards thirteen orphans; None with melds."""
    return shanten_by_shape(tiles, melds).get("thirteen_orphans")


def honors_knitted_shanten(tiles: Sequence[int], melds: int = 0) -> int | None:
    """Shanten towards honours and knitted tiles (全不靠); None with melds."""
    return shanten_by_shape(tiles, melds).get("honors_knitted")


def knitted_straight_shanten(tiles: Sequence[int], melds: int = 0) -> int | None:
    """Shanten towards a knitted straight plus a set and a pair; None with two or more melds."""
    key = hand_key(tiles)
    h = _infos(key, len(tiles), melds)[3]
    return _knitted_straight(key, h[0], 4 - melds, 99) if melds <= 1 else None


__all__ = [
    "SHAPES",
    "TILE_KEYS",
    "hand_key",
    "honors_knitted_shanten",
    "is_ready_of_key",
    "knitted_straight_shanten",
    "regular_shanten",
    "seven_pairs_shanten",
    "shanten",
    "shanten_by_shape",
    "shanten_by_shape_of_key",
    "shanten_of_key",
    "table_sizes",
    "thirteen_orphans_shanten",
    "useful_of_key",
    "wild_regular_shanten",
]
