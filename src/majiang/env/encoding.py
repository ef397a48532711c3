"""The fixed action space and the observation encoding (NumPy ``int16`` vectors).

Actions (one index per action; the same table for every state of a rule set)::

    0-33     Discard(t)            t = tile 0-33
    34-54    Chow(low)             34 + 7 * suit + rank, low = 9 * suit + rank (rank 0-6)
    55       Pung
    56       ExposedKong
    57-90    ConcealedKong(t)      57 + t
    91-124   AddedKong(t)          91 + t
    125      Win
    126      Pass
    127      AcceptBullets
    128+n    ThrowBullets(n)       n = 0 .. throw_limit (only when the rules have a throw limit)

An observation is one flat ``int16`` vector, laid out by :class:`Layout`. Seats in it are
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
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from ..engine.actions import (
    ACCEPT_BULLETS_ACTION,
    ADDED_KONGS,
    CHOWS,
    CONCEALED_KONGS,
    DISCARDS,
    EXPOSED_KONG_ACTION,
    PASS_ACTION,
    PUNG_ACTION,
    WIN_ACTION,
    AcceptBullets,
    Action,
    AddedKong,
    Chow,
    ConcealedKong,
    Discard,
    ExposedKong,
    Pass,
    Pung,
    ThrowBullets,
    Win,
)
from ..engine.state import count_visible
from ..engine.table import HIDDEN, Observation, Phase, Table
from ..frozen import rebuild
from ..hand import Meld, MeldKind

CHOW0 = 34
PUNG = 55
EXPOSED_KONG = 56
CONCEALED_KONG0 = 57
ADDED_KONG0 = 91
WIN = 125
PASS = 126
ACCEPT_BULLETS = 127
THROW0 = 128

PHASES = (Phase.TURN, Phase.CLAIM, Phase.ROB, Phase.END, Phase.BULLETS)
PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
_TURN, _CLAIM, _ROB, _END = Phase.TURN, Phase.CLAIM, Phase.ROB, Phase.END
_CLAIMS = frozenset({"chow", "pung", "exposed_kong"})
_QUIET = frozenset({"raw_tile_phase", "added_kong", "throw_bullets", "exhaustive_draw"})
"""Events that change nothing the rows hold (the kong of an added tile is written when its
replacement is drawn; a robbed one never is)."""

N_SCALARS = 16
HAND = 16
SEATS = HAND + 34
ROW_MELDS = 3
ROW_FLOWERS = 15
ROW_POND = 23
MAX_MELDS = 4
MAX_FLOWERS = 8
WALL_SLOTS = 144

# Explicit aliases: valid types even where NumPy's stubs are missing (mypyc's build environment)
ObsArray: TypeAlias = npt.NDArray[np.int16]
MaskArray: TypeAlias = npt.NDArray[np.int8]


def action_count(throw_limit: int = 0) -> int:
    """The size of the action space for a rule set with this ``throw_limit``."""
    return THROW0 + throw_limit + 1 if throw_limit > 0 else THROW0


def action_list(throw_limit: int = 0) -> list[Action]:
    """Every action by index (see the module docstring): the engine's shared instances
    (``majiang.engine.actions.DISCARDS`` …), the very objects the table offers."""
    actions: list[Action] = list(DISCARDS)
    actions += [CHOWS[9 * suit + rank] for suit in range(3) for rank in range(7)]
    actions += [PUNG_ACTION, EXPOSED_KONG_ACTION]
    actions += CONCEALED_KONGS
    actions += ADDED_KONGS
    actions += [WIN_ACTION, PASS_ACTION, ACCEPT_BULLETS_ACTION]
    if throw_limit > 0:
        actions += [ThrowBullets(n) for n in range(throw_limit + 1)]
    assert len(actions) == action_count(throw_limit)
    return actions


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
            return [a.tile if type(a) is Discard else _other_index(a) for a in legal]  # type: ignore[union-attr]

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


_FIXED: dict[type, int] = {
    Pung: PUNG,
    ExposedKong: EXPOSED_KONG,
    Win: WIN,
    Pass: PASS,
    AcceptBullets: ACCEPT_BULLETS,
}


def _other_index(action: Action) -> int:
    """The index of any action but a discard."""
    kind = type(action)
    fixed = _FIXED.get(kind)
    if fixed is not None:
        return fixed
    if isinstance(action, Chow):
        return CHOW0 + 7 * (action.low // 9) + action.low % 9
    if isinstance(action, ConcealedKong):
        return CONCEALED_KONG0 + action.tile
    if isinstance(action, AddedKong):
        return ADDED_KONG0 + action.tile
    if isinstance(action, ThrowBullets):
        return THROW0 + action.count
    if isinstance(action, Discard):
        return action.tile
    raise TypeError(f"not an action: {action!r}")


def _clip(value: int) -> int:
    """A score within int16 (only a limitless Huangyan room could leave it)."""
    return -32768 if value < -32768 else 32767 if value > 32767 else value


def _meld_values(meld: Meld) -> tuple[int, int, int]:
    return int(meld.kind) + 1, meld.tile + 1, meld.source


def _plus(tile: int | None) -> int:
    return 0 if tile is None else tile + 1


def encode_observation(
    obs: Observation, layout: Layout, codec: ActionCodec | None = None
) -> tuple[ObsArray, MaskArray]:
    """The reference encoder: one :class:`Observation` to ``(vector, mask)`` (no oracle part)."""
    codec = codec or ActionCodec(layout.throw_limit)
    vec = np.zeros(layout.size, np.int16)
    seat = obs.seat
    wrm = obs.win_reaches_minimum
    vec[:N_SCALARS] = [
        seat,
        (obs.dealer - seat) % 4,
        obs.prevalent_wind,
        obs.seat_wind,
        PHASE_INDEX[obs.phase],
        (obs.current - seat) % 4,
        _plus(obs.drawn),
        _plus(obs.last_discard),
        obs.wall_remaining,
        obs.drawable,
        int(obs.may_win),
        0 if wrm is None else 1 + int(wrm),
        _plus(obs.wild),
        _plus(obs.indicator),
        int(obs.raw_phase),
        obs.dealer_count,
    ]
    for t in obs.hand:
        vec[HAND + t] += 1
    for r in range(4):
        s = (seat + r) % 4
        base = SEATS + r * layout.row
        vec[base : base + 3] = (obs.hand_sizes[s], _clip(obs.deltas[s]), _clip(obs.thrown[s]))
        for i, meld in enumerate(obs.melds[s][:MAX_MELDS]):
            vec[base + ROW_MELDS + 3 * i : base + ROW_MELDS + 3 * i + 3] = _meld_values(meld)
        for i, f in enumerate(obs.flowers[s][:MAX_FLOWERS]):
            vec[base + ROW_FLOWERS + i] = f - 33
        pond = obs.discards[s][: layout.max_pond]
        vec[base + ROW_POND : base + ROW_POND + len(pond)] = [t + 1 for t in pond]
    return vec, codec.mask(obs.legal_actions)


def decode_observation(
    vec: ObsArray, mask: MaskArray, layout: Layout, codec: ActionCodec | None = None
) -> Observation:
    """The inverse of :func:`encode_observation` (legal actions come back in index order)."""
    codec = codec or ActionCodec(layout.throw_limit)
    v = [int(x) for x in vec[: layout.public_size]]
    seat = v[0]

    def tile(x: int) -> int | None:
        return None if x == 0 else x - 1

    rows: list[list[int]] = [[] for _ in range(4)]
    for r in range(4):
        base = SEATS + r * layout.row
        rows[(seat + r) % 4] = v[base : base + layout.row]
    melds = tuple(
        tuple(
            Meld(MeldKind(row[i] - 1), row[i + 1] - 1 if row[i + 1] else HIDDEN, row[i + 2])
            for i in range(ROW_MELDS, ROW_FLOWERS, 3)
            if row[i]
        )
        for row in rows
    )
    hand = tuple(t for t in range(34) for _ in range(v[HAND + t]))
    discards = tuple(tuple(t - 1 for t in row[ROW_POND:] if t) for row in rows)
    wrm = v[11]
    wild = tile(v[12])
    return Observation(
        seat=seat,
        dealer=(seat + v[1]) % 4,
        prevalent_wind=v[2],
        seat_wind=v[3],
        phase=PHASES[v[4]],
        current=(seat + v[5]) % 4,
        hand=hand,
        drawn=tile(v[6]),
        melds=melds,
        flowers=tuple(tuple(f + 33 for f in row[ROW_FLOWERS:ROW_POND] if f) for row in rows),
        discards=discards,
        hand_sizes=tuple(row[0] for row in rows),
        wall_remaining=v[8],
        last_discard=tile(v[7]),
        legal_actions=codec.legal(mask),
        deltas=tuple(row[1] for row in rows),
        may_win=bool(v[10]),
        win_reaches_minimum=None if wrm == 0 else wrm == 2,
        wild=wild,
        indicator=tile(v[13]),
        raw_phase=bool(v[14]),
        drawable=v[9],
        dealer_count=v[15],
        thrown=tuple(row[2] for row in rows),
        visible=count_visible(melds, discards) if wild is None else None,
    )


ROLL = np.array([[(s + r) % 4 for r in range(4)] for s in range(4)], np.intp)
"""``ROLL[seat]``: absolute seats in the observer's relative order."""


