"""The observer: the one encoder of the layout in :mod:`majiang.env.encoding`.

One :class:`Observer` per table follows it (``reset(table)``, then ``encode(seat, obs, mask)``),
keeping the public rows (melds, flowers, ponds) up to date from the table's events;
``encode_view`` encodes an engine ``Observation`` (the reference the fast path is tested
against) and ``decode`` turns a vector back into one. :class:`BatchObserver` writes the
observations of many tables, each followed by its own observer, into shared arrays with a few
vectorised operations.
"""

from __future__ import annotations

from itertools import compress
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..engine.actions import DISCARDS, Action
from ..engine.serialize import state_to_json
from ..engine.state import (
    HIDDEN,
    NO_EXTENSION_STATE,
    Observation,
    Phase,
    count_visible,
    extension_state,
)
from ..engine.table import Table
from ..hand import Meld, MeldKind
from .encoding import (
    HAND,
    MAX_FLOWERS,
    MAX_MELDS,
    N_SCALARS,
    PHASE_INDEX,
    PHASES,
    ROW_FLOWERS,
    ROW_MELDS,
    ROW_POND,
    SEATS,
    WALL_SLOTS,
    WIN,
    ActionCodec,
    Layout,
    MaskArray,
    ObsArray,
)

_TURN, _CLAIM, _ROB, _END = Phase.TURN, Phase.CLAIM, Phase.ROB, Phase.END
_CLAIMS = frozenset({"chow", "pung", "exposed_kong"})
_QUIET = frozenset({"raw_tile_phase", "added_kong", "throw_bullets", "exhaustive_draw"})
"""Events that change nothing the rows hold (the kong of an added tile is written when its
replacement is drawn; a robbed one never is)."""
_KINDS = range(34)


def _clip(value: int) -> int:
    """A score within int16 (only a limitless Huangyan room could leave it)."""
    return -32768 if value < -32768 else 32767 if value > 32767 else value


def _meld_values(meld: Meld) -> tuple[int, int, int]:
    return int(meld.kind) + 1, meld.tile + 1, meld.source


def _plus(tile: int | None) -> int:
    return 0 if tile is None else tile + 1


def _encode_view(
    obs: Observation, layout: Layout, codec: ActionCodec
) -> tuple[ObsArray, MaskArray]:
    """The reference encoding of an :class:`Observation` (see :meth:`Observer.encode_view`)."""
    vec = np.zeros(layout.size, np.int16)
    seat = obs.seat
    wrm = obs.win_reaches_minimum
    late, dealer_count, thrown = extension_state(obs)
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
        int(late),
        dealer_count,
    ]
    for t in obs.hand:
        vec[HAND + t] += 1
    for r in range(4):
        s = (seat + r) % 4
        base = SEATS + r * layout.row
        vec[base : base + 3] = (obs.hand_sizes[s], _clip(obs.deltas[s]), _clip(thrown[s]))
        for i, meld in enumerate(obs.melds[s][:MAX_MELDS]):
            vec[base + ROW_MELDS + 3 * i : base + ROW_MELDS + 3 * i + 3] = _meld_values(meld)
        for i, f in enumerate(obs.flowers[s][:MAX_FLOWERS]):
            vec[base + ROW_FLOWERS + i] = f - 33
        pond = obs.discards[s][: layout.max_pond]
        vec[base + ROW_POND : base + ROW_POND + len(pond)] = [t + 1 for t in pond]
    return vec, codec.mask(obs.legal_actions)


class EncodedState(NamedTuple):
    """The extension of a decoded observation: the rule set's state that the layout holds
    (a rule set's own record is not in the vector; :func:`extension_state` reads both alike)."""

    late: bool
    dealer_count: int
    thrown: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The layout's fields, as an observation's JSON writes them."""
        return state_to_json((self.late, self.dealer_count, self.thrown))


def _decode(vec: ObsArray, mask: MaskArray, layout: Layout, codec: ActionCodec) -> Observation:
    """The observation a vector encodes (see :meth:`Observer.decode`)."""
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
    state = (bool(v[14]), v[15], tuple(row[2] for row in rows))
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
        drawable=v[9],
        visible=count_visible(melds, discards) if wild is None else None,
        extension=None if state == NO_EXTENSION_STATE else EncodedState(*state),
    )


ROLL = np.array([[(s + r) % 4 for r in range(4)] for s in range(4)], np.intp)
"""``ROLL[seat]``: absolute seats in the observer's relative order."""


class Observer:
    """The encoder of one layout. :meth:`encode` reads the :class:`Table` it follows directly
    and keeps the public part (melds, flowers, ponds) up to date incrementally; it writes
    exactly :meth:`encode_view` of ``table.observation(seat)`` (tested).

    ``rows`` (4 x ``layout.row``) may be a view into a larger array (:class:`BatchObserver`
    keeps all its tables' rows in one array: :meth:`sync`, :meth:`scalars` and :meth:`finish`
    are the per-table parts)."""

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

    def spec(self) -> dict[str, Any]:
        """The layout's spec: version, sizes, feature sets and named features."""
        return self.layout.spec()

    def encode_view(self, obs: Observation) -> tuple[ObsArray, MaskArray]:
        """The reference encoding: one :class:`Observation` to ``(vector, mask)`` (no oracle
        part)."""
        return _encode_view(obs, self.layout, self.codec)

    def decode(self, vec: ObsArray, mask: MaskArray) -> Observation:
        """The inverse of :meth:`encode_view` (legal actions come back in index order, the
        rule set's extension as the :class:`EncodedState` it holds)."""
        return _decode(vec, mask, self.layout, self.codec)

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
        undrawn = wall.undrawn()
        n = len(undrawn)
        obs[layout.wall : layout.wall + n] = [t + 1 for t in undrawn]
        obs[layout.wall + n : layout.wall + WALL_SLOTS] = 0


