"""Target patterns for the fan-aware bot: how far a hand is from each way of reaching 8 fans.

A *target* is a family of winning hands with a known fan value: a suit restriction (full flush,
half flush, upper/lower tiles), a set restriction (all pungs), a special shape (seven pairs,
the knitted shapes, thirteen orphans), all types, or three (or two) fixed sets such as a mixed
triple chow or a pure straight. Its *distance* is the number of useful draws the hand needs to
be ready in that family, measured with the block values of :mod:`majiang.bots.blocks` (the
same measure as shanten, restricted); tiles outside a suit restriction must all be replaced, so
their number bounds the distance from below. A target whose declared sets contradict it is out.

Fans are estimated as the target's own fans plus what the hand already holds for sure (pungs of
dragons and of the seat and prevalent winds, kongs, a concealed hand) and half of what it may
get (a pair of such an honour).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Final

from ..hand import Meld, MeldKind
from ..shanten import hand_key, shanten_by_shape_of_key
from . import blocks
from .blocks import POW5, combine, honor_vector, suit_vector, value
from .efficient import special_bound

FAR: Final = 99
"""The distance of a target that is out of reach."""

_PUNG_FANS_DRAGON = 2


@dataclass(frozen=True, slots=True)
class SetPattern:
    """A fan made of fixed sets: ``sets`` as (pung?, lowest tile), ``need`` the tiles."""

    name: str
    fans: int
    sets: tuple[tuple[bool, int], ...]
    need: tuple[tuple[int, int], ...]


def _pattern(name: str, fans: int, sets: list[tuple[bool, int]]) -> SetPattern:
    need: dict[int, int] = {}
    for pung, tile in sets:
        for t in (tile, tile, tile) if pung else (tile, tile + 1, tile + 2):
            need[t] = need.get(t, 0) + 1
    return SetPattern(name, fans, tuple(sets), tuple(sorted(need.items())))


def _set_patterns() -> tuple[SetPattern, ...]:
    out: list[SetPattern] = []
    perms = list(permutations(range(3)))
    for r in range(7):
        out.append(_pattern("mixed_triple_chow", 8, [(False, 9 * s + r) for s in range(3)]))
        out.append(_pattern("triple_pung", 16, [(True, 9 * s + r) for s in range(3)]))
    for a, b, c in perms:
        out.append(_pattern("mixed_straight", 8, [(False, 9 * a), (False, 9 * b + 3),
                                                   (False, 9 * c + 6)]))
        for r in range(5):
            out.append(_pattern("mixed_shifted_chows", 6, [
                (False, 9 * a + r), (False, 9 * b + r + 1), (False, 9 * c + r + 2)]))
        for r in range(7):
            out.append(_pattern("mixed_shifted_pungs", 8, [
                (True, 9 * a + r), (True, 9 * b + r + 1), (True, 9 * c + r + 2)]))
    for s in range(3):
        base = 9 * s
        out.append(_pattern("pure_straight", 16, [(False, base), (False, base + 3),
                                                  (False, base + 6)]))
        for r in range(5):
            out.append(_pattern("pure_shifted_chows", 16, [
                (False, base + r), (False, base + r + 1), (False, base + r + 2)]))
        for r in range(3):
            out.append(_pattern("pure_shifted_chows", 16, [
                (False, base + r), (False, base + r + 2), (False, base + r + 4)]))
        for r in range(7):
            out.append(_pattern("pure_shifted_pungs", 24, [
                (True, base + r), (True, base + r + 1), (True, base + r + 2)]))
    for a, b in ((31, 32), (31, 33), (32, 33)):
        out.append(_pattern("two_dragon_pungs", 6, [(True, a), (True, b)]))
    return tuple(out)


SET_PATTERNS: Final = _set_patterns()
_NEEDED: Final = tuple(sum(n for _, n in p.need) for p in SET_PATTERNS)
_BY_TILE: Final = tuple(
    tuple((i, n) for i, p in enumerate(SET_PATTERNS) for t, n in p.need if t == tile)
    for tile in range(34)
)
"""For each tile, the patterns that need it and how many copies."""

# Suit-key restrictions (ranks kept) for the tile-range fans, with their fans.
_RANGES: Final = (
    ("lower_four", 12, 0, 4),
    ("upper_four", 12, 5, 4),
    ("lower_tiles", 24, 0, 3),
    ("middle_tiles", 24, 3, 3),
    ("upper_tiles", 24, 6, 3),
)


def _restrict(key: int, low: int, width: int) -> int:
    return key // POW5[low] % POW5[width]


def _five_group(tile: int) -> int:
    """Group for all types: 0-2 suits, 3 winds, 4 dragons."""
    return tile // 9 if tile < 27 else 3 if tile < 31 else 4


@dataclass(frozen=True, slots=True)
class _Followed:
    """A set pattern a situation follows: the tiles its undeclared sets need, and how many
    other sets the hand must make."""

    pattern: SetPattern
    need: tuple[tuple[int, int], ...]
    rest_sets: int


@dataclass(slots=True)
class Target:
    """One target's reading of a state: its name, distance and estimated fans."""

    name: str
    distance: int
    fans: float


