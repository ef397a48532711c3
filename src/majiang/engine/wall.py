"""The wall: a seeded shuffle, the dice, the break, draws from the front, replacements from the
back.

The tiles lie in draw order (stack by stack, top tile first), rotated so that the break point is
at the front; the live end is the front, the tail (牌墙尾部) the back. With a uniform shuffle the
rotation does not change the odds, but the dice are rolled and kept for display and replay
fidelity (rules/guobiao.md §2.3).

A **single-ended** wall (``single_end=True``, Botzone's judge) has no tail: a replacement is the
next tile of the front, like a live draw. The shuffle and the break are the same.
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


class Wall:
    """A seeded wall of tiles; ``draw`` from the front, ``draw_back`` for replacements (from the
    back, or from the front too when ``single_end``)."""

    def __init__(
        self,
        tiles: Sequence[int],
        rng: random.Random,
        *,
        order: Sequence[int] | None = None,
        single_end: bool = False,
    ) -> None:
        self.single_end = single_end
        if order is not None:
            self.tiles = list(order)
            self.dice = Dice((0, 0), (0, 0), 0, 0)
        else:
            shuffled = list(tiles)
            rng.shuffle(shuffled)
            first = (rng.randint(1, 6), rng.randint(1, 6))
            roller = (sum(first) - 1) % 4
            second = (rng.randint(1, 6), rng.randint(1, 6))
            count = sum(first) + sum(second)
            self.dice = Dice(first, second, roller, count)
            stacks_per_wall = len(shuffled) // 8
            start = 2 * ((roller * stacks_per_wall + count) % (4 * stacks_per_wall))
            self.tiles = shuffled[start:] + shuffled[:start]
        self.front = 0
        self.back = len(self.tiles)

    @property
    def remaining(self) -> int:
        """Tiles left to draw."""
        return self.back - self.front

    def draw(self) -> int:
        """The next live tile (from the front)."""
        if self.front >= self.back:
            raise IndexError("the wall is empty")
        tile = self.tiles[self.front]
        self.front += 1
        return tile

    def draw_back(self) -> int:
        """A replacement tile: from the tail, or from the front in a single-ended wall."""
        if self.front >= self.back:
            raise IndexError("the wall is empty")
        if self.single_end:
            tile = self.tiles[self.front]
            self.front += 1
            return tile
        self.back -= 1
        return self.tiles[self.back]

    def undrawn(self) -> list[int]:
        """The tiles still in the wall, front to back (hidden information)."""
        return self.tiles[self.front : self.back]
