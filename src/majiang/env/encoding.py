"""The fixed action space and the observation layout (NumPy ``int16`` vectors) with its spec.

The actions are numbered by :func:`majiang.engine.actions.action_index` (the table is in
its docstring); this module re-exports the index constants.

An observation is one flat ``int16`` vector, laid out by :class:`Layout`; ``Layout.spec()`` names
its features with their offsets, shapes and feature sets (``public``, ``private``, ``oracle``)
under a version number, :data:`OBSERVATION_VERSION`, raised whenever the layout changes. The
encoder is :class:`majiang.env.observer.Observer`. Seats in it are
relative to the observer: row 0 is the observer, 1 his next player (下家), 2 the opposite seat,
3 the previous player (上家). Tiles are stored as ``tile + 1`` (0 = none)::

    0   seat                 the observer's absolute seat (0-3)
    1   dealer               relative seat
    2   prevalent_wind       0-3 (E S W N)
    3   seat_wind            0-3
    4   phase                0 turn, 1 claim, 2 rob, 3 end, 4 bullets
    5   current              relative seat of the player on turn (or the discarder)
    6   drawn                tile + 1 just drawn by the observer on turn, else 0
    7   last_discard         tile + 1 on offer (claim or rob window), else 0
    8   wall_remaining
    9   drawable             tiles that may still be drawn before the wall is exhausted
    10  may_win              0 after a false win this hand
    11  win_reaches_minimum  0 no Win offered, 1 a Win offered would be a false win, 2 a legal win
    12  wild                 tile + 1 of the wild face (Huangyan's 得), else 0
    13  indicator            tile + 1 turned up, else 0
    14  raw_phase            the late phase is on (Huangyan's 生牌阶段)
    15  dealer_count         the dealer's hands in a row
    16-49  hand              own concealed tiles as 34 counts (the drawn tile included)
    50-    4 seat rows of ROW = 23 + max_pond values each, relative order:
           +0 hand_size, +1 delta (this hand's score change so far), +2 thrown bullets,
           (delta and thrown clipped to the int16 range),
           +3-14 four melds x (kind + 1 [1 chow, 2 pung, 3 kong], tile + 1 [0: face down],
                 source [Meld.source]), empty melds all 0,
           +15-22 flowers in order (tile - 33, 1-8), +23- the pond in order (tile + 1)

With the oracle option (perfect information) two blocks follow: the other three seats' concealed
counts (3 x 34, relative seats 1-3) and the wall in draw order, front first (tile + 1, 0 past
its end; 144 slots; a four-part wall part by part, the dealer's first; 136 tiles without flowers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt

from ..engine.actions import (
    ACCEPT_BULLETS,
    ADDED_KONG0,
    CHOW0,
    CONCEALED_KONG0,
    EXPOSED_KONG,
    PASS,
    PUNG,
    THROW0,
    WIN,
    Action,
    action_count,
    action_index,
    action_list,
)
from ..engine.table import Phase
from ..frozen import rebuild

PHASES = (Phase.TURN, Phase.CLAIM, Phase.ROB, Phase.END, Phase.BULLETS)
PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}

N_SCALARS = 16
HAND = 16
SEATS = HAND + 34
ROW_MELDS = 3
ROW_FLOWERS = 15
ROW_POND = 23
MAX_MELDS = 4
MAX_FLOWERS = 8
WALL_SLOTS = 144

OBSERVATION_VERSION = 1
"""The layout's version: any change to an offset, a shape or a value's meaning raises it."""
SCALARS = (
    "seat", "dealer", "prevalent_wind", "seat_wind", "phase", "current", "drawn",
    "last_discard", "wall_remaining", "drawable", "may_win", "win_reaches_minimum", "wild",
    "indicator", "raw_phase", "dealer_count",
)  # fmt: skip
"""The names of the scalars at offsets 0-15."""
FEATURE_SETS = ("public", "private", "oracle")
"""What everyone sees, what only the observer knows, and what nobody at the table knows."""
PRIVATE = frozenset({"drawn", "win_reaches_minimum", "hand"})
"""Features only the observer knows (the others are public but for his concealed kongs' faces)."""


class Feature(NamedTuple):
    """One named block of the vector: ``shape`` values from ``offset``, in one feature set."""

    name: str
    offset: int
    shape: tuple[int, ...]
    feature_set: str


# Explicit aliases: valid types even where NumPy's stubs are missing (mypyc's build environment)
ObsArray: TypeAlias = npt.NDArray[np.int16]
MaskArray: TypeAlias = npt.NDArray[np.int8]


@dataclass(frozen=True)
class Layout:
    """Sizes and offsets of one encoding (see the module docstring)."""

    throw_limit: int = 0
    max_pond: int = 40
    """Pond slots per seat; a longer pond (never seen in play) keeps its first ``max_pond``."""
    oracle: bool = False

    def __reduce__(self) -> tuple[Any, ...]:
        """Copy and pickle through the constructor (see :mod:`majiang.frozen`)."""
        return rebuild(self)

    @property
    def row(self) -> int:
        """Values per seat row."""
        return ROW_POND + self.max_pond

    @property
    def public_size(self) -> int:
        """Length of the vector without the oracle blocks."""
        return SEATS + 4 * self.row

    @property
    def others(self) -> int:
        """Offset of the oracle's other hands (3 x 34)."""
        return self.public_size

    @property
    def wall(self) -> int:
        """Offset of the oracle's wall (144 slots)."""
        return self.public_size + 3 * 34

    @property
    def size(self) -> int:
        """Length of the observation vector."""
        return self.public_size + (3 * 34 + WALL_SLOTS if self.oracle else 0)

    def features(self) -> tuple[Feature, ...]:
        """The vector's blocks in order; ``seat_rows`` is 4 rows of :meth:`row_fields`."""
        blocks = [
            Feature(name, i, (1,), "private" if name in PRIVATE else "public")
            for i, name in enumerate(SCALARS)
        ]
        blocks += [
            Feature("hand", HAND, (34,), "private"),
            Feature("seat_rows", SEATS, (4, self.row), "public"),
        ]
        if self.oracle:
            blocks += [
                Feature("other_hands", self.others, (3, 34), "oracle"),
                Feature("wall", self.wall, (WALL_SLOTS,), "oracle"),
            ]
        return tuple(blocks)

    def row_fields(self) -> tuple[Feature, ...]:
        """The blocks of one seat row (offsets within the row)."""
        return (
            Feature("hand_sizes", 0, (1,), "public"),
            Feature("deltas", 1, (1,), "public"),
            Feature("thrown", 2, (1,), "public"),
            Feature("melds", ROW_MELDS, (MAX_MELDS, 3), "public"),
            Feature("flowers", ROW_FLOWERS, (MAX_FLOWERS,), "public"),
            Feature("discards", ROW_POND, (self.max_pond,), "public"),
        )

    def spec(self) -> dict[str, Any]:
        """The layout as plain data: version, sizes, feature sets and named features."""
        features = self.features()
        return {
            "version": OBSERVATION_VERSION,
            "size": self.size,
            "num_actions": self.num_actions,
            "feature_sets": [s for s in FEATURE_SETS if any(f.feature_set == s for f in features)],
            "features": [f._asdict() for f in features],
            "row_fields": [f._asdict() for f in self.row_fields()],
        }

    @property
    def num_actions(self) -> int:
        """Size of the action space."""
        return action_count(self.throw_limit)

    def low_high(self) -> tuple[ObsArray, ObsArray]:
        """Element-wise bounds for a ``gymnasium.spaces.Box``."""
        low = np.zeros(self.size, np.int16)
        high = np.full(self.size, 255, np.int16)
        for r in range(4):
            low[SEATS + r * self.row + 1] = -32768
            high[SEATS + r * self.row + 1] = 32767
            high[SEATS + r * self.row + 2] = 32767
        return low, high


class ActionCodec:
    """Indices to actions and back for one layout (``index`` is shared by the codecs of a
    throw limit: read it, do not change it)."""

    def __init__(self, throw_limit: int = 0) -> None:
        actions, self.index, self._by_id = _codec_tables(throw_limit)
        self.actions = list(actions)

    def indices(self, legal: Iterable[Action]) -> list[int]:
        """The indices of these actions: by identity, else by type (never hashing them)."""
        if not isinstance(legal, list | tuple):
            legal = list(legal)  # read twice if one is not a shared object
        try:
            return list(map(self._by_id, map(id, legal)))
        except KeyError:  # an action built elsewhere (equal, not the same object)
            return list(map(action_index, legal))

    def mask(self, legal: Iterable[Action], out: MaskArray | None = None) -> MaskArray:
        """The 0/1 mask of the legal actions."""
        if out is None:
            out = np.zeros(len(self.actions), np.int8)
        else:
            out[:] = 0
        out[self.indices(legal)] = 1
        return out

    def legal(self, mask: MaskArray) -> tuple[Action, ...]:
        """The actions a mask allows, in index order."""
        return tuple(self.actions[i] for i in np.flatnonzero(mask))


@cache
def _codec_tables(
    throw_limit: int,
) -> tuple[tuple[Action, ...], dict[Action, int], Callable[[int], int]]:
    """The action table of a throw limit, its index by action, and its index by the identity
    of the action object (``id``), shared by every codec of that limit. The table offers only
    these objects (but for thrown bullets): looking them up by ``id`` hashes no dataclass,
    a Python call each."""
    actions = tuple(action_list(throw_limit))
    index = {a: i for i, a in enumerate(actions)}
    return actions, index, {id(a): i for i, a in enumerate(actions)}.__getitem__


__all__ = [
    "ACCEPT_BULLETS",
    "ADDED_KONG0",
    "CHOW0",
    "CONCEALED_KONG0",
    "EXPOSED_KONG",
    "HAND",
    "N_SCALARS",
    "OBSERVATION_VERSION",
    "PASS",
    "PUNG",
    "SEATS",
    "THROW0",
    "WIN",
    "ActionCodec",
    "Feature",
    "Layout",
    "action_count",
    "action_index",
    "action_list",
]
