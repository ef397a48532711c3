"""Random winning hands of every shape, with consistent situations: for tests and benchmarks.

``random_winning_hand(rng)`` returns a :class:`Hand` and a :class:`WinContext` that the scorer
accepts as a winning shape (it may still be under 8 fans). The mix is biased toward rich hands
(flushes, pungs, kongs, honours) so that every fan turns up in a few thousand draws.
"""

from __future__ import annotations

import random

from .hand import Hand, Meld, MeldKind, WinContext
from .tiles import KNITTED_SETS, ORPHANS

_SHAPES = (
    ("regular", 80),
    ("seven_pairs", 8),
    ("orphans", 3),
    ("honors_knitted", 4),
    ("knitted", 5),
    ("nine_gates", 1),
    ("terminal_chows", 1),
)


def random_winning_hand(rng: random.Random) -> tuple[Hand, WinContext]:
    """A random complete hand and a situation consistent with it."""
    while True:
        shape = rng.choices([s for s, _ in _SHAPES], [w for _, w in _SHAPES])[0]
        built = _BUILDERS[shape](rng)
        if built is not None:
            melds, concealed = built
            rng.shuffle(concealed)
            win = concealed.pop()
            hand = Hand.of(melds, concealed, win, rng.sample(range(34, 42), _flower_count(rng)))
            return hand, _random_context(rng, hand)


def _flower_count(rng: random.Random) -> int:
    return rng.choice((0, 0, 0, 0, 1, 1, 2, 3, 4, 8))


def _suit_pool(rng: random.Random) -> list[int]:
    """The tile kinds a hand draws from: sometimes one suit (+ honours), sometimes everything."""
    roll = rng.random()
    suit = rng.randrange(3)
    if roll < 0.2:
        return list(range(suit * 9, suit * 9 + 9))
    if roll < 0.35:
        return [*range(suit * 9, suit * 9 + 9), *range(27, 34)]
    if roll < 0.45:
        return [t for t in range(27) if t % 9 in (0, 8)] + list(range(27, 34))
    if roll < 0.5:
        lo = rng.choice((0, 3, 5, 6))
        return [t for t in range(27) if lo <= t % 9 <= lo + 3]
    return list(range(34))


def _regular(rng: random.Random) -> tuple[list[Meld], list[int]] | None:
    pool = _suit_pool(rng)
    counts = [0] * 34
    sets: list[tuple[MeldKind, int]] = []
    chow_bias = rng.random()
    for _ in range(4):
        for _attempt in range(20):
            t = rng.choice(pool)
            kind = MeldKind.CHOW if rng.random() < chow_bias else MeldKind.PUNG
            if kind is MeldKind.CHOW:
                if t >= 27 or t % 9 > 6 or t + 2 not in pool:
                    continue
                tiles = [t, t + 1, t + 2]
            else:
                if rng.random() < 0.15:
                    kind = MeldKind.KONG
                tiles = [t] * (4 if kind is MeldKind.KONG else 3)
            if all(counts[x] + tiles.count(x) <= 4 for x in set(tiles)):
                for x in tiles:
                    counts[x] += 1
                sets.append((kind, t))
                break
        else:
            return None
    pair_options = [t for t in pool if counts[t] <= 2]
    if not pair_options:
        return None
    pair = rng.choice(pair_options)
    melds: list[Meld] = []
    concealed = [pair, pair]
    n_melds = rng.choice((0, 0, 1, 1, 2, 2, 3, 4))
    for i, (kind, t) in enumerate(sets):
        if kind is MeldKind.KONG:
            source = rng.choice((0, 1, 2, 3, 5, 6, 7)) if i < n_melds or rng.random() < 0.5 else 0
            melds.append(Meld(kind, t, source))
        elif i < n_melds:
            melds.append(Meld(kind, t, rng.randint(1, 3)))
        else:
            concealed.extend((t, t + 1, t + 2) if kind is MeldKind.CHOW else (t, t, t))
    return melds, concealed


