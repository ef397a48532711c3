"""Winning shapes: every way to read concealed tiles as sets and a pair, and the special shapes.

The regular decomposition works suit by suit: a suit's nine counts are a small key, and the
readings of each key are computed once and cached, so a hand costs a few dictionary look-ups.
It reads counts above four, so that both rule sets use it: Huangyan reads its hands with the
wild tiles' identities chosen (whether some choice completes a hand is
:func:`majiang.shanten.wild_regular_shanten`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from .tiles import KNITTED_SETS, NUM_KINDS, ORPHANS

SuitReading = tuple[int, tuple[int, ...], tuple[int, ...]]
"""(pair rank or -1, chow start ranks, pung ranks), ranks 0-8 within the suit."""


_CACHE_SIZE: Final = 1 << 16
"""Suit patterns remembered: every pattern a long batch meets often, in bounded memory."""


Reading = tuple[int, tuple[int, ...], tuple[int, ...]]
"""One regular reading of the concealed tiles: (pair, chows by lowest tile, pungs), kinds 0-33."""


@lru_cache(maxsize=_CACHE_SIZE)
def suit_readings(counts: tuple[int, ...]) -> tuple[SuitReading, ...]:
    """Every reading of one suit's counts (length 9) as chows, pungs and at most one pair."""
    found: set[SuitReading] = set()
    _walk(list(counts), 0, -1, [], [], found)
    return tuple(sorted(found))


def _walk(
    c: list[int], i: int, pair: int, chows: list[int], pungs: list[int], found: set[SuitReading]
) -> None:
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        found.add((pair, tuple(sorted(chows)), tuple(sorted(pungs))))
        return
    if c[i] >= 3:
        c[i] -= 3
        pungs.append(i)
        _walk(c, i, pair, chows, pungs, found)
        pungs.pop()
        c[i] += 3
    if pair < 0 and c[i] >= 2:
        c[i] -= 2
        _walk(c, i, i, chows, pungs, found)
        c[i] += 2
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        chows.append(i)
        _walk(c, i, pair, chows, pungs, found)
        chows.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


@lru_cache(maxsize=_CACHE_SIZE)
def suit_status(counts: tuple[int, ...]) -> int:
    """Bit 1: the suit reads as sets only; bit 2: as sets and one pair."""
    status = 0
    for pair, _, _ in suit_readings(counts):
        status |= 2 if pair >= 0 else 1
        if status == 3:
            break
    return status


def _honor_status(counts: list[int]) -> int:
    pairs = 0
    for n in counts[27:34]:
        if n == 2:
            pairs += 1
        elif n and n != 3:
            return 0
    return 1 if pairs == 0 else 2 if pairs == 1 else 0


def suit_key(counts: list[int], base: int) -> int:
    """The nine counts of the suit starting at ``base`` packed 3 bits a rank (rank 0 lowest)."""
    key = 0
    for r in range(8, -1, -1):
        key = key << 3 | counts[base + r]
    return key


SUIT_KEY_STEPS: Final[tuple[int, ...]] = tuple(
    1 << 3 * (t % 9) if t < 27 else 0 for t in range(NUM_KINDS)
)
"""What one tile adds to its suit's :func:`suit_key` (0 for an honour): a caller that adds tiles
keeps its keys by addition and calls :func:`readings_of_keys`."""


def _digits(key: int) -> tuple[int, ...]:
    return tuple(key >> 3 * r & 7 for r in range(9))


_PLACED: Final[dict[int, tuple[SuitReading, ...]]] = {}
_STATUS: Final[dict[int, int]] = {}
_COMPLETIONS: Final[dict[int, tuple[int, ...]]] = {}
"""The per-suit tables by packed key (bounded like the tuple-keyed caches)."""


def _placed_readings(key: int, base: int) -> tuple[SuitReading, ...]:
    """``suit_readings`` of a packed key with tile kinds instead of ranks (``base`` 0, 9, 18)."""
    cache_key = key << 5 | base
    found = _PLACED.get(cache_key)
    if found is None:
        found = tuple(
            (
                base + pair if pair >= 0 else -1,
                tuple(base + r for r in chows),
                tuple(base + r for r in pungs),
            )
            for pair, chows, pungs in suit_readings(_digits(key))
        )
        if len(_PLACED) < _CACHE_SIZE:
            _PLACED[cache_key] = found
    return found


def _status(key: int) -> int:
    """``suit_status`` of a packed key (an empty suit reads as sets only)."""
    if not key:
        return 1
    found = _STATUS.get(key)
    if found is None:
        found = suit_status(_digits(key))
        if len(_STATUS) < _CACHE_SIZE:
            _STATUS[key] = found
    return found


def _as_list(counts: list[int] | tuple[int, ...]) -> list[int]:
    """Counts as a list (typed lists index fast when compiled)."""
    return counts if isinstance(counts, list) else list(counts)


def regular_readings(counts: list[int] | tuple[int, ...]) -> list[Reading]:
    """Every reading of the 34-slot counts as sets plus exactly one pair (empty if none).

    Counts up to seven are read (a wild tile may be a fifth copy of a kind, and Huangyan's
    identity ``F`` can be held by four stand-ins and three restored wild tiles).
    """
    counts = _as_list(counts)
    return readings_of_keys(counts, suit_key(counts, 0), suit_key(counts, 9), suit_key(counts, 18))


