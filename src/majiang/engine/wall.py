"""The wall: a seeded shuffle, the dice, the break, draws from the front, replacements from the
back.

The tiles lie in draw order (stack by stack, top tile first), rotated so that the break point is
at the front; the live end is the front, the tail (牌墙尾部) the back. With a uniform shuffle the
rotation does not change the odds, but the dice are rolled and kept for display and replay
fidelity (rules/guobiao.md §2.3).

A **layout** is a subclass of :class:`Wall` that says who draws where and how the deal goes;
:data:`LAYOUTS` names the three built in:

* :class:`TwoEnded` (``two_ended``, the default): live draws from the front, replacements from
  the tail, the deal in blocks of four with the flowers replaced after it;
* :class:`SingleEnd` (``single_end``): no tail, a replacement is the next tile of the front,
  like a live draw, and each seat is dealt its 13 tiles in turn (the older Botzone judge's
  single wall);
* :class:`FourPart` (``four_part``): the wall in four equal parts, one per player counted from
  the dealer; each draws every tile, replacements included, from the front of his own part,
  and may draw no more when it is empty (the current Botzone judge's wall).

The shuffle and the break are the same for all. An explicit wall is taken as it lies, already
broken (``order``), or as it lay before the break, with the dice that break it (``order`` and
``dice``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeAlias

from ..frozen import rebuild
from ..mypyc_options import mypyc_attr
from .legality import kong_in_parts, kong_replacement_left


@dataclass(frozen=True, slots=True)
class Dice:
    """The two rolls of the wall break: the dealer's and the second roller's."""

    first: tuple[int, int]
    second: tuple[int, int]
    second_roller: int
    """Seat offset from the dealer (0 dealer, 1 South, 2 West, 3 North) of the second roller."""
    break_stack: int
    """Stacks counted from the right end of the second roller's wall."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Copy and pickle through the constructor (see :mod:`majiang.frozen`)."""
        return rebuild(self)


def roll_dice(
    first: tuple[int, int], second: tuple[int, int], tiles: int
) -> tuple[Dice, int]:
    """The dice of a break and where the wall of ``tiles`` tiles then starts (the index of
    the first tile drawn in the tiles as they lay)."""
    if any(d not in range(1, 7) for d in (*first, *second)):
        raise ValueError("dice show 1-6")
    roller = (sum(first) - 1) % 4
    count = sum(first) + sum(second)
    stacks_per_wall = tiles // 8
    start = 2 * ((roller * stacks_per_wall + count) % (4 * stacks_per_wall))
    return Dice(first, second, roller, count), start


class Dealer(Protocol):
    """The steps of a deal that a layout puts in order (the table takes them)."""

    dealer: int

    def deal_take(self, seat: int, tile: int) -> None:
        """``seat`` is dealt ``tile``; a flower is set aside for ``deal_replace_flowers``."""

    def deal_drawing(self, seat: int) -> int | None:
        """``seat`` draws a tile, each flower set aside and replaced at once: the tile, or None
        when the wall ran out (the hand is drawn)."""

    def deal_replace_flowers(self, seat: int) -> bool:
        """``seat``'s flowers set aside are shown and replaced (and the flowers among the
        replacements); False when the wall ran out (the hand is drawn)."""

    def deal_first(self, tile: int) -> None:
        """The dealer's 14th tile is ``tile`` (his first draw): the indicator follows."""

    def deal_done(self) -> None:
        """The deal is over: the dealer's first turn."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Wall:
    """A seeded (or explicit) wall of tiles; each subclass is a layout, which ``draw``s a live
    tile and ``draw_back``s a replacement for a player counted from the dealer (``part``),
    and ``deal``s the hand. This base is a wall in one part, drawn from the front."""

    name: ClassVar[str] = ""
    """The layout's name in :data:`LAYOUTS` and in records."""
    single_end: ClassVar[bool] = True
    """No tail: replacements come from the front (of the player's part)."""
    parts: ClassVar[int] = 1
    """Players who draw each from his own part (1: all from the one wall)."""

    def __init__(
        self,
        tiles: Sequence[int],
        rng: random.Random,
        *,
        order: Sequence[int] | None = None,
        dice: tuple[tuple[int, int], tuple[int, int]] | None = None,
    ) -> None:
        if order is not None and dice is None:
            self.tiles = list(order)
            self.dice = Dice((0, 0), (0, 0), 0, 0)
        else:
            if order is not None and dice is not None:
                shuffled = list(order)
                first, second = dice
            else:
                shuffled = list(tiles)
                rng.shuffle(shuffled)
                first = (rng.randint(1, 6), rng.randint(1, 6))
                second = (rng.randint(1, 6), rng.randint(1, 6))
            self.dice, start = roll_dice(first, second, len(shuffled))
            self.tiles = shuffled[start:] + shuffled[:start]
        self.front = 0
        """Tiles drawn so far (all parts)."""
        self.back = len(self.tiles)
        """The end of the undrawn tiles of a one-part wall (its length, for parts)."""
        self.part_size = len(self.tiles) // self.parts
        self.taken = [0] * self.parts
        """Tiles drawn from each part (read by layouts in parts)."""

    @property
    def remaining(self) -> int:
        """Tiles left to draw (all parts)."""
        return self.back - self.front

    def left(self, part: int) -> int:
        """Tiles player ``part`` may still draw."""
        return self.back - self.front

    def left_after(self, part: int) -> int:
        """Tiles that may still be drawn after player ``part``'s turn."""
        return self.back - self.front

    def may_kong(self, part: int, exposed: bool, reserve_after: int) -> bool:
        """Whether player ``part``'s kong (``exposed``: of a discard) has its replacement, the
        rule set keeping ``reserve_after`` tiles after one more replacement
        (:func:`~majiang.engine.legality.kong_replacement_left`)."""
        return kong_replacement_left(self.back - self.front, reserve_after)

    def draw(self, part: int = 0) -> int:
        """The next live tile of player ``part`` (from the front)."""
        if self.front >= self.back:
            raise IndexError("the wall is empty")
        tile = self.tiles[self.front]
        self.front += 1
        return tile

    def draw_back(self, part: int = 0) -> int:
        """A replacement tile for player ``part``: here the next tile of the front."""
        return self.draw(part)

    def undrawn(self) -> list[int]:
        """The tiles still in the wall, in the order they would be drawn (hidden information)."""
        return self.tiles[self.front : self.back]

    def deal(self, table: Dealer) -> None:
        """Deal the hand from this wall: here each seat in turn, dealer first, takes tiles until
        it holds 13, every flower replaced at once by the next tile; then the dealer takes his
        14th tile (his first draw), flowers replaced likewise."""
        for seat in _seats_from(table.dealer):
            for _ in range(13):
                if table.deal_drawing(seat) is None:
                    return
        first = table.deal_drawing(table.dealer)
        if first is None:
            return
        table.deal_first(first)
        table.deal_done()


@mypyc_attr(allow_interpreted_subclasses=True)
class TwoEnded(Wall):
    """The wall of rules/guobiao.md §2.3: live draws from the front, replacements from the
    tail; the deal in blocks, the flowers replaced after it."""

    name: ClassVar[str] = "two_ended"
    single_end: ClassVar[bool] = False

    def draw_back(self, part: int = 0) -> int:
        """A replacement tile: from the tail."""
        if self.front >= self.back:
            raise IndexError("the wall is empty")
        self.back -= 1
        return self.tiles[self.back]

    def deal(self, table: Dealer) -> None:
        """Three rounds of four tiles each, dealer first, then one each, then the dealer's 14th;
        then the flowers are replaced seat by seat, dealer first."""
        order = _seats_from(table.dealer)
        for _ in range(3):
            for seat in order:
                for _ in range(4):
                    table.deal_take(seat, self.draw())
        for seat in order:
            table.deal_take(seat, self.draw())
        first = self.draw()
        table.deal_take(table.dealer, first)
        table.deal_first(first)
        for seat in order:
            if not table.deal_replace_flowers(seat):
                return
        table.deal_done()


@mypyc_attr(allow_interpreted_subclasses=True)
class SingleEnd(Wall):
    """One end: the deal, the replacements and the live draws all take the next tile of the
    front (Botzone's older judge)."""

    name: ClassVar[str] = "single_end"


@mypyc_attr(allow_interpreted_subclasses=True)
class FourPart(Wall):
    """Four equal parts, one per player counted from the dealer, each drawing every tile from
    the front of his own part, dealt as from one end (Botzone's judge of today)."""

    name: ClassVar[str] = "four_part"
    parts: ClassVar[int] = 4

    def left(self, part: int) -> int:
        """Tiles left in player ``part``'s part."""
        return self.part_size - self.taken[part]

    def left_after(self, part: int) -> int:
        """Tiles left in the next player's part."""
        return self.part_size - self.taken[(part + 1) % 4]

    def may_kong(self, part: int, exposed: bool, reserve_after: int) -> bool:
        """:func:`~majiang.engine.legality.kong_in_parts` (no reserve)."""
        return kong_in_parts(self.left(part), self.left((part + 1) % 4), exposed)

    def draw(self, part: int = 0) -> int:
        """The next tile of player ``part``'s part."""
        taken = self.taken[part]
        if taken >= self.part_size:
            raise IndexError("the wall part is empty")
        self.taken[part] = taken + 1
        self.front += 1
        return self.tiles[self.part_size * part + taken]

    def undrawn(self) -> list[int]:
        """The tiles still in the wall, part by part."""
        size, taken = self.part_size, self.taken
        return [t for p in range(4) for t in self.tiles[size * p + taken[p] : size * (p + 1)]]


WallLayout: TypeAlias = type[Wall]
"""A layout: a subclass of :class:`Wall`."""

LAYOUTS: dict[str, WallLayout] = {w.name: w for w in (TwoEnded, SingleEnd, FourPart)}
"""The built-in layouts by name (the names users type and records keep)."""


def layout_named(name: str) -> WallLayout:
    """The built-in layout called ``name`` (ValueError: there is none)."""
    layout = LAYOUTS.get(name)
    if layout is None:
        raise ValueError(f"a wall layout is one of {', '.join(LAYOUTS)}, not {name!r}")
    return layout


def _seats_from(dealer: int) -> list[int]:
    """The seats in dealing order: the dealer, South, West, North."""
    return [(dealer + i) % 4 for i in range(4)]
