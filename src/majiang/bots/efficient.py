"""The efficiency bot: the fewest tiles from ready, then the most unseen useful tiles.

It discards the tile that leaves the lowest shanten (regular shape, seven pairs, and the
knitted shapes and thirteen orphans when they are closer), breaking ties by the unseen copies of
the tiles that would then lower it; it claims a chow, pung or kong only when that lowers the
shanten (or keeps it and adds useful tiles), and always wins when the engine offers a win.
It does not count fans: in Guobiao many of its ready hands cannot reach 8 and never win.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..engine.actions import (
    DISCARDS,
    Action,
    AddedKong,
    Chow,
    ConcealedKong,
    ExposedKong,
    Pass,
    Pung,
)
from ..engine.table import Observation, Phase
from ..shanten import TILE_KEYS, shanten_of_key, special_shanten_of_key
from ..tiles import KNITTED_SETS, ORPHANS
from . import blocks
from .blocks import TILE_GROUP, combine, discard_values, group_keys, group_vectors, suit_vector
from .view import find_win, hand_counts, own_melds, require_guobiao, unseen_counts

_ISOLATION: Final = tuple(
    0 if t >= 27 else 1 if t % 9 in (0, 8) else 2 if t % 9 in (1, 7) else 3 for t in range(34)
)
"""Tie-break between equal discards: honours first, then terminals, then 2/8, then the rest."""


def _pair_count(counts: list[int]) -> int:
    pairs = 0
    for t in range(34):  # a native loop when compiled (a generator is not)
        pairs += counts[t] >> 1
    return pairs


def _odd_unseen(counts: list[int], unseen: list[int]) -> int:
    """Unseen copies of the kinds held an odd number of times (what seven pairs waits on)."""
    total = 0
    for t in range(34):
        if counts[t] & 1:
            total += unseen[t]
    return total


_CONCEALED_KONG: Final = ConcealedKong  # C statics when compiled (see bots.view)
_ADDED_KONG: Final = AddedKong
_EXPOSED_KONG: Final = ExposedKong
_PUNG: Final = Pung
_CHOW: Final = Chow
_PASS: Final = Pass

_GROUP_KEYS: Final = (TILE_KEYS[0], TILE_KEYS[9], TILE_KEYS[18], TILE_KEYS[27])


def _hand_key(keys: Sequence[int]) -> int:
    """The :func:`~majiang.shanten.hand_key` of four group keys (hand keys are linear)."""
    return (keys[0] * _GROUP_KEYS[0] + keys[1] * _GROUP_KEYS[1] + keys[2] * _GROUP_KEYS[2]
            + keys[3] * _GROUP_KEYS[3])


_ORPHAN_MASK: Final = sum(1 << t for t in ORPHANS)
_KNIT_PERMUTATIONS: Final = tuple(
    tuple(min(t for t in knitted if t // 9 == g) % 3 for g in range(3)) for knitted in KNITTED_SETS
)
"""Per knitted set, the rank class (rank mod 3 of 1-4-7, 2-5-8, 3-6-9) it takes in each suit."""
_RANK_CLASSES: Final = tuple(
    tuple(sum(1 for r in range(c, 9, 3) if bits >> r & 1) for c in range(3)) for bits in range(512)
)
"""Per nine-bit set of ranks held in a suit: how many of 1-4-7, 2-5-8 and 3-6-9 it holds."""
_BITS: Final = tuple(bin(bits).count("1") for bits in range(512))


def special_bound(counts: Sequence[int], melds: int) -> int:
    """A lower bound of the shanten of thirteen orphans and the two knitted shapes (13 or 14
    tiles): when it is not below the other shapes' shanten, they need not be asked."""
    if melds > 1:
        return 99
    held = [0, 0, 0, 0]
    orphan_pair = 0
    for t in range(34):
        if counts[t]:
            g = t // 9 if t < 27 else 3
            held[g] = held[g] | 1 << (t - 9 * g)  # native when compiled (see bots.view)
            if counts[t] > 1 and (1 << t) & _ORPHAN_MASK:
                orphan_pair = 1
    return _bound(held, orphan_pair, melds)


def _bound(held: list[int], orphan_pair: int, melds: int) -> int:
    """:func:`special_bound` of the ranks held in each group (nine bits a suit, seven honours)."""
    a = _RANK_CLASSES[held[0]]
    b = _RANK_CLASSES[held[1]]
    c = _RANK_CLASSES[held[2]]
    knitted = 0
    for p in _KNIT_PERMUTATIONS:
        n = a[p[0]] + b[p[1]] + c[p[2]]
        if n > knitted:
            knitted = n
    bound = 8 - knitted
    if melds == 0:
        honors = _BITS[held[3]]
        orphans = honors + orphan_pair
        for g in range(3):
            orphans += (held[g] & 1) + (held[g] >> 8)
        bound = min(bound, 13 - orphans, 13 - min(knitted + honors, 14))
    return bound


