"""The wall: a seeded shuffle, the dice, the break, draws from the front, replacements from the
back.

The tiles lie in draw order (stack by stack, top tile first), rotated so that the break point is
at the front; the live end is the front, the tail (牌墙尾部) the back. With a uniform shuffle the
rotation does not change the odds, but the dice are rolled and kept for display and replay
fidelity (rules/guobiao.md §2.3).

The **layout** says who draws where (:data:`LAYOUTS`):

* ``two_ended`` (the default): live draws from the front, replacements from the tail;
* ``single_end``: no tail, a replacement is the next tile of the front, like a live draw (the
  older Botzone judge's single wall);
* ``four_part``: the wall in four equal parts, one per player counted from the dealer; each
  draws every tile, replacements included, from the front of his own part, and may draw no
  more when it is empty (the current Botzone judge's wall).

The shuffle and the break are the same for all three. An explicit wall is taken as it lies,
already broken (``order``), or as it lay before the break, with the dice that break it
(``order`` and ``dice``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..frozen import rebuild


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


LAYOUTS = ("two_ended", "single_end", "four_part")
"""The wall layouts (see the module docstring)."""


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


class Wall:
    """A seeded (or explicit) wall of tiles in one of the :data:`LAYOUTS`: ``draw`` a live
    tile, ``draw_back`` a replacement, each for a player counted from the dealer (``part``,
    read only by the four-part layout)."""

    def __init__(
        self,
        tiles: Sequence[int],
        rng: random.Random,
        *,
        order: Sequence[int] | None = None,
        single_end: bool = False,
        layout: str | None = None,
        dice: tuple[tuple[int, int], tuple[int, int]] | None = None,
    ) -> None:
        if layout is None:
            layout = "single_end" if single_end else "two_ended"
        if layout not in LAYOUTS:
            raise ValueError(f"a wall layout is one of {', '.join(LAYOUTS)}, not {layout!r}")
        self.layout = layout
        self.single_end = layout != "two_ended"
        """No tail: replacements come from the front (of the player's part)."""
        self.parts = 4 if layout == "four_part" else 1
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
        """The end of the undrawn tiles of a one-part wall (its length, for four parts)."""
        self.part_size = len(self.tiles) // self.parts
        self.taken = [0] * self.parts
        """Tiles drawn from each part (four-part layout)."""

    @property
    def remaining(self) -> int:
        """Tiles left to draw (all parts)."""
        return self.back - self.front

    def left(self, part: int) -> int:
        """Tiles player ``part`` may still draw: his part's, or the whole wall's."""
        if self.parts == 1:
            return self.back - self.front
        return self.part_size - self.taken[part]

    def draw(self, part: int = 0) -> int:
        """The next live tile of player ``part`` (from the front)."""
        if self.parts != 1:
            return self._draw_part(part)
        if self.front >= self.back:
            raise IndexError("the wall is empty")
        tile = self.tiles[self.front]
        self.front += 1
        return tile

    def draw_back(self, part: int = 0) -> int:
        """A replacement tile: from the tail, or from the front (of the player's part) in a
        wall without a tail."""
        if self.parts != 1:
            return self._draw_part(part)
        if self.front >= self.back:
            raise IndexError("the wall is empty")
        if self.single_end:
            tile = self.tiles[self.front]
            self.front += 1
            return tile
        self.back -= 1
        return self.tiles[self.back]

    def _draw_part(self, part: int) -> int:
        taken = self.taken[part]
        if taken >= self.part_size:
            raise IndexError("the wall part is empty")
        self.taken[part] = taken + 1
        self.front += 1
        return self.tiles[self.part_size * part + taken]

    def undrawn(self) -> list[int]:
        """The tiles still in the wall, front to back (part by part; hidden information)."""
        if self.parts == 1:
            return self.tiles[self.front : self.back]
        size, taken = self.part_size, self.taken
        return [t for p in range(4) for t in self.tiles[size * p + taken[p] : size * (p + 1)]]
