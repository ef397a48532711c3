"""Melds, hands and the situation of a win."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from .frozen import rebuild
from .tiles import FIRST_FLOWER, FLOWER_LETTERS, NUM_KINDS, WIND_LETTERS, format_tiles


class MeldKind(IntEnum):
    """The kind of a declared set."""

    CHOW = 0
    PUNG = 1
    KONG = 2


CONCEALED_KONG = 0
"""``Meld.source`` of a concealed kong."""
ADDED_KONG_OFFSET = 4
"""An added kong of a pung claimed from player N has ``source == N + 4``."""


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set.

    ``tile`` is the lowest tile of the set. ``source`` follows the notation's ``,N`` digit: for a
    chow, which of its three tiles (1-3) was claimed; for a pung, whom it was claimed from
    (1 left, 2 opposite, 3 right); for a kong, 0 concealed, 1-3 exposed from that player, 5-7 added
    to a pung claimed from player N-4.
    """

    kind: MeldKind
    tile: int
    source: int = 1

    def __reduce__(self) -> tuple[Any, ...]:
        """Copy and pickle through the constructor (see :mod:`majiang.frozen`)."""
        return rebuild(self)

    @property
    def tiles(self) -> tuple[int, ...]:
        """The tiles of the set (four for a kong)."""
        if self.kind is MeldKind.CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind is MeldKind.KONG else 3)

    @property
    def is_concealed_kong(self) -> bool:
        """A kong declared from four concealed tiles (暗杠)."""
        return self.kind is MeldKind.KONG and self.source == CONCEALED_KONG

    @property
    def is_exposed(self) -> bool:
        """A chow, pung or kong that breaks concealment (everything but a concealed kong)."""
        return not self.is_concealed_kong

    @property
    def is_added_kong(self) -> bool:
        """A kong made by adding a tile to a claimed pung (加杠)."""
        return self.kind is MeldKind.KONG and self.source > ADDED_KONG_OFFSET


@dataclass(frozen=True, slots=True)
class Hand:
    """Declared sets, concealed tiles and flowers.

    ``concealed`` holds the concealed tiles other than ``win_tile``, sorted. ``win_tile`` is the
    last
    concealed tile of the notation (the winning or just-drawn tile) or ``None`` for a 13-tile hand.
    Build hands with :func:`majiang.notation.parse_hand` or :meth:`Hand.of`, which sort for you.
    """

    melds: tuple[Meld, ...] = ()
    concealed: tuple[int, ...] = ()
    win_tile: int | None = None
    flowers: tuple[int, ...] = ()

    @classmethod
    def of(
        cls,
        melds: tuple[Meld, ...] | list[Meld] = (),
        concealed: tuple[int, ...] | list[int] = (),
        win_tile: int | None = None,
        flowers: tuple[int, ...] | list[int] = (),
    ) -> Hand:
        """A hand with its concealed tiles and flowers sorted."""
        return cls(tuple(melds), tuple(sorted(concealed)), win_tile, tuple(sorted(flowers)))

    @property
    def tile_count(self) -> int:
        """Tiles counted as in the notation: 3 per declared set, plus the concealed tiles."""
        return 3 * len(self.melds) + len(self.concealed) + (self.win_tile is not None)

    @property
    def concealed_with_win(self) -> tuple[int, ...]:
        """All concealed tiles, the winning tile included."""
        if self.win_tile is None:
            return self.concealed
        return (*self.concealed, self.win_tile)

    def all_tiles(self) -> list[int]:
        """Every tile of the hand except flowers, a kong counted as four."""
        tiles = [t for m in self.melds for t in m.tiles]
        tiles.extend(self.concealed_with_win)
        return tiles

    def kind_counts(self) -> list[int]:
        """Copies of each of the 34 kinds in the whole hand (melds included)."""
        counts = [0] * NUM_KINDS
        for t in self.all_tiles():
            counts[t] += 1
        return counts

    def __str__(self) -> str:
        return format_hand(self)


def format_meld(meld: Meld) -> str:
    """One declared set in canonical form: ``[567m,2]``, ``[EEEE]``, ``[1111s,6]``."""
    body = format_tiles(list(meld.tiles))
    if meld.kind is MeldKind.KONG:
        return f"[{body}]" if meld.source == CONCEALED_KONG else f"[{body},{meld.source}]"
    return f"[{body}]" if meld.source == 1 else f"[{body},{meld.source}]"


def format_hand(hand: Hand) -> str:
    """The canonical form of §1.2: flowers, sets, sorted concealed tiles, the winning tile."""
    parts = ["".join(FLOWER_LETTERS[f - FIRST_FLOWER] for f in sorted(hand.flowers))]
    parts.extend(format_meld(m) for m in hand.melds)
    parts.append(format_tiles(sorted(hand.concealed)))
    if hand.win_tile is not None:
        parts.append(format_tiles([hand.win_tile]))
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class WinContext:
    """The situation of a win (the flags that the notation does not carry).

    ``kong``: with a self-draw the winning tile replaced a kong (杠上开花); on a discard the tile
    was robbed from an added kong (抢杠和). ``last_tile``: the last tile of the wall when
    self-drawn, the
    final discard otherwise. ``fourth_tile``: the other three copies are all visible (和绝张).
    ``initial_hand``: the dealer's win on his initial fourteen tiles (no wait fans).
    Winds are 0-3 for East, South, West, North.
    """

    self_drawn: bool = False
    seat_wind: int = 0
    prevalent_wind: int = 0
    last_tile: bool = False
    kong: bool = False
    fourth_tile: bool = False
    initial_hand: bool = False
    extra_flowers: int = field(default=0)

    def describe(self) -> str:
        """A short human description: ``self-drawn, seat E, prevalent S, kong``."""
        parts = ["self-drawn" if self.self_drawn else "discard"]
        parts.append(f"seat {WIND_LETTERS[self.seat_wind]}")
        parts.append(f"prevalent {WIND_LETTERS[self.prevalent_wind]}")
        for name in ("last_tile", "kong", "fourth_tile", "initial_hand"):
            if getattr(self, name):
                parts.append(name.replace("_", " "))
        return ", ".join(parts)


def flower_count(hand: Hand, context: WinContext) -> int:
    """Flowers written in the hand plus those given separately in the context."""
    return len(hand.flowers) + context.extra_flowers


__all__ = [
    "ADDED_KONG_OFFSET",
    "CONCEALED_KONG",
    "FIRST_FLOWER",
    "Hand",
    "Meld",
    "MeldKind",
    "WinContext",
    "flower_count",
    "format_hand",
    "format_meld",
]