def readings_of_keys(counts: list[int], key0: int, key1: int, key2: int) -> list[Reading]:
    """``regular_readings`` of counts whose three suit keys (``suit_key``) the caller has.

    Readings come in a fixed order: the first suit's readings vary slowest.
    """
    honor_pair = -1
    honor_pungs: tuple[int, ...] = ()
    for t in range(27, 34):
        n = counts[t]
        if n == 3:
            honor_pungs += (t,)
        elif n == 2:
            if honor_pair >= 0:
                return []
            honor_pair = t
        elif n:
            # five or six (a wild tile's identity): a pung and the pair, or two pungs
            if n < 5 or n == 7 or (n == 5 and honor_pair >= 0):
                return []
            if n == 5:
                honor_pair = t
            honor_pungs += (t, t)[: n // 3]
    # While every suit so far reads one way there is one partial reading; past that, a list.
    pair = honor_pair
    chows: tuple[int, ...] = ()
    pungs = honor_pungs
    partial: list[Reading] | None = None
    for base in (0, 9, 18):
        key = key0 if base == 0 else key1 if base == 9 else key2
        if not key:
            continue
        options = _placed_readings(key, base)
        if not options:
            return []
        if partial is None and len(options) == 1:
            suit_pair, suit_chows, suit_pungs = options[0]
            if suit_pair >= 0:
                if pair >= 0:
                    return []
                pair = suit_pair
            chows += suit_chows
            pungs += suit_pungs
            continue
        if partial is None:
            partial = [(pair, chows, pungs)]
        grown: list[Reading] = []
        for old_pair, old_chows, old_pungs in partial:
            for suit_pair, suit_chows, suit_pungs in options:
                if suit_pair < 0:
                    grown.append((old_pair, old_chows + suit_chows, old_pungs + suit_pungs))
                elif old_pair < 0:
                    grown.append((suit_pair, old_chows + suit_chows, old_pungs + suit_pungs))
        if not grown:
            return []
        partial = grown
    if partial is None:
        return [(pair, chows, pungs)] if pair >= 0 else []
    return [reading for reading in partial if reading[0] >= 0]


def is_regular_complete(counts: list[int] | tuple[int, ...]) -> bool:
    """Whether the counts read as sets plus exactly one pair."""
    counts = _as_list(counts)
    pairs = 0
    for base in (0, 9, 18):
        status = _status(suit_key(counts, base))
        if not status:
            return False
        if status == 2:
            pairs += 1
    honor = _honor_status(counts)
    if not honor:
        return False
    if honor == 2:
        pairs += 1
    return pairs == 1


def regular_waits(counts: list[int] | tuple[int, ...]) -> list[int]:
    """Every kind that completes the counts (sets plus one pair missing a tile) as a regular hand.

    Works suit by suit: only the suit of the added tile changes, so each candidate costs one
    cached look-up. Kinds are listed even when all four copies are held.
    """
    counts = _as_list(counts)
    keys = (suit_key(counts, 0), suit_key(counts, 9), suit_key(counts, 18))
    return waits_of_keys(counts, keys, -1, False)


def has_other_regular_wait(counts: list[int] | tuple[int, ...], tile: int) -> bool:
    """Whether some kind other than ``tile`` completes the counts as a regular hand (it stops
    at the first one: the unique-wait test of the wait fans)."""
    counts = _as_list(counts)
    keys = (suit_key(counts, 0), suit_key(counts, 9), suit_key(counts, 18))
    return bool(waits_of_keys(counts, keys, tile, True))


def waits_of_keys(
    counts: list[int], keys: tuple[int, int, int], skip: int, first: bool
) -> list[int]:
    """The regular waits of counts whose suit keys the caller has, other than ``skip``; only the
    first one found if ``first``."""
    key0, key1, key2 = keys
    statuses = [_status(key0), _status(key1), _status(key2), _honor_status(counts)]
    broken = -1
    pairs = 0
    for group in range(4):
        status = statuses[group]
        if not status:
            if broken >= 0:
                return []
            broken = group
        elif status == 2:
            pairs += 1
    found: list[int] = []
    for group in range(4):
        if broken >= 0 and broken != group:
            continue
        size = 0
        for t in range(9 * group, 34 if group == 3 else 9 * group + 9):
            size += counts[t]
        if size % 3 == 0:
            continue  # one more tile leaves a remainder of 1: never sets and a pair
        other_pairs = pairs - 1 if statuses[group] == 2 else pairs
        if other_pairs > 1:
            continue
        wanted = 1 if other_pairs else 2
        if group == 3:
            for t in _honor_completions(counts, wanted):
                if t != skip:
                    found.append(t)
                    if first:
                        return found
            continue
        base = group * 9
        for r in _suit_completions(key0 if group == 0 else key1 if group == 1 else key2, wanted):
            if base + r != skip:
                found.append(base + r)
                if first:
                    return found
    return found


def _honor_completions(counts: list[int], wanted: int) -> list[int]:
    """The honours whose addition gives the honours the status ``wanted`` (see _honor_status)."""
    singles = pairs = fours = 0
    for t in range(27, 34):
        n = counts[t]
        if n == 1:
            singles += 1
        elif n == 2:
            pairs += 1
        elif n == 4:
            fours += 1
    found: list[int] = []
    if fours:
        return found
    for t in range(27, 34):
        n = counts[t]
        if n == 1:  # a single becomes a pair
            left, new_pairs = singles - 1, pairs + 1
        elif n == 2:  # a pair becomes a pung
            left, new_pairs = singles, pairs - 1
        else:  # nothing held (a lone tile) or a pung (four): never sets and a pair
            continue
        if left:
            continue
        status = 1 if new_pairs == 0 else 2 if new_pairs == 1 else 0
        if status == wanted:
            found.append(t)
    return found


def _suit_completions(key: int, wanted: int) -> tuple[int, ...]:
    """The ranks whose addition gives the suit ``key`` the status ``wanted`` (see suit_status)."""
    cache_key = key << 2 | wanted
    found = _COMPLETIONS.get(cache_key)
    if found is None:
        digits = _digits(key)
        found = tuple(
            r
            for r in range(9)
            if any(digits[max(0, r - 2) : r + 3]) and _status(key + (1 << 3 * r)) == wanted
        )
        if len(_COMPLETIONS) < _CACHE_SIZE:
            _COMPLETIONS[cache_key] = found
    return found


def seven_pairs_wait(counts: list[int] | tuple[int, ...]) -> int | None:
    """The tile a 13-tile seven-pairs hand waits on (four of a kind is two pairs), or None."""
    pairs = 0
    single = None
    for t, n in enumerate(counts):
        if n:
            pairs += n // 2
            if n & 1:
                if single is not None:
                    return None
                single = t
    return single if pairs == 6 else None


def is_seven_pairs(counts: list[int] | tuple[int, ...]) -> bool:
    """Seven pairs (four of a kind counts as two pairs); the caller checks there are no melds."""
    total = 0
    for n in counts:
        if n & 1:
            return False
        total += n
    return total == 14


def is_thirteen_orphans(counts: list[int] | tuple[int, ...]) -> bool:
    """One of each terminal and honour plus a second of one of them."""
    return (
        sum(counts) == 14
        and all(counts[t] for t in ORPHANS)
        and sum(counts[t] for t in ORPHANS) == 14
    )


def honors_knitted_set(counts: list[int] | tuple[int, ...]) -> frozenset[int] | None:
    """The knitted set of an honours-and-knitted hand (全不靠), or None."""
    if sum(counts) != 14 or any(n > 1 for n in counts):
        return None
    suited = {t for t in range(27) if counts[t]}
    for knitted in KNITTED_SETS:
        if suited <= knitted:
            return knitted
    return None


_KNITTED_MASKS = (0b001001001, 0b010010010, 0b100100100)


def knitted_straight_rest(
    counts: list[int] | tuple[int, ...],
) -> tuple[frozenset[int], list[int]] | None:
    """If the counts hold a whole knitted set, that set and the counts left over."""
    masks = []
    for base in (0, 9, 18):
        mask = 0
        for r in range(9):
            if counts[base + r]:
                mask |= 1 << r
        masks.append(mask)
    for knitted, pattern in zip(KNITTED_SETS, _KNITTED_PATTERNS, strict=True):
        if all(masks[s] & _KNITTED_MASKS[p] == _KNITTED_MASKS[p] for s, p in enumerate(pattern)):
            rest = list(counts)
            for t in knitted:
                rest[t] -= 1
            return knitted, rest
    return None


_KNITTED_PATTERNS = tuple(
    tuple(next(p for p in range(3) if base + p in knitted) for base in (0, 9, 18))
    for knitted in KNITTED_SETS
)
"""For each knitted set, which of 147/258/369 (0/1/2) each suit holds."""


def is_complete(counts: list[int] | tuple[int, ...], n_melds: int) -> bool:
    """Whether concealed counts plus ``n_melds`` declared sets form any of the five shapes."""
    if is_regular_complete(counts):
        return True
    if n_melds == 0:
        if is_seven_pairs(counts) or is_thirteen_orphans(counts):
            return True
        if honors_knitted_set(counts) is not None:
            return True
    if n_melds <= 1 and sum(1 for n in counts[:27] if n) >= 9:
        found = knitted_straight_rest(counts)
        if found is not None and is_regular_complete(found[1]):
            return True
    return False


def winning_tiles(counts: list[int] | tuple[int, ...], n_melds: int) -> list[int]:
    """Every tile kind that completes a 13-tile hand (counts plus ``n_melds`` sets), any shape.

    Kinds count even when all four copies are already held (4444567 waits on 4 and 7): this is
    the wait set of the wait fans (§5.7), not a list of tiles that can still come.
    """
    counts = list(counts)
    waits = []
    for t in range(NUM_KINDS):
        counts[t] += 1
        if is_complete(counts, n_melds):
            waits.append(t)
        counts[t] -= 1
    return waits
