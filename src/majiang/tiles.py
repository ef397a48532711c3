"""Tile kinds as small ints.

``0-8`` characters 1-9 (``m``), ``9-17`` bamboo (``s``), ``18-26`` dots (``p``), ``27-30`` the winds
E S W N, ``31-33`` the dragons C F P (red, green, white), ``34-41`` the flowers a-h. The order is
the canonical sort order of the notation.
"""

from __future__ import annotations

from typing import Final

NUM_KINDS: Final = 34
"""Tile kinds that take part in hands (flowers excluded)."""

SUITS: Final = "msp"
SUIT_NAMES: Final = ("characters", "bamboo", "dots")
HONOR_LETTERS: Final = "ESWNCFP"
FLOWER_LETTERS: Final = "abcdefgh"

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33
FIRST_FLOWER: Final = 34
WINDS: Final = (EAST, SOUTH, WEST, NORTH)
DRAGONS: Final = (RED, GREEN, WHITE)
WIND_LETTERS: Final = "ESWN"

TERMINALS: Final = frozenset({0, 8, 9, 17, 18, 26})
HONORS: Final = frozenset(range(27, 34))
TERMINALS_AND_HONORS: Final = TERMINALS | HONORS
ORPHANS: Final = tuple(sorted(TERMINALS_AND_HONORS))
GREEN_TILES: Final = frozenset({10, 11, 12, 14, 16, GREEN})
"""2s 3s 4s 6s 8s and the green dragon (绿一色)."""
REVERSIBLE_TILES: Final = frozenset({18, 19, 20, 21, 22, 25, 26, 10, 12, 13, 14, 16, 17, WHITE})
"""1 2 3 4 5 8 9 dots, 2 4 5 6 8 9 bamboo and the white dragon (推不倒)."""

KNITTED_SETS: Final = tuple(
    frozenset(
        s * 9 + r
        for s, start in zip(suits, (0, 1, 2), strict=True)
        for r in (start, start + 3, start + 6)
    )
    for suits in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)
"""The six knitted sets: 147 / 258 / 369 assigned to the three suits, nine tiles each."""

_NAMES: Final = tuple(
    [f"{r + 1}{s}" for s in SUITS for r in range(9)] + list(HONOR_LETTERS) + list(FLOWER_LETTERS)
)
_CHINESE: Final = tuple(
    [f"{n}{s}" for s in "万条饼" for n in "一二三四五六七八九"]
    + list("东南西北中发白")
    + list("春夏秋冬梅兰竹菊")
)


def tile_name(tile: int) -> str:
    """Notation of one tile: ``"5m"``, ``"E"``, ``"a"``."""
    return _NAMES[tile]


def format_tiles(tiles: list[int] | tuple[int, ...]) -> str:
    """Tiles in the given order, one suit letter per run of digits: ``[0, 1, 27] -> "12mE"``."""
    out: list[str] = []
    run_suit: str | None = None
    for t in tiles:
        if t < 27:
            suit = SUITS[t // 9]
            if run_suit is not None and run_suit != suit:
                out.append(run_suit)
            out.append(str(t % 9 + 1))
            run_suit = suit
        else:
            if run_suit is not None:
                out.append(run_suit)
                run_suit = None
            out.append(tile_name(t))
    if run_suit is not None:
        out.append(run_suit)
    return "".join(out)


_BY_NAME: Final = {name: tile for tile, name in enumerate(_NAMES)}


def tile_from_name(name: str) -> int:
    """The tile of a name written by :func:`tile_name` (``"5m"``, ``"E"``, ``"a"``)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"not a tile name: {name!r}") from None


def tile_chinese(tile: int) -> str:
    """Chinese name of one tile: ``"五万"``, ``"东"``, ``"春"``."""
    return _CHINESE[tile]


def is_suited(tile: int) -> bool:
    """Characters, bamboo or dots."""
    return tile < 27


def is_honor(tile: int) -> bool:
    """A wind or a dragon."""
    return 27 <= tile < 34


def is_flower(tile: int) -> bool:
    """One of the eight flowers."""
    return tile >= FIRST_FLOWER


def suit_of(tile: int) -> int:
    """0 characters, 1 bamboo, 2 dots, 3 honours, 4 flowers."""
    if tile < 27:
        return tile // 9
    return 3 if tile < 34 else 4


def rank_of(tile: int) -> int:
    """Rank 1-9 of a suited tile."""
    return tile % 9 + 1


def wind_index(letter: str) -> int:
    """0-3 for ``E S W N``."""
    index = WIND_LETTERS.find(letter) if len(letter) == 1 else -1
    if index < 0:
        raise ValueError(f"not a wind: {letter!r} (expected one of E, S, W, N)")
    return index


def unseen_copies(
    held: list[int] | tuple[int, ...], shown: list[int] | tuple[int, ...] | None = None
) -> list[int]:
    """Copies of each kind nobody has shown: ``4 - held[kind] - shown[kind]``, never below 0
    (34 counts each: the copies held, and those face up elsewhere). Every unseen count is this
    one."""
    if shown is None:
        return [4 - n if n < 4 else 0 for n in held]
    unseen = [0] * NUM_KINDS
    for t in range(NUM_KINDS):  # an index loop: faster than a comprehension over zip
        n = 4 - held[t] - shown[t]
        if n > 0:
            unseen[t] = n
    return unseen


def counts_of(tiles: list[int] | tuple[int, ...]) -> list[int]:
    """A 34-slot count vector of the (non-flower) tiles."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts
