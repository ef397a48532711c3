"""Botzone's ``walltiles`` and majiang's explicit walls: the same hand in both.

Botzone's judge (``initdata.walltiles``) takes 144 tile names separated by spaces and draws
every tile from the **end** of that list: player 0 (the dealer, East) takes tiles until he holds
13 that are not flowers, then players 1, 2 and 3; then the game begins with player 0's draw.
Flowers are set aside and replaced by the next tile from the same end, and so are kongs.

A **single-ended** majiang table (``Table(..., single_end=True)``) deals and draws exactly so
from the front of its wall, so a walltiles list is its wall reversed (:func:`from_walltiles`,
:func:`to_walltiles`): the deal, every draw and every flower and kong replacement are Botzone's.

majiang's default, two-ended wall deals from the front, 4-4-4-1 around the table and a 14th tile
to the dealer, replaces the dealt flowers from the back (dealer, South, West, North), then draws
from the front and replaces flowers and kongs from the back. ``single_end=False`` converts for
it: each tile is placed where that table takes it for the same player at the same moment
(:func:`botzone_order`, :func:`majiang_wall`), so both deal the same hands and flowers and give
the same draws and flower replacements until a kong (Botzone's replacement is the next tile of
the single end, the two-ended table's comes from the tail).
"""

from __future__ import annotations

from collections.abc import Sequence

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
    if sorted(tiles) != sorted(GuobiaoRules().wall_tiles()):
        raise BotzoneError(
            "a wall must hold the 144 tiles of Guobiao: 4 of each of the 34 kinds and the 8 "
            "flowers H1-H8"
        )


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
    wall: list[int | None] = [None] * WALL_SIZE
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
        wall[WALL_SIZE - 1 - i] = tile
    return [t for t in wall if t is not None]


def to_walltiles(wall: Sequence[int], *, single_end: bool = True) -> str:
    """Botzone's ``walltiles`` for a majiang wall (in draw order, as ``Table.wall.tiles``):
    the order in which Botzone takes the tiles, reversed (it takes from the end), as names.

    ``single_end``: the wall of a single-ended table, whose order is Botzone's already; False:
    of a two-ended table, rearranged by :func:`botzone_order`."""
    if single_end:
        _check(wall)
        order = list(wall)
    else:
        order = botzone_order(wall)
    return " ".join(botzone_name(t) for t in reversed(order))


def from_walltiles(text: str, *, single_end: bool = True) -> list[int]:
    """The majiang wall of a ``walltiles`` string, for ``Table(rules, wall=..., dealer=0,
    single_end=True)``: the names reversed. ``single_end=False``: the wall rearranged for a
    two-ended table (:func:`majiang_wall`; the same hand until a kong)."""
    names = text.split()
    if len(names) == 136:
        raise BotzoneError(
            "136 tiles is Botzone's duplicate format (a wall of 34 per player, no flowers), "
            "which majiang does not play; walltiles of the classic game hold 144 tiles"
        )
    if len(names) != WALL_SIZE:
        raise BotzoneError(f"walltiles holds 144 tile names, not {len(names)}")
    order = [botzone_tile(n) for n in reversed(names)]
    if single_end:
        _check(order)
        return order
    return majiang_wall(order)


def seeded_wall(seed: int) -> list[int]:
    """The wall of a seeded majiang hand, in draw order (the dice break applied); the same for
    a single-ended and a two-ended table of that seed."""
    from ..engine.table import Table

    return list(Table(GuobiaoRules(), seed).wall.tiles)


def dealer_draw_flowers(wall: Sequence[int]) -> int:
    """How many flowers the dealer draws at his first draw (after the deal of all four hands)
    from a single-ended wall: Botzone announces them as ``BUHUA``, not in the deal request."""
    _, first_draw, _ = split_order(wall)
    return len(first_draw) - 1


def botzone_deal(walltiles: str) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """What Botzone's judge deals from ``walltiles``: each player's 13 tiles, each player's
    flowers, and the dealer's first draw (flowers replaced first, the tile drawn last)."""
    deals, first_draw, _ = split_order([botzone_tile(n) for n in reversed(walltiles.split())])
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
]
