"""Shanten with wild tiles for Huangyan's one shape, four sets and a pair (rules/huangyan.md §2.6).

Counts are by **identity**: a white-dragon stand-in counts as the wild face ``F``; the 得 tiles
(physical face ``F``) are taken out and counted as ``jokers``. The shanten is
:func:`majiang.shanten.wild_regular_shanten` (the test the Huangyan scorer uses for a winning
shape), from the block vectors of :mod:`majiang.shanten`; the draws and discards come from
:mod:`.blocks`, whose per-suit tables and caches are shared with the other bots. Like
:mod:`majiang.shanten`, the shanten does not ask whether the tiles it waits for are still to be
drawn, and a target hand may hold a fifth copy of a face (a 得 standing for it).

Drawing a physical ``F`` is drawing a joker (it always lowers a shanten of 0 or more); drawing a
physical white dragon is drawing identity ``F`` when ``F`` is not the white dragon. The helpers
here speak physical faces at their edges and identities inside.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from ..errors import InvalidHandError
from ..shanten import BEST_VALUES, wild_regular_shanten
from ..tiles import NUM_KINDS, WHITE
from .blocks import (
    TILE_GROUP,
    discard_values,
    group_keys,
    group_vectors,
    hand_vector,
    honor_vector,
    improving_kinds,
    suit_vector,
)

_ALL_FACES: Final = tuple(range(NUM_KINDS))


def identity_of(face: int, wild: int | None) -> int:
    """What a natural tile of this physical face counts as: a white dragon is ``F`` (when ``F`` is
    not the white dragon), any other tile its face. Not meant for a 得 (face ``F``)."""
    if wild is not None and face == WHITE and wild != WHITE:
        return wild
    return face


def face_of(identity: int, wild: int | None) -> int:
    """The physical face of a natural tile of this identity (identity ``F`` is a white dragon)."""
    if wild is not None and identity == wild and wild != WHITE:
        return WHITE
    return identity


def split_hand(faces: Iterable[int], wild: int | None) -> tuple[list[int], int]:
    """(34 identity counts, jokers) of physical faces: 得 tiles (face ``F``) become jokers,
    stand-in white dragons count as ``F``. With ``wild`` None every tile is natural."""
    counts = [0] * NUM_KINDS
    jokers = 0
    for t in faces:
        if t == wild:
            jokers += 1
        else:
            counts[identity_of(t, wild)] += 1
    return counts, jokers


def _check(counts: Sequence[int], jokers: int, n_melds: int, sizes: tuple[int, ...]) -> int:
    """The number of natural tiles; raise unless the state is a legal size."""
    if len(counts) != NUM_KINDS or any(not 0 <= n <= 4 for n in counts):
        raise InvalidHandError("identity counts are 34 numbers 0-4")
    n = sum(counts)
    if jokers < 0 or not 0 <= n_melds <= 4 or n + jokers + 3 * n_melds not in sizes:
        raise InvalidHandError(
            f"{n} natural tiles, {jokers} jokers and {n_melds} melds do not make a hand of "
            f"{' or '.join(map(str, sizes))} tiles"
        )
    return n


def wild_shanten(identity_counts: Sequence[int], jokers: int, n_melds: int) -> int:
    """Shanten of four sets and a pair: natural ``identity_counts`` (34 slots, 0-4 each) plus
    ``jokers`` 得 tiles plus ``n_melds`` declared sets, 13 or 14 tiles in all (a meld counts 3).

    0 is ready (13 tiles), -1 complete (14 tiles, the same as ``is_winning_shape``); a 14-tile
    state's shanten is the best after one discard.
    """
    _check(identity_counts, jokers, n_melds, (13, 14))
    return wild_regular_shanten(identity_counts, jokers, n_melds)


_useful_cache: dict[tuple[int, int, int, int, int], tuple[int, ...]] = {}


def _useful_identities(keys: Sequence[int], vectors: Sequence[int], k: int) -> tuple[int, ...]:
    """Identities whose draw raises the block value of the groups' ``keys`` (cached, bounded)."""
    cache_key = (keys[0], keys[1], keys[2], keys[3], k)
    found = _useful_cache.get(cache_key)
    if found is None:
        if len(_useful_cache) > 200_000:
            _useful_cache.clear()  # a long simulation must not grow without limit
        found = _useful_cache[cache_key] = tuple(improving_kinds(keys, vectors, k))
    return found


def _ready_state(
    identity_counts: Sequence[int], jokers: int, n_melds: int
) -> tuple[list[int], list[int], int]:
    """(group keys, their vector ids, sets to make) of a checked 13-tile state."""
    _check(identity_counts, jokers, n_melds, (13,))
    keys = group_keys(identity_counts)
    return keys, group_vectors(keys), 4 - n_melds


