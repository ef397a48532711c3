"""Botzone's tile names and majiang's tiles.

Botzone writes a tile as a capital letter and a digit: ``W1``-``W9`` characters (万, majiang
``m``), ``B1``-``B9`` dots (饼/筒, ``p``), ``T1``-``T9`` bamboo (条, ``s``), ``F1``-``F4`` the
winds East South West North, ``J1``-``J3`` the dragons red 中, green 发, white 白, and
``H1``-``H8`` the flowers 春夏秋冬梅兰竹菊 (majiang ``a``-``h``).
"""

from __future__ import annotations

from ..errors import MajiangError


class BotzoneError(MajiangError):
    """Botzone input that cannot be understood: a tile name, a request, a response, a wall."""


_NAMES = (
    [f"W{r}" for r in range(1, 10)]
    + [f"T{r}" for r in range(1, 10)]
    + [f"B{r}" for r in range(1, 10)]
    + [f"F{r}" for r in range(1, 5)]
    + [f"J{r}" for r in range(1, 4)]
    + [f"H{r}" for r in range(1, 9)]
)
"""Indexed by majiang tile: 0-8 m, 9-17 s, 18-26 p, 27-30 winds, 31-33 dragons, 34-41 flowers."""

_TILES = {name: tile for tile, name in enumerate(_NAMES)}


def botzone_name(tile: int) -> str:
    """Botzone's name of a majiang tile: ``5m`` -> ``W5``, ``5s`` -> ``T5``, ``5p`` -> ``B5``."""
    if not 0 <= tile < len(_NAMES):
        raise BotzoneError(f"no tile {tile!r}")
    return _NAMES[tile]


def botzone_tile(name: str) -> int:
    """The majiang tile of a Botzone name; raises :class:`BotzoneError` for anything else."""
    tile = _TILES.get(name)
    if tile is None:
        raise BotzoneError(f"not a Botzone tile name: {name!r}")
    return tile


def is_botzone_name(name: str) -> bool:
    """Whether ``name`` is one of the 42 Botzone tile names."""
    return name in _TILES


__all__ = ["BotzoneError", "botzone_name", "botzone_tile", "is_botzone_name"]
