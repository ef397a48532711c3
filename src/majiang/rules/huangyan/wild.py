"""The 得 (dé, the wild tile) of Huangyan: rules/huangyan.md §1.6-1.7 and §4.1, items A1-A3.

After the deal one tile is turned up; its face ``F`` is the **wild face** (A1). The indicator
is out of play and the three other tiles of face ``F`` are the 得 tiles: in the concealed part of
a winning hand each may stand for any tile, and one used as ``F`` itself is *restored*. When
``F`` is not the white dragon, every white dragon is a natural tile of face ``F`` (the stand-in,
A2). When ``F`` is a dragon, identity ``F`` is a *dead face* with no honour credit (A3) unless
the ``live_dragon_face`` option says otherwise.

Tiles are the project's ints (``majiang.tiles``). A *face* is what is printed on a tile; an
*identity* is what a tile counts as (a stand-in's identity is ``F``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import SituationError
from ...notation import parse_tiles
from ...tiles import DRAGONS, NUM_KINDS, TERMINALS, WHITE, WINDS, tile_name

WILD_TILES = 3
"""How many 得 tiles are in play: the four tiles of face F less the indicator (A1)."""


def parse_face(value: str | int) -> int:
    """A tile face from its notation (``"7p"``, ``"P"``) or int 0-33; else ``SituationError``."""
    if isinstance(value, bool):
        raise SituationError(f"a wild face must be a tile such as 7p or P, not {value!r}")
    if isinstance(value, int):
        if 0 <= value < NUM_KINDS:
            return value
        raise SituationError(f"a wild face must be a tile 0-33, not {value}")
    if isinstance(value, str):
        try:
            tiles = parse_tiles(value)
        except ValueError:
            tiles = []
        if len(tiles) == 1 and tiles[0] < NUM_KINDS:
            return tiles[0]
    raise SituationError(f"a wild face must be one tile such as 7p, E or P, not {value!r}")


@dataclass(frozen=True, slots=True)
class Wild:
    """The wild face of one hand and what follows from it.

    ``live_face`` is the ``live_dragon_face`` option (A3 alternative): a dragon wild face then
    keeps its honour credit.
    """

    face: int
    live_face: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.face, bool) or not isinstance(self.face, int):
            raise SituationError(f"a wild face must be a tile 0-33, not {self.face!r}")
        if not 0 <= self.face < NUM_KINDS:
            raise SituationError(f"a wild face must be a tile 0-33, not {self.face}")

    @classmethod
    def of(cls, value: Wild | str | int, live_face: bool = False) -> Wild:
        """A :class:`Wild` from a face (notation or int) or an existing one (kept as given)."""
        if isinstance(value, Wild):
            return value
        return cls(parse_face(value), live_face)

    @classmethod
    def from_indicator(cls, indicator: int, live_face: bool = False) -> Wild:
        """A1 (a): the revealed indicator's own face is the wild face."""
        return cls(parse_face(indicator), live_face)

    @property
    def stand_in(self) -> int | None:
        """The white dragon when it plays as ``F`` (§1.7), None when ``F`` is the white dragon."""
        return None if self.face == WHITE else WHITE

    @property
    def dead_face(self) -> int | None:
        """``F`` when it is a dragon without honour credit (A3), else None."""
        return self.face if self.face in DRAGONS and not self.live_face else None

    def is_wild(self, tile: int) -> bool:
        """Whether a concealed tile of this face is a 得 (every tile of face ``F`` in a hand)."""
        return tile == self.face

    def identity(self, tile: int) -> int:
        """What a natural tile counts as: a stand-in is ``F``, any other tile its face.

        For a loser every tile is natural, so his 得 tiles are ``F`` too (§1.6, A14).
        """
        return self.face if tile == WHITE else tile

    def physical(self, identity: int) -> int:
        """The face of a natural tile with this identity (``F`` is carried by a stand-in)."""
        return WHITE if identity == self.face and self.face != WHITE else identity

    def is_dead(self, identity: int) -> bool:
        """Identity ``F`` when ``F`` is a dead dragon face."""
        return identity == self.dead_face

    def is_live_dragon(self, identity: int) -> bool:
        """A dragon identity that earns honour credit."""
        return identity in DRAGONS and identity != self.dead_face

    def is_honour(self, identity: int) -> bool:
        """A wind or live dragon: what the flush tests count as an honour (dead face ignored)."""
        return identity in WINDS or self.is_live_dragon(identity)

    def is_hard(self, identity: int) -> bool:
        """硬张: a wind, a live dragon, or a 1 or 9 of a suit (the dead face is soft, §4.1)."""
        return identity in WINDS or identity in TERMINALS or self.is_live_dragon(identity)

    def describe(self) -> str:
        """``"wild 7p; white dragons play as 7p"``."""
        name = tile_name(self.face)
        parts = [f"wild {name} (得)"]
        if self.stand_in is not None:
            parts.append(f"white dragons play as {name}")
        if self.face in DRAGONS:
            parts.append(f"{name} is a {'live' if self.live_face else 'dead'} face")
        return "; ".join(parts)


__all__ = ["WILD_TILES", "Wild", "parse_face"]