class TableEncoder:
    """The fast encoder: reads a :class:`Table` directly and keeps the public part (melds,
    flowers, ponds) up to date incrementally; equal to :func:`encode_observation` of
    ``table.observation(seat)`` (tested).

    ``rows`` (4 x ``layout.row``) may be a view into a larger array (the batch keeps all its
    tables' rows in one array and encodes them together: :meth:`scalars`, :meth:`seat_stats`
    and :meth:`finish` are the per-table parts)."""

    def __init__(
        self, layout: Layout, codec: ActionCodec | None = None, rows: ObsArray | None = None
    ) -> None:
        self.layout = layout
        self._row = layout.row
        self._public_size = layout.public_size
        self._with_oracle = layout.oracle
        self.codec = codec or ActionCodec(layout.throw_limit)
        self.rows = np.zeros((4, layout.row), np.int16) if rows is None else rows
        """The four seat rows in absolute order, other seats' concealed kongs face down.
        Column 0 (the hand size) is written by :meth:`encode` only."""
        self.table: Table | None = None
        self._key = -1
        self._ponds = [0, 0, 0, 0]
        self._sizes = [13, 13, 13, 13]
        """Each seat's concealed tiles when it is not on turn: 13 - 3 per meld."""
        self._flowers = [0, 0, 0, 0]
        self._replacements = 0
        self._deltas: list[int] = []
        self._thrown: list[int] = []
        self._constants = (0, 0, 0, 1)
        self.concealed_kongs = [False, False, False, False]
        """Which seats hold a concealed kong (face down in ``rows``)."""

    def reset(self, table: Table) -> None:
        """Follow a new table."""
        self.table = table
        self.rows[:] = 0
        self._key = -1
        self._ponds = [0, 0, 0, 0]
        self._sizes = [13, 13, 13, 13]
        self._flowers = [0, 0, 0, 0]
        self._replacements = -1
        self._deltas = []
        self._thrown = []
        self.concealed_kongs = [False, False, False, False]

    def _write_melds(self, seat: int, melds: list[Meld]) -> None:
        row = self.rows[seat]
        values: list[int] = []
        hidden = False
        for m in melds[:MAX_MELDS]:
            if m.is_concealed_kong:
                hidden = True
                values += (3, 0, 0)
            else:
                values += (int(m.kind) + 1, m.tile + 1, m.source)
        values += [0] * (3 * MAX_MELDS - len(values))
        row[ROW_MELDS:ROW_FLOWERS] = values
        self.concealed_kongs[seat] = hidden
        self._sizes[seat] = 13 - 3 * len(melds)  # its concealed tiles when not on turn

    def _pond(self, s: int) -> None:
        table = self.table
        assert table is not None
        pond = table.ponds[s]
        old = self._ponds[s]
        new = len(pond)
        if new == old:
            return
        max_pond = self.layout.max_pond
        if new == old + 1 and old < max_pond:  # one discard, the common case
            self.rows[s, ROW_POND + old] = pond[old] + 1
            self._ponds[s] = new
            return
        row = self.rows[s]
        if new > old:
            hi = min(new, max_pond)
            if old < hi:
                row[ROW_POND + old : ROW_POND + hi] = [t + 1 for t in pond[old:hi]]
        elif new < max_pond:
            row[ROW_POND + new : ROW_POND + min(old, max_pond)] = 0
        self._ponds[s] = new

    def _flowers_of(self, s: int) -> None:
        table = self.table
        assert table is not None
        flowers = table.flowers[s]
        if len(flowers) != self._flowers[s]:
            n = min(len(flowers), MAX_FLOWERS)
            self.rows[s, ROW_FLOWERS : ROW_FLOWERS + n] = [f - 33 for f in flowers[:n]]
            self._flowers[s] = len(flowers)

    def _refresh(self) -> None:
        """Everything public, from the table itself."""
        table = self.table
        assert table is not None
        for s in range(4):
            self._pond(s)
            self._write_melds(s, table.melds[s])
            self._flowers_of(s)
        if table.deltas != self._deltas:
            self._deltas = list(table.deltas)
            self.rows[:, 1] = [_clip(d) for d in self._deltas]
        if table.thrown != self._thrown:
            self._thrown = list(table.thrown)
            self.rows[:, 2] = [_clip(n) for n in self._thrown]
        wild = table.rules.wild_face
        self._constants = (
            table.prevalent_wind,
            0 if wild is None else wild + 1,
            table.indicators[0] + 1 if table.indicators else 0,
            min(table.dealer_count, 255),
        )

    def sync(self) -> None:
        """Bring melds, flowers, ponds and ledgers up to date from the events since the last
        call (nothing to do when there are none)."""
        table = self.table
        assert table is not None
        events = table.events
        key = len(events)
        start = self._key
        if key == start:
            return
        self._key = key
        if start < 0:
            self._refresh()
            return
        max_pond = self.layout.max_pond
        for event in events[start:]:
            kind = event["type"]
            if kind == "draw":
                if event["source"] == "kong":  # a kong is complete (an added one only now)
                    seat = event["seat"]
                    self._write_melds(seat, table.melds[seat])
            elif kind == "discard":
                seat = event["seat"]
                pond = table.ponds[seat]
                old = self._ponds[seat]
                if old < len(pond) and old < max_pond:  # _pond's common case, inline
                    self.rows[seat, ROW_POND + old] = pond[old] + 1
                    self._ponds[seat] = old + 1
                else:
                    self._pond(seat)
            elif kind in _CLAIMS:
                self._pond(event["source"])
                seat = event["seat"]
                self._write_melds(seat, table.melds[seat])
            elif kind == "flower":
                self._flowers_of(event["seat"])
            elif kind not in _QUIET:
                self._refresh()  # a win, a false win, the deal, bullets: rare

    def scalars(self, seat: int, win_offered: bool) -> list[int]:
        """The 16 scalars of ``seat``'s observation (``win_offered``: Win is in its mask),
        followed by the hand sizes of seats 0-3 (absolute): 20 values, all 0-255."""
        table = self.table
        assert table is not None
        phase = table.phase
        current = table.current
        sizes = self._sizes.copy()  # kept by _write_melds
        drawn = on_offer = wrm = 0
        if phase is _TURN:
            code = 0
            sizes[current] += 1
            if seat == current and table.draw_source != "claim":
                last = table.last_tile
                drawn = 0 if last is None else last + 1
            if win_offered:
                check = table.win_check(seat)
                wrm = 0 if check is None else 1 + check.legal
        elif phase is _CLAIM or phase is _ROB:
            code = 1 if phase is _CLAIM else 2
            last = table.last_tile
            on_offer = 0 if last is None else last + 1
            if win_offered:
                check = table.win_check(seat)
                wrm = 0 if check is None else 1 + check.legal
        else:
            code = 3 if phase is _END else 4
            sizes = [sum(c) for c in table.concealed]
        prevalent, wild, indicator, dealer_count = self._constants
        dealer = table.dealer
        remaining = table.wall.back - table.wall.front
        live = table.drawable
        return [
            seat,
            (dealer - seat) % 4,
            prevalent,
            (seat - dealer) % 4,
            code,
            (current - seat) % 4,
            drawn,
            on_offer,
            remaining,
            live if live > 0 else 0,
            seat not in table.cannot_win,
            wrm,
            wild,
            indicator,
            table.late,
            dealer_count,
            *sizes,
        ]

    def encode(self, seat: int, obs: ObsArray, mask: MaskArray) -> None:
        """Write ``seat``'s observation vector and action mask into ``obs`` and ``mask``."""
        table = self.table
        assert table is not None
        self.sync()
        legal = self.codec.indices(table.legal_actions(seat))
        mask[:] = 0
        mask[legal] = 1
        values = self.scalars(seat, WIN in legal)
        own = self.rows
        own[:, 0] = values[N_SCALARS:]
        del values[N_SCALARS:]
        obs[:SEATS] = np.frombuffer(bytes(values + table.concealed[seat]), np.uint8)
        rows = obs[SEATS : self._public_size].reshape(4, self._row)
        rows[: 4 - seat] = own[seat:]  # relative order: the observer's row first
        rows[4 - seat :] = own[:seat]
        if self.concealed_kongs[seat] or self._with_oracle:
            self.finish(seat, obs)

    def finish(self, seat: int, obs: ObsArray) -> None:
        """What follows the shared rows: own concealed kongs face up and the oracle blocks."""
        layout = self.layout
        if self.concealed_kongs[seat] or layout.oracle:
            rows = obs[SEATS : layout.public_size].reshape(4, layout.row)
            self._reveal(seat, rows)
        if layout.oracle:
            self._oracle(seat, obs)

    def _reveal(self, seat: int, rows: ObsArray) -> None:
        """Own concealed kongs face up (and, for the oracle, everyone's)."""
        table = self.table
        assert table is not None
        seats = range(4) if self.layout.oracle else (seat,)
        for s in seats:
            row = rows[(s - seat) % 4]
            for i, m in enumerate(table.melds[s][:MAX_MELDS]):
                if m.is_concealed_kong:
                    row[ROW_MELDS + 3 * i + 1] = m.tile + 1

    def _oracle(self, seat: int, obs: ObsArray) -> None:
        table = self.table
        assert table is not None
        layout = self.layout
        conc = table.concealed
        obs[layout.others : layout.wall] = (
            conc[(seat + 1) % 4] + conc[(seat + 2) % 4] + conc[(seat + 3) % 4]
        )
        wall = table.wall
        undrawn = wall.tiles[wall.front : wall.back] if wall.parts == 1 else wall.undrawn()
        n = len(undrawn)
        obs[layout.wall : layout.wall + n] = [t + 1 for t in undrawn]
        obs[layout.wall + n : layout.wall + WALL_SLOTS] = 0


__all__ = [
    "ACCEPT_BULLETS",
    "ADDED_KONG0",
    "CHOW0",
    "CONCEALED_KONG0",
    "EXPOSED_KONG",
    "HAND",
    "N_SCALARS",
    "PASS",
    "PUNG",
    "ROLL",
    "SEATS",
    "THROW0",
    "WIN",
    "ActionCodec",
    "Layout",
    "TableEncoder",
    "action_count",
    "action_list",
    "decode_observation",
    "encode_observation",
]