def state_shanten(counts: list[int], melds: int) -> int:
    """Shanten of a 13-tile state (concealed counts plus ``melds`` sets), every shape."""
    keys = group_keys(counts)
    k = 4 - melds
    best = 2 * k - blocks.value(blocks.hand_vector(group_vectors(keys)), k)
    if melds == 0:
        best = min(best, 6 - _pair_count(counts))
    if melds <= 1 and best > 0 and special_bound(counts, melds) < best:
        best = min(best, shanten_of_key(_hand_key(keys), sum(counts), melds))
    return best


def acceptance(counts: list[int], melds: int, unseen: list[int], shanten: int) -> int:
    """Unseen copies of the kinds that lower the shanten of a 13-tile state (regular and seven
    pairs readings; the two may count a kind twice, which only favours flexible hands)."""
    k = 4 - melds
    keys = group_keys(counts)
    total = 0
    if 2 * k - blocks.value(blocks.hand_vector(group_vectors(keys)), k) == shanten:
        total += blocks.useful_of_keys(keys, k, unseen)
    if melds == 0 and 6 - _pair_count(counts) == shanten:
        total += _odd_unseen(counts, unseen)
    return total


class Discards:
    """The shanten left by each discard of a 14-tile state, computed once."""

    __slots__ = (
        "best", "counts", "keys", "melds", "options", "pairs", "regular", "special", "vectors"
    )

    def __init__(self, counts: list[int], melds: int) -> None:
        self.counts = counts
        self.melds = melds
        k = 4 - melds
        keys = [0, 0, 0, 0]
        held = [0, 0, 0, 0]
        pairs = orphan_pair = n = 0
        for t in range(34):
            c = counts[t]
            if c:
                g, step = TILE_GROUP[t]
                keys[g] = keys[g] + c * step  # native when compiled (see bots.view)
                n += c
                pairs += c >> 1
                held[g] = held[g] | 1 << (t - 9 * g)
                if c > 1 and (1 << t) & _ORPHAN_MASK:
                    orphan_pair = 1
        self.keys = keys
        self.pairs = pairs
        self.vectors = vectors = group_vectors(keys)
        options: dict[int, int] = {}
        regular = [99] * 34
        best = 99
        twice_k = 2 * k
        values = discard_values(keys, vectors, k)
        for t in range(34):
            v = values[t]
            if v < 0:
                continue
            s = regular[t] = twice_k - v
            if melds == 0:
                sp = 6 - pairs + (0 if counts[t] & 1 else 1)
                if sp < s:
                    s = sp
            options[t] = s
            if s < best:
                best = s
        self.special = False
        if melds <= 1 and best > -1 and _bound(held, orphan_pair, melds) < best:
            key14 = _hand_key(keys)
            if special_shanten_of_key(key14, n, melds, best) < best:
                # a knitted shape or thirteen orphans is closer: ask the full shanten
                self.special = True
                for t, s in options.items():  # the regular and seven pairs' shanten is s
                    options[t] = special_shanten_of_key(key14 - TILE_KEYS[t], n - 1, melds, s)
                best = min(options.values())
        self.options = options
        self.regular = regular
        self.best = best

    def ranked(self, unseen: list[int], always: bool = False) -> tuple[int, int]:
        """(tile, acceptance) of the best discard: lowest shanten, most unseen useful tiles.

        With one best discard its acceptance is only computed if ``always`` (else -1)."""
        best = self.best
        ties = [t for t, s in self.options.items() if s == best]
        if len(ties) == 1 and not always:
            return ties[0], -1
        # (acceptance, -isolation, -tile) compared as one int: acceptance is never negative
        best_tile, best_key = ties[0], -1
        for t in ties:
            key = self.acceptance(t, unseen) * 200 + (3 - _ISOLATION[t]) * 40 + 33 - t
            if key > best_key:
                best_tile, best_key = t, key
        return best_tile, best_key // 200

    def acceptance(self, tile: int, unseen: list[int]) -> int:
        """Unseen useful tiles after discarding ``tile``."""
        shanten = self.options[tile]
        if self.special:
            # knitted shapes accept many kinds alike: prefer the better regular shape
            return 99 - self.regular[tile]
        melds = self.melds
        total = 0
        if self.regular[tile] == shanten:
            keys = self.keys
            vectors = self.vectors
            g, step = TILE_GROUP[tile]
            changed = keys[g] - step  # the group the tile leaves; the other three as they are
            vector = suit_vector(changed) if g < 3 else blocks.honor_vector(changed)
            a = vector if g == 0 else vectors[0]
            b = vector if g == 1 else vectors[1]
            c = vector if g == 2 else vectors[2]
            d = vector if g == 3 else vectors[3]
            ab = combine(a, b)
            cd = combine(c, d)
            rest = [combine(b, cd), combine(a, cd), combine(ab, d), combine(ab, c)]  # see rests
            k = 4 - melds
            for h in range(4):
                key = changed if h == g else keys[h]
                if key:
                    base = 9 * h
                    for r in blocks.improving(rest[h], key, k, h == 3):
                        total += unseen[base + r]
        if melds == 0:
            counts = self.counts
            held = counts[tile]
            # one copy fewer breaks a pair when the kind was held an even number of times
            if 6 - self.pairs + (0 if held & 1 else 1) == shanten:
                counts[tile] = held - 1
                total += _odd_unseen(counts, unseen)
                counts[tile] = held
        return total


