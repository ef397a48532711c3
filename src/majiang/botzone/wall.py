"""Botzone's ``walltiles`` and majiang's explicit walls: the same hand in both.

Botzone's judge (``initdata.walltiles``) takes tile names separated by spaces, 136 without
flowers (its own walls, the ladder's and the contests') or 144 with them, and draws every tile
from the **end** of a list. The judge of today splits the list into four equal parts, one per
player (player 0, the dealer, East, has the first): each player draws from the end of his own
part, the deal (until he holds 13 tiles that are not flowers, dealer first), his draws, his
flower and kong replacements; the hand is drawn when the player to draw finds his part empty.
A ``four_part`` majiang table deals and draws so, from the front of each part
(``Table(..., layout="four_part")``); walltiles is its wall with each part reversed.

The older judge took every tile from the end of the one list: a ``single_end`` table, whose
wall reversed is the walltiles. For majiang's default, two-ended wall, ``two_ended`` converts
for that older judge: each tile is placed where that table takes it for the same player at the
same moment (:func:`botzone_order`, :func:`majiang_wall`), so both deal the same hands and
flowers and give the same draws and flower replacements until a kong.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.wall import LAYOUTS
from ..rules.guobiao.ruleset import GuobiaoRules
from .tiles import BotzoneError, botzone_name, botzone_tile

WALL_SIZE = 144
_DEAL_SLOTS = [
    [16 * r + 4 * k + j for r in range(3) for j in range(4)] + [48 + k] for k in range(4)
]
"""Front positions of the 13 tiles majiang deals to the dealer (k = 0) and the next three."""
_DEALER_14TH = 52


def _is_flower(tile: int) -> bool:
    return tile >= 34


def _until_tiles(source: list[int], start: int, needed: int) -> int:
    """The index after the shortest run from ``start`` holding ``needed`` non-flowers."""
    i = start
    while needed > 0:
        if i >= len(source):
            raise BotzoneError("the wall runs out during the deal")
        needed -= not _is_flower(source[i])
        i += 1
    return i


def _check(tiles: Sequence[int]) -> None:
    if sorted(tiles) not in (_WITH_FLOWERS, _WITHOUT_FLOWERS):
        raise BotzoneError(
            "a wall holds the 136 tiles of Guobiao (4 of each of the 34 kinds), with or "
            "without the 8 flowers H1-H8"
        )


_WITH_FLOWERS = sorted(GuobiaoRules().wall_tiles())
_WITHOUT_FLOWERS = sorted(GuobiaoRules({"flowers": False}).wall_tiles())


def _layout(layout: str, single_end: bool | None) -> str:
    if single_end is not None:
        return "single_end" if single_end else "two_ended"
    if layout not in LAYOUTS:
        raise BotzoneError(f"a wall layout is one of {', '.join(LAYOUTS)}, not {layout!r}")
    return layout


def botzone_order(wall: Sequence[int]) -> list[int]:
    """The order in which Botzone takes the tiles of a majiang wall (see the module docstring):
    each player's deal with its flower replacements, the dealer's first draw, then the draws."""
    _check(wall)
    w = list(wall)
    front, back = 0, len(w)
    hands = [[w[i] for i in slots] for slots in _DEAL_SLOTS]
    front = _DEALER_14TH + 1
    replaced: list[list[int]] = []
    for k in range(4):  # majiang's initial flower replacement, dealer first
        pending = sum(_is_flower(t) for t in hands[k]) + (k == 0 and _is_flower(w[_DEALER_14TH]))
        taken: list[int] = []
        while pending:
            back -= 1
            taken.append(w[back])
            pending += _is_flower(w[back]) - 1
        replaced.append(taken)
    order: list[int] = []
    for k in range(4):
        extra = replaced[k]
        if k == 0:  # the dealer's extra tiles: first his deal's, then his first draw's
            cut = _until_tiles(extra, 0, sum(_is_flower(t) for t in hands[0]))
            extra, first_draw = extra[:cut], [w[_DEALER_14TH], *extra[cut:]]
        order += hands[k] + extra
    order += first_draw
    while front < back:  # the draws, each flower replaced from the tail
        tile = w[front]
        front += 1
        order.append(tile)
        while _is_flower(tile) and front < back:
            back -= 1
            tile = w[back]
            order.append(tile)
    return order


def split_order(order: Sequence[int]) -> tuple[list[list[int]], list[int], list[int]]:
    """A Botzone order cut as the judge takes it: each player's deal (until 13 non-flowers),
    the dealer's first draw (flowers, then its tile), and the rest."""
    seq, pos, deals = list(order), 0, []
    for _ in range(4):
        end = _until_tiles(seq, pos, 13)
        deals.append(seq[pos:end])
        pos = end
    end = _until_tiles(seq, pos, 1)
    return deals, seq[pos:end], seq[end:]


