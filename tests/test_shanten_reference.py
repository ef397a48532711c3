"""Differential tests of shanten against the reference calculator (PyMahjongGB's shanten functions).

The reference takes 13 - 3k standing tiles and the melds as packs; its 0 is ready. Its per-shape
functions also return the useful tiles (kinds whose draw lowers that shape's shanten).
"""

from __future__ import annotations

import random

import MahjongGB  # type: ignore[import-not-found]
import pytest

from majiang.hand import Meld, MeldKind
from majiang.notation import parse_tiles
from majiang.shanten import shanten, shanten_by_shape
from majiang.shapes import is_complete
from majiang.tiles import NUM_KINDS
from test_analysis import random_hand

CODES = (
    [f"W{r}" for r in range(1, 10)]
    + [f"T{r}" for r in range(1, 10)]
    + [f"B{r}" for r in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
)
SHAPE_FUNCTIONS = {
    "regular": MahjongGB.RegularShanten,
    "seven_pairs": MahjongGB.SevenPairsShanten,
    "thirteen_orphans": MahjongGB.ThirteenOrphansShanten,
    "honors_knitted": MahjongGB.HonorsAndKnittedTilesShanten,
    "knitted_straight": MahjongGB.KnittedStraightShanten,
}


def pack(meld: Meld) -> tuple[str, str, int]:
    if meld.kind is MeldKind.CHOW:
        return ("CHI", CODES[meld.tile + 1], 1)
    if meld.kind is MeldKind.PUNG:
        return ("PENG", CODES[meld.tile], 1)
    return ("GANG", CODES[meld.tile], 0 if meld.is_concealed_kong else 1)


def reference(melds: list[Meld], tiles: list[int]) -> int:
    return int(
        MahjongGB.MahjongShanten(
            pack=tuple(pack(m) for m in melds), hand=tuple(CODES[t] for t in tiles)
        )
    )


def near_special(rng: random.Random) -> list[int]:
    """13 tiles around one of the special shapes, so that their small values are exercised."""
    base = rng.choice(
        (
            "19m19s19pESWNCFP",
            "147m258s369pESWNCFP",
            "258m369s147pESWNCFP",
            "1122m3344s5566pEESS",
            "147m258s369p123mEE",
            "369m147s258p789sEE",
        )
    )
    tiles = rng.sample(parse_tiles(base), 10)
    while len(tiles) < 13:
        t = rng.randrange(NUM_KINDS)
        if tiles.count(t) < 4:
            tiles.append(t)
    return sorted(tiles)


def test_random_hands_with_melds() -> None:
    """12,000 random 13-tile hands with 0-4 melds (chows, pungs, kongs)."""
    rng = random.Random(2024)
    mismatches = []
    for _ in range(12_000):
        melds, tiles = random_hand(rng)
        ours, theirs = shanten(tiles, len(melds)), reference(melds, tiles)
        if ours != theirs:
            mismatches.append((melds, tiles, ours, theirs))
    assert mismatches == []


def test_concealed_hands_by_shape() -> None:
    """Each shape's shanten and useful tiles, on random and near-special concealed hands."""
    rng = random.Random(7)
    hands = [random_hand(rng, max_melds=0)[1] for _ in range(1500)]
    hands += [near_special(rng) for _ in range(1500)]
    for tiles in hands:
        ours = shanten_by_shape(tiles)
        counts = [tiles.count(t) for t in range(NUM_KINDS)]
        grown = {
            t: shanten_by_shape([*tiles, t]) for t in range(NUM_KINDS) if counts[t] < 4
        }
        codes = tuple(CODES[t] for t in tiles)
        # The reference may list a fifth copy of a kind held four times; it cannot be drawn.
        impossible = {CODES[t] for t in range(NUM_KINDS) if counts[t] == 4}
        assert shanten(tiles) == reference([], tiles) == min(ours.values())
        for shape, function in SHAPE_FUNCTIONS.items():
            value, useful = function(codes)
            assert ours[shape] == value, (tiles, shape)
            mine = {CODES[t] for t, by in grown.items() if by[shape] < value}
            assert mine == set(useful) - impossible, (tiles, shape)


def test_one_meld_knitted_straight() -> None:
    """With one meld only the regular shape and the knitted straight remain."""
    rng = random.Random(11)
    for _ in range(1500):
        if rng.random() < 0.5:
            tiles = near_special(rng)[:10]
        else:
            tiles = random_hand(rng, size=10, max_melds=0)[1]
        codes = tuple(CODES[t] for t in tiles)
        ours = shanten_by_shape(tiles, 1)
        assert ours["regular"] == MahjongGB.RegularShanten(codes)[0]
        assert ours["knitted_straight"] == MahjongGB.KnittedStraightShanten(codes)[0]
        meld = Meld(MeldKind.PUNG, 33, 1) if tiles.count(33) == 0 else Meld(MeldKind.PUNG, 27, 1)
        if tiles.count(meld.tile) == 0:
            assert shanten(tiles, 1) == reference([meld], tiles)


@pytest.mark.parametrize("seed", range(2))
def test_fourteen_tiles_are_the_best_discard(seed: int) -> None:
    """A 14-tile hand: -1 when complete, else the reference's best 13-tile hand after a discard."""
    rng = random.Random(seed)
    for _ in range(600):
        melds, tiles = random_hand(rng, size=14)
        counts = [tiles.count(t) for t in range(NUM_KINDS)]
        if is_complete(counts, len(melds)):
            expected = -1
        else:
            expected = min(
                reference(melds, tiles[:i] + tiles[i + 1 :]) for i in range(len(tiles))
            )
        assert shanten(tiles, len(melds)) == expected
