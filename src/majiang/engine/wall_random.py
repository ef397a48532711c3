"""The wall's random number generator: ``random.Random`` with a faster ``shuffle``.

A module of its own so that it stays Python in the compiled build (mypyc compiles
``table.py`` and ``wall.py``; a compiled class cannot subclass ``random.Random``).
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from functools import cache
from typing import Any


class WallRandom(random.Random):
    """``random.Random`` with ``shuffle`` written as one loop: the same algorithm as CPython's
    (3.11-3.13: ``Random.shuffle`` drawing with ``_randbelow_with_getrandbits``), so the same
    walls from the same seeds, without a Python call per tile (a new hand costs about a tenth
    less; the record/replay tests pin the walls)."""

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Shuffle ``x`` in place exactly as ``random.Random.shuffle`` does."""
        getrandbits = self.getrandbits
        for i, n, bits in _shuffle_steps(len(x)):
            j = getrandbits(bits)  # _randbelow_with_getrandbits(n), inline
            while j >= n:
                j = getrandbits(bits)
            x[i], x[j] = x[j], x[i]


@cache
def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """The shuffle of ``size`` items: each position from the last, with the number of
    positions it may swap with and the random bits drawn for it."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, size)))