def guobiao_obvious(obs: Observation, bot: str) -> Action | None:
    """What the Guobiao bot ``bot`` plays without weighing anything: the only legal action, or
    else a legal win (after :func:`~majiang.bots.view.require_guobiao`); None when it must
    choose."""
    legal = obs.legal_actions
    if len(legal) == 1:
        return legal[0]
    require_guobiao(obs, bot)
    return find_win(obs)


class EfficientBot:
    """Lowest shanten, most useful tiles, claims that help; see the module docstring."""

    name = "efficient"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def __call__(self, obs: Observation) -> Action:
        obvious = guobiao_obvious(obs, self.name)
        if obvious is not None:
            return obvious
        counts = hand_counts(obs)
        melds = len(own_melds(obs))
        if obs.phase is Phase.TURN:
            return self._turn(obs, counts, melds)
        return self._claim(obs, counts, melds)

    def _turn(self, obs: Observation, counts: list[int], melds: int) -> Action:
        discards = Discards(counts, melds)
        for a in obs.legal_actions:
            if type(a) is _CONCEALED_KONG:
                counts[a.tile] -= 4
                left = state_shanten(counts, melds + 1)
                counts[a.tile] += 4
                if left <= discards.best:
                    return a
            elif type(a) is _ADDED_KONG and discards.options.get(a.tile) == discards.best:
                return a  # the fourth tile is no use: kong it and draw a replacement
        ties = [t for t, s in discards.options.items() if s == discards.best]
        if len(ties) == 1:
            return DISCARDS[ties[0]]  # no tie to break: the unseen tiles are not needed
        tile, _ = discards.ranked(unseen_counts(obs, counts))
        return DISCARDS[tile]

    def _claim(self, obs: Observation, counts: list[int], melds: int) -> Action:
        tile = obs.last_discard
        legal = obs.legal_actions
        pass_action = next((a for a in legal if type(a) is _PASS), legal[-1])
        if tile is None:
            return pass_action
        now = state_shanten(counts, melds)
        unseen: list[int] | None = None
        now_acc = -1
        best: tuple[int, int] = (now, 0)
        choice: Action = pass_action
        for a in obs.legal_actions:
            kind = type(a)
            if kind is _EXPOSED_KONG:
                counts[tile] -= 3
                left = state_shanten(counts, melds + 1)
                counts[tile] += 3
                if left <= now and (left, -999) < best:
                    best, choice = (left, -999), a  # a kong that does not hurt: a free draw
                continue
            if kind is _PUNG:
                used: tuple[int, ...] = (tile, tile)
            elif kind is _CHOW:
                low = a.low  # type: ignore[union-attr]
                used = tuple(t for t in (low, low + 1, low + 2) if t != tile)
            else:
                continue
            if unseen is None:
                unseen = unseen_counts(obs, counts)
            for t in used:
                counts[t] -= 1
            key: tuple[int, int] | None = None
            if blocks.distance(counts, 3 - melds) > now:  # the regular shape after the best discard
                for t in used:
                    counts[t] += 1
                continue
            after = Discards(counts, melds + 1)
            if after.best < now:
                key = (after.best, -after.ranked(unseen, always=True)[1])
            elif after.best == now:
                acc = after.ranked(unseen, always=True)[1]
                if now_acc < 0:
                    for t in used:
                        counts[t] += 1
                    now_acc = acceptance(counts, melds, unseen, now)
                    for t in used:
                        counts[t] -= 1
                if acc > now_acc:
                    key = (now, -acc)
            for t in used:
                counts[t] += 1
            if key is not None and key < best:
                best, choice = key, a
        return choice


__all__ = ["Discards", "EfficientBot", "acceptance", "guobiao_obvious", "state_shanten"]