def encode_observation(
    obs: Observation, layout: Layout, codec: ActionCodec | None = None
) -> tuple[ObsArray, MaskArray]:
    """``Observer(layout, codec).encode_view(obs)``."""
    return _encode_view(obs, layout, codec or ActionCodec(layout.throw_limit))


def decode_observation(
    vec: ObsArray, mask: MaskArray, layout: Layout, codec: ActionCodec | None = None
) -> Observation:
    """``Observer(layout, codec).decode(vec, mask)``."""
    return _decode(vec, mask, layout, codec or ActionCodec(layout.throw_limit))


class BatchObserver:
    """The observations and masks of ``num_envs`` tables in shared arrays (``obs``, ``mask``,
    ``seats``: row ``i`` is table ``i``'s acting seat), one :class:`Observer` per table."""

    def __init__(self, layout: Layout, codec: ActionCodec, num_envs: int) -> None:
        self.layout = layout
        self.codec = codec
        self.obs: ObsArray = np.zeros((num_envs, layout.size), np.int16)
        self.mask: MaskArray = np.zeros((num_envs, layout.num_actions), np.int8)
        self.seats: npt.NDArray[np.int64] = np.zeros(num_envs, np.int64)
        self._rows: ObsArray = np.zeros((num_envs, 4, layout.row), np.int16)
        self._rows_view = self.obs[:, SEATS : layout.public_size].reshape(num_envs, 4, layout.row)
        assert np.shares_memory(self._rows_view, self.obs)
        self.observers = [Observer(layout, codec, self._rows[i]) for i in range(num_envs)]
        self._offsets = np.arange(num_envs) * layout.num_actions
        self._range = np.arange(num_envs)[:, None]

    def spec(self) -> dict[str, Any]:
        """The layout's spec (see :meth:`Layout.spec`)."""
        return self.layout.spec()

    def reset(self, i: int, table: Table) -> None:
        """Table ``i`` is now ``table``."""
        self.observers[i].reset(table)

    def encode(self, tables: list[Table], seats: list[int], legals: list[list[Action]]) -> None:
        """Write every table's observation of its acting seat (``seats[i]``, whose legal
        actions are ``legals[i]``) in a few vectorised operations (the per-table part only
        gathers small lists of small ints)."""
        n = len(tables)
        indices = self.codec.indices
        flat: list[int] = []
        counts: list[int] = []
        scalars: list[int] = []
        hands: list[int] = []
        special: list[int] = []
        oracle = self.layout.oracle
        observers = self.observers
        turns: list[bool] = []
        for i, (table, observer, seat, legal_actions) in enumerate(
            zip(tables, observers, seats, legals, strict=True)
        ):
            observer.sync()
            held = table.concealed[seat]
            hands += held
            # A turn's actions end with a discard of every kind held (Table._turn_actions), whose
            # indices are the tiles: those come from the hands below, in one vectorised step.
            cut = len(legal_actions) - 34 + held.count(0)
            turn = (
                table.phase is _TURN
                and cut >= 0
                and legal_actions[cut] is DISCARDS[next(compress(_KINDS, held), 0)]
            )
            turns.append(turn)
            if turn:
                legal = indices(legal_actions[:cut]) if cut else []
            else:
                legal = indices(legal_actions)
            flat += legal
            counts.append(len(legal))
            scalars += observer.scalars(seat, WIN in legal)
            if oracle or observer.concealed_kongs[seat]:
                special.append(i)
        held_counts = np.frombuffer(bytes(hands), np.uint8).reshape(n, 34)
        mask = self.mask
        mask[:] = 0
        np.greater(held_counts, 0, out=mask[:, :34], where=np.array(turns)[:, None])
        mask.reshape(-1)[np.repeat(self._offsets, counts) + self._flat_array(flat)] = 1
        obs = self.obs
        values = np.frombuffer(bytes(scalars), np.uint8).reshape(n, N_SCALARS + 4)
        obs[:, :N_SCALARS] = values[:, :N_SCALARS]
        obs[:, HAND:SEATS] = held_counts
        self.seats[:] = seats
        rows = self._rows
        rows[:, :, 0] = values[:, N_SCALARS:]
        self._rows_view[:] = rows[self._range, ROLL[self.seats]]
        for i in special:
            observers[i].finish(seats[i], obs[i])

    def _flat_array(self, flat: list[int]) -> npt.NDArray[np.integer[Any]]:
        """The legal indices as an array: through ``bytes`` when they fit in a byte, about five
        times faster than NumPy's conversion of a list of Python ints."""
        if self.layout.num_actions <= 256:
            return np.frombuffer(bytes(flat), np.uint8)
        return np.array(flat, np.intp)


__all__ = [
    "BatchObserver", "EncodedState", "Observer", "decode_observation", "encode_observation",
]