class Situation:
    """What stays fixed while a bot weighs its discards: its sets, the winds, unseen tiles.

    :meth:`targets` reads a 13-tile state (concealed counts; the sets are the situation's).
    """

    def __init__(
        self,
        melds: Sequence[Meld],
        unseen: list[int],
        seat_wind: int,
        prevalent_wind: int,
        hand: Sequence[int] | None = None,
    ) -> None:
        self.melds = tuple(melds)
        self.unseen = unseen
        self.k = 4 - len(self.melds)
        self.concealed = all(m.is_concealed_kong for m in self.melds)
        self.honor_fans = [0] * 34
        """Fans of a pung of each honour (dragons 2; seat and prevalent wind 2 each)."""
        for t in (31, 32, 33):
            self.honor_fans[t] = _PUNG_FANS_DRAGON
        self.honor_fans[27 + seat_wind] += 2
        self.honor_fans[27 + prevalent_wind] += 2
        sure = 2.0 if self.concealed else 0.0
        groups: list[int] = []
        five: list[int] = []
        chows = False
        tiles: list[int] = []
        for m in self.melds:
            tiles.extend(m.tiles)
            if m.kind is MeldKind.CHOW:
                chows = True
            else:
                fans = self.honor_fans[m.tile]
                if not fans and (m.tile >= 27 or m.tile % 9 in (0, 8)):
                    fans = 1  # 幺九刻
                sure += fans
                if m.kind is MeldKind.KONG:
                    sure += 2 if m.is_concealed_kong else 1
            groups.append(m.tile // 9 if m.tile < 27 else 3)
            five.append(_five_group(m.tile))
        self.sure = sure
        self.meld_groups = set(groups)
        self.pungs_ok = not chows
        ranks = [t % 9 for t in tiles if t < 27]
        self.has_meld_honors = any(t >= 27 for t in tiles)
        self.ranges = [
            (name, fans, low, width)
            for name, fans, low, width in _RANGES
            if not self.has_meld_honors and all(low <= r < low + width for r in ranks)
        ]
        self.five_ok = len(set(five)) == len(five)
        self.five_covered = set(five)
        self.patterns = self._patterns(hand) if hand is not None else []

    def _patterns(self, hand: Sequence[int]) -> list[_Followed]:
        """The set patterns worth following from this hand (13 or 14 tiles): the declared sets
        fit, no needed tile is gone, and at most four tiles are missing; the closest eight."""
        counts = [0] * 34
        for t in hand:
            counts[t] += 1
        have = [0] * len(SET_PATTERNS)
        for t in range(34):
            c = counts[t]
            if c:
                for i, n in _BY_TILE[t]:
                    have[i] += n if n < c else c
        slack = 4 + 3 * len(self.melds)
        unseen = self.unseen
        signatures = [(m.kind is not MeldKind.CHOW, m.tile) for m in self.melds]
        scored: list[tuple[int, int, _Followed]] = []
        for i, pattern in enumerate(SET_PATTERNS):
            if _NEEDED[i] - have[i] > slack:
                continue
            covered: list[tuple[bool, int]] = []
            free = 0
            for sig in signatures:
                if sig in pattern.sets and sig not in covered:
                    covered.append(sig)
                else:
                    free += 1
            rest_sets = 4 - len(pattern.sets) - free
            if rest_sets < 0:
                continue
            need: list[tuple[int, int]] = []
            missing = 0
            for t, n in pattern.need:
                n -= sum(1 for pung, low in covered
                         if (pung and low == t) or (not pung and low <= t <= low + 2))
                if n <= 0:
                    continue
                need.append((t, n))
                short = n - counts[t]
                if short > 0:
                    if short > unseen[t]:
                        missing = FAR
                        break
                    missing += short
            if missing <= 4:
                scored.append((missing, i, _Followed(pattern, tuple(need), rest_sets)))
        if not scored:
            return []
        scored.sort(key=lambda x: (x[0], x[1]))
        limit = scored[0][0] + 2
        return [f for missing, _, f in scored[:8] if missing <= limit]

    # ------------------------------------------------------------------ reading a state

    def bonus(self, counts: Sequence[int]) -> float:
        """Fans the hand holds or may well get besides a target's own."""
        total = self.sure
        fans = self.honor_fans
        unseen = self.unseen
        for t in range(27, 34):
            n = counts[t]
            if n >= 3:
                total += fans[t] or 1
            elif n == 2 and fans[t] and unseen[t]:
                total += fans[t] / 2
        return total

    def targets(self, counts: Sequence[int], regular: int | None = None) -> list[Target]:
        """Every target's distance and estimated fans for a 13-tile state."""
        k = self.k
        twice_k = 2 * k
        keys = blocks.group_keys(counts)
        vectors = blocks.group_vectors(keys)
        n = sum(counts)
        bonus = self.bonus(counts)
        out: list[Target] = []
        if regular is None:
            regular = twice_k - value(blocks.hand_vector(vectors), k)
        out.append(Target("any", regular, bonus))
        in_suit = [sum(counts[9 * s : 9 * s + 9]) for s in range(3)]
        honors = n - in_suit[0] - in_suit[1] - in_suit[2]
        groups = self.meld_groups
        for s in range(3):
            if groups <= {s, 3}:
                d = twice_k - value(combine(vectors[s], vectors[3]), k)
                off = n - in_suit[s] - honors
                out.append(Target("half_flush", max(d, off), 6 + bonus))
                if groups <= {s}:
                    d = twice_k - value(vectors[s], k)
                    out.append(Target("full_flush", max(d, n - in_suit[s]), 24 + bonus))
        if self.pungs_ok:
            pungs = blocks.group_vectors(keys, pungs_only=True)
            d = twice_k - value(blocks.hand_vector(pungs), k)
            out.append(Target("all_pungs", d, 6 + bonus + self._concealed_pungs(counts)))
        if not self.melds:
            pairs = sum(c >> 1 for c in counts)
            out.append(Target("seven_pairs", 6 - pairs, 24.0))
        if len(self.melds) <= 1 and regular > 1 and special_bound(counts, len(self.melds)) <= 4:
            by_shape = shanten_by_shape_of_key(
                hand_key([t for t in range(34) for _ in range(counts[t])]), n, len(self.melds)
            )
            if "knitted_straight" in by_shape:
                out.append(Target("knitted_straight", by_shape["knitted_straight"], 12 + bonus))
            if "honors_knitted" in by_shape:
                out.append(Target("honors_knitted", by_shape["honors_knitted"], 12.0))
                out.append(Target("thirteen_orphans", by_shape["thirteen_orphans"], 88.0))
        for name, fans, low, width in self.ranges:
            vector = 0
            kept = 0
            for s in range(3):
                key = _restrict(keys[s], low, width)
                if key:
                    vector = combine(vector, suit_vector(key))
                    kept += sum(counts[9 * s + low : 9 * s + low + width])
            d = twice_k - value(vector, k)
            out.append(Target(name, max(d, n - kept), fans + bonus))
        if self.five_ok:
            d = self._all_types(keys, vectors)
            if d < FAR:
                out.append(Target("all_types", d, 6 + bonus))
        for followed in self.patterns:
            d = self._pattern_distance(followed, counts, keys)
            if d < FAR:
                out.append(Target(followed.pattern.name, d, followed.pattern.fans + bonus))
        return out

    def _concealed_pungs(self, counts: Sequence[int]) -> float:
        """Concealed pungs already held toward all pungs: 2 of them score 2 more fans."""
        held = sum(1 for c in counts if c >= 3)
        held += sum(1 for m in self.melds if m.is_concealed_kong)
        return 2.0 if held >= 2 else 1.0 if held == 1 else 0.0

    def _all_types(self, keys: Sequence[int], vectors: Sequence[int]) -> int:
        """五门齐: one set or the pair from each of characters, bamboo, dots, winds, dragons."""
        group_vectors = [vectors[0], vectors[1], vectors[2],
                         honor_vector(keys[3] % 625), honor_vector(keys[3] // 625)]
        free = [g for g in range(5) if g not in self.five_covered]
        sets = [max(blocks.vector_plain(group_vectors[g], 1), 0) for g in free]
        pairs = [max(blocks.vector_pair(group_vectors[g], 0), 0) for g in free]
        total = sum(sets)
        best = max(total - s + p for s, p in zip(sets, pairs, strict=True))
        return 2 * self.k - best

    def _pattern_distance(self, followed: _Followed, counts: Sequence[int],
                          keys: Sequence[int]) -> int:
        rest = list(keys)
        missing = 0
        unseen = self.unseen
        for t, n in followed.need:
            have = counts[t]
            if have >= n:
                used = n
            else:
                if n - have > unseen[t]:
                    return FAR
                missing += n - have
                used = have
            if used:
                if t < 27:
                    rest[t // 9] -= used * POW5[t % 9]
                else:
                    rest[3] -= used * POW5[t - 27]
        k = followed.rest_sets
        vector = blocks.hand_vector(blocks.group_vectors(rest))
        return missing + 2 * k - value(vector, k)


def winning_chance(fans: float) -> float:
    """How likely a finished hand of a target with these estimated fans reaches 8: certain at 8,
    less and less below (small fans such as 自摸, 和绝张 or a wait fan may still come)."""
    if fans >= 8:
        return 1.0
    if fans >= 7:
        return 0.6
    if fans >= 6:
        return 0.4
    if fans >= 4:
        return 0.25
    return 0.15


__all__ = ["FAR", "SET_PATTERNS", "SetPattern", "Situation", "Target", "winning_chance"]