def useful_faces(
    identity_counts: Sequence[int], jokers: int, n_melds: int, wild: int | None
) -> list[int]:
    """Physical faces whose draw lowers the shanten of a 13-tile state, sorted.

    Drawing ``F`` is drawing a joker (always useful while a 得 is left to draw); a white dragon is
    identity ``F``. Faces held four times (three 得 for ``F``) are left out: they cannot be drawn.
    """
    keys, vectors, k = _ready_state(identity_counts, jokers, n_melds)
    held = _physical_held(identity_counts, jokers, wild)
    if 2 * k - BEST_VALUES[hand_vector(vectors)][k] - jokers < 0:
        faces: Iterable[int] = _ALL_FACES  # every draw completes: a joker is waiting for a partner
    else:
        found = {
            face_of(x, wild)
            for x in _useful_identities(keys, vectors, k)
            if x != wild or wild != WHITE  # with F white, identity F is only ever a 得
        }
        if wild is not None:
            found.add(wild)
        faces = found
    return sorted(f for f in faces if held[f] < (3 if f == wild else 4))


def _physical_held(identity_counts: Sequence[int], jokers: int, wild: int | None) -> list[int]:
    held = [0] * NUM_KINDS
    for x, c in enumerate(identity_counts):
        if c:
            held[face_of(x, wild)] += c
    if wild is not None:
        held[wild] += jokers
    return held


def useful_count(
    identity_counts: Sequence[int], jokers: int, n_melds: int, wild: int | None,
    unseen: Sequence[int],
) -> int:
    """Unseen copies (``unseen`` by physical face) of the faces that lower the shanten of a
    13-tile state (:func:`useful_faces` weighted by ``unseen``)."""
    keys, vectors, k = _ready_state(identity_counts, jokers, n_melds)
    return _acceptance(keys, vectors, jokers, k, wild, unseen)


def _acceptance(
    keys: Sequence[int], vectors: Sequence[int], jokers: int, k: int, wild: int | None,
    unseen: Sequence[int],
) -> int:
    if 2 * k - BEST_VALUES[hand_vector(vectors)][k] - jokers < 0:
        return sum(unseen)  # any draw completes
    total = unseen[wild] if wild is not None else 0
    for x in _useful_identities(keys, vectors, k):
        if x == wild:
            if wild != WHITE:
                total += unseen[WHITE]  # a stand-in; identity F as a 得 is counted above
        else:
            total += unseen[x]
    return total


class WildDiscards:
    """The shanten left by each discard of a 14-tile state, by physical face, computed once.

    ``options`` maps each face held to the shanten after discarding one tile of it (face ``F``:
    a 得); ``best`` is their minimum and ``natural_best`` the minimum over natural tiles.
    """

    __slots__ = (
        "best", "jokers", "k", "keys", "melds", "natural_best", "options", "value", "vectors",
        "wild",
    )

    def __init__(
        self, identity_counts: Sequence[int], jokers: int, n_melds: int, wild: int | None
    ) -> None:
        _check(identity_counts, jokers, n_melds, (14,))
        self.jokers = jokers
        self.melds = n_melds
        self.wild = wild
        self.k = k = 4 - n_melds
        self.keys = keys = group_keys(identity_counts)
        self.vectors = vectors = group_vectors(keys)
        self.value = BEST_VALUES[hand_vector(vectors)][k]
        options: dict[int, int] = {}
        natural_best = 99
        top = 2 * k - jokers
        for x, v in enumerate(discard_values(keys, vectors, k)):
            if v < 0:
                continue
            s = top - v
            if s < 0:
                s = 0
            options[face_of(x, wild)] = s
            if s < natural_best:
                natural_best = s
        if jokers and wild is not None:
            options[wild] = max(top + 1 - self.value, 0)
        self.options = options
        self.natural_best = natural_best
        self.best = min(options.values())

    def acceptance(self, face: int, unseen: Sequence[int]) -> int:
        """Unseen useful tiles (by physical face) after discarding one tile of ``face``."""
        wild = self.wild
        if face == wild:
            return _acceptance(self.keys, self.vectors, self.jokers - 1, self.k, wild, unseen)
        x = identity_of(face, wild)
        g, step = TILE_GROUP[x]
        keys = list(self.keys)
        keys[g] -= step
        vectors = list(self.vectors)
        vectors[g] = suit_vector(keys[g]) if g < 3 else honor_vector(keys[g])
        return _acceptance(keys, vectors, self.jokers, self.k, wild, unseen)


__all__ = [
    "WildDiscards",
    "face_of",
    "identity_of",
    "split_hand",
    "useful_count",
    "useful_faces",
    "wild_shanten",
]