def _seven_pairs(rng: random.Random) -> tuple[list[Meld], list[int]] | None:
    pool = _suit_pool(rng)
    if rng.random() < 0.1:
        suit = rng.randrange(3) * 9
        start = suit + rng.randrange(3)
        kinds = list(range(start, start + 7))
    else:
        kinds = [rng.choice(pool) for _ in range(7)]
    counts = {t: kinds.count(t) for t in kinds}
    if any(n > 2 for n in counts.values()):
        return None
    return [], [t for t in kinds for _ in range(2)]


def _orphans(rng: random.Random) -> tuple[list[Meld], list[int]] | None:
    return [], [*ORPHANS, rng.choice(ORPHANS)]


def _honors_knitted(rng: random.Random) -> tuple[list[Meld], list[int]] | None:
    knitted = sorted(rng.choice(KNITTED_SETS))
    honors = rng.randint(5, 7)
    tiles = rng.sample(range(27, 34), honors) + rng.sample(knitted, 14 - honors)
    return [], tiles


def _knitted(rng: random.Random) -> tuple[list[Meld], list[int]] | None:
    knitted = sorted(rng.choice(KNITTED_SETS))
    counts = [0] * 34
    for t in knitted:
        counts[t] += 1
    t = rng.randrange(34)
    roll = rng.random()
    if roll < 0.5 and t < 27 and t % 9 <= 6:
        extra, kind = [t, t + 1, t + 2], MeldKind.CHOW
    elif roll < 0.85:
        extra, kind = [t] * 3, MeldKind.PUNG
    else:
        extra, kind = [t] * 4, MeldKind.KONG
    pair = rng.randrange(34)
    for x in [*extra, pair, pair]:
        counts[x] += 1
    if max(counts) > 4:
        return None
    melds: list[Meld] = []
    concealed = [*knitted, pair, pair]
    if kind is MeldKind.KONG:
        melds.append(Meld(kind, t, rng.choice((0, 1, 5))))
    elif rng.random() < 0.4:
        melds.append(Meld(kind, t, rng.randint(1, 3)))
    else:
        concealed.extend(extra)
    return melds, concealed


def _nine_gates(rng: random.Random) -> tuple[list[Meld], list[int]] | None:
    base = rng.randrange(3) * 9
    tiles = [base + r for r in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)]
    win = base + rng.randrange(9)
    rest = [*tiles, win]
    rng.shuffle(rest)
    rest.remove(win)
    return [], [*rest, win]  # the caller shuffles; a shuffled win still gives real Nine Gates often


def _terminal_chows(rng: random.Random) -> tuple[list[Meld], list[int]] | None:
    suits = rng.sample(range(3), 3)
    if rng.random() < 0.5:  # 一色双龙会
        base = suits[0] * 9
        tiles = [base + r for r in (0, 1, 2, 0, 1, 2, 6, 7, 8, 6, 7, 8, 4, 4)]
    else:  # 三色双龙会
        a, b, c = (s * 9 for s in suits)
        tiles = [a, a + 1, a + 2, a + 6, a + 7, a + 8, b, b + 1, b + 2, b + 6, b + 7, b + 8]
        tiles += [c + 4, c + 4]
    return [], tiles


_BUILDERS = {
    "regular": _regular,
    "seven_pairs": _seven_pairs,
    "orphans": _orphans,
    "honors_knitted": _honors_knitted,
    "knitted": _knitted,
    "nine_gates": _nine_gates,
    "terminal_chows": _terminal_chows,
}


def _random_context(rng: random.Random, hand: Hand) -> WinContext:
    win = hand.win_tile
    assert win is not None
    self_drawn = rng.random() < 0.4
    held = hand.concealed.count(win)
    in_melds = sum(1 for m in hand.melds for t in m.tiles if t == win)
    has_kong = any(m.kind is MeldKind.KONG for m in hand.melds)
    kong = False
    if self_drawn:
        kong = has_kong and rng.random() < 0.3
    elif not held and not in_melds:
        kong = rng.random() < 0.1
    last_tile = rng.random() < 0.1 and not (kong and not self_drawn)
    fourth_tile = not held and rng.random() < 0.15
    return WinContext(
        self_drawn=self_drawn,
        seat_wind=rng.randrange(4),
        prevalent_wind=rng.randrange(4),
        last_tile=last_tile,
        kong=kong,
        fourth_tile=fourth_tile,
    )