def majiang_wall(order: Sequence[int]) -> list[int]:
    """The majiang wall whose Botzone order is ``order`` (the inverse of :func:`botzone_order`)."""
    _check(order)
    deals, first_draw, rest = split_order(order)
    size = len(order)
    wall: list[int | None] = [None] * size
    for k in range(4):
        for slot, tile in zip(_DEAL_SLOTS[k], deals[k][:13], strict=True):
            wall[slot] = tile
    wall[_DEALER_14TH] = first_draw[0]
    tail = deals[0][13:] + first_draw[1:] + deals[1][13:] + deals[2][13:] + deals[3][13:]
    live: list[int] = []
    previous_flower = False
    for tile in rest:
        (tail if previous_flower else live).append(tile)
        previous_flower = _is_flower(tile)
    wall[_DEALER_14TH + 1 : _DEALER_14TH + 1 + len(live)] = live
    for i, tile in enumerate(tail):
        wall[size - 1 - i] = tile
    return [t for t in wall if t is not None]


def to_walltiles(
    wall: Sequence[int], *, layout: str = "four_part", single_end: bool | None = None
) -> str:
    """Botzone's ``walltiles`` for a majiang wall (in draw order, as ``Table.wall.tiles``),
    the order in which the judge takes the tiles reversed (it takes from the end), as names.

    ``layout``: the table's (``Table.layout``). ``four_part`` (the current judge): each part,
    a player's, reversed in place; ``single_end`` (the older judge's single wall): the whole
    wall reversed; ``two_ended``: rearranged by :func:`botzone_order` for the older judge, the
    same hands until the first kong. ``single_end=True``/``False`` names the last two."""
    layout = _layout(layout, single_end)
    _check(wall)
    if layout == "four_part":
        size = len(wall) // 4
        order = [t for p in range(4) for t in reversed(wall[size * p : size * (p + 1)])]
        return " ".join(botzone_name(t) for t in order)
    order = list(wall) if layout == "single_end" else botzone_order(wall)
    return " ".join(botzone_name(t) for t in reversed(order))


def from_walltiles(
    text: str, *, layout: str = "four_part", single_end: bool | None = None
) -> list[int]:
    """The majiang wall of a ``walltiles`` string (136 names without flowers, 144 with), for
    ``Table(rules, wall=..., dealer=0, layout=layout)``: the inverse of :func:`to_walltiles`
    (``two_ended``: the wall rearranged by :func:`majiang_wall`, the same hand until a kong).
    :func:`walltiles_flowers` says which rules (with flowers or without) it needs."""
    layout = _layout(layout, single_end)
    names = text.split()
    if len(names) not in (136, WALL_SIZE):
        raise BotzoneError(
            f"walltiles holds 136 tile names (without flowers) or 144 (with), not {len(names)}"
        )
    tiles = [botzone_tile(n) for n in names]
    _check(tiles)
    if layout == "four_part":
        size = len(tiles) // 4
        return [t for p in range(4) for t in reversed(tiles[size * p : size * (p + 1)])]
    order = tiles[::-1]
    if layout == "single_end":
        return order
    return majiang_wall(order)


def walltiles_flowers(text: str) -> bool:
    """Whether a ``walltiles`` string holds the flowers (144 names; 136 without): the rule
    option ``flowers`` that plays it."""
    return any(name.startswith("H") for name in text.split())


def seeded_wall(seed: int, *, flowers: bool = True) -> list[int]:
    """The wall of a seeded majiang hand, in draw order (the dice break applied); the same for
    every layout of a table of that seed (with the flowers, or without)."""
    from ..engine.table import Table

    rules = GuobiaoRules({"flowers": flowers})
    return list(Table(rules, seed, layout="two_ended").wall.tiles)


def dealer_draw_flowers(wall: Sequence[int], layout: str = "single_end") -> int:
    """How many flowers the dealer draws at his first draw (after the deal of all four hands)
    from a single-ended or a four-part wall (``Table.wall.tiles``): Botzone announces them as
    ``BUHUA``, not in the deal request."""
    if layout == "four_part":
        part = list(wall[: len(wall) // 4])
        start = _until_tiles(part, 0, 13)
        return _until_tiles(part, start, 1) - start - 1
    _, first_draw, _ = split_order(wall)
    return len(first_draw) - 1


def botzone_deal(
    walltiles: str, layout: str = "four_part"
) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """What Botzone's judge deals from ``walltiles``: each player's 13 tiles in the order
    dealt, each player's flowers, and the dealer's first draw (flowers replaced first, the
    tile drawn last). ``layout``: ``four_part`` (the current judge) or ``single_end``."""
    tiles = from_walltiles(walltiles, layout=_layout(layout, None))
    if layout == "four_part":
        size = len(tiles) // 4
        deals, first_draw = [], []
        for p in range(4):
            part = tiles[size * p : size * (p + 1)]
            end = _until_tiles(part, 0, 13)
            deals.append(part[:end])
            if p == 0:
                first_draw = part[end : _until_tiles(part, end, 1)]
    else:
        deals, first_draw, _ = split_order(tiles)
    hands = [[t for t in deal if not _is_flower(t)] for deal in deals]
    flowers = [[t for t in deal if _is_flower(t)] for deal in deals]
    return hands, flowers, first_draw


__all__ = [
    "WALL_SIZE",
    "botzone_deal",
    "botzone_order",
    "dealer_draw_flowers",
    "from_walltiles",
    "majiang_wall",
    "seeded_wall",
    "split_order",
    "to_walltiles",
    "walltiles_flowers",
]
