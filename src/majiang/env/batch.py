"""Many tables stepped in one call, with observations and masks in shared NumPy arrays.

``BatchEnv(n)`` holds ``n`` tables; each row of ``obs`` / ``mask`` is the observation of the
seat that must act at that table (``seats``). ``step(actions)`` applies one action per table
(an index per row), pays the rewards of all four seats of every table (``rewards``, shape
``(n, 4)``, absolute seats) and starts a new hand wherever one ended (``dones``); the finished
hand's result is in ``results``. Table ``i`` starts from ``seeds[i]``; its next hand uses that
seed plus ``n``, so ``reset(range(k, k + n))`` never repeats a seed.

The arrays are reused from step to step: copy what you keep.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from itertools import compress
from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine.actions import DISCARDS, Action
from ..engine.table import HandResult, Phase, Table
from ..rules.base import RuleSet
from ..rules.registry import DEFAULT_RULES
from .aec import make_table_rules
from .encoding import (
    HAND,
    N_SCALARS,
    ROLL,
    SEATS,
    WIN,
    ActionCodec,
    Layout,
    MaskArray,
    ObsArray,
    TableEncoder,
)

_END = Phase.END  # a module constant: Phase.END is a slow enum look-up (see engine.table)
_TURN = Phase.TURN
_KINDS = range(34)


class BatchEnv:
    """``num_envs`` tables in self-play; see the module docstring."""

    def __init__(
        self,
        num_envs: int,
        rules: str | RuleSet = DEFAULT_RULES,
        *,
        oracle: bool = False,
        every_seat_answers: bool = True,
        dealer: int = 0,
        prevalent_wind: int = 0,
        bullet_value: float = 0.0,
        max_pond: int = 40,
        **options: Any,
    ) -> None:
        self.num_envs = num_envs
        self.rule_set = make_table_rules(rules, options)
        self.layout = Layout(self.rule_set.throw_limit, max_pond, oracle)
        self.codec = ActionCodec(self.layout.throw_limit)
        self.every_seat_answers = every_seat_answers
        self.dealer = dealer
        self.prevalent_wind = prevalent_wind
        self.bullet_value = bullet_value
        self.obs: ObsArray = np.zeros((num_envs, self.layout.size), np.int16)
        self.mask: MaskArray = np.zeros((num_envs, self.layout.num_actions), np.int8)
        self.seats: npt.NDArray[np.int64] = np.zeros(num_envs, np.int64)
        self.rewards: npt.NDArray[np.float32] = np.zeros((num_envs, 4), np.float32)
        self.dones: npt.NDArray[np.bool_] = np.zeros(num_envs, np.bool_)
        self.results: list[HandResult | None] = [None] * num_envs
        """The result of the hand that ended at each table in the last step (else None)."""
        self.seeds: list[int] = list(range(num_envs))
        self.tables: list[Table] = []
        layout = self.layout
        self._rows: ObsArray = np.zeros((num_envs, 4, layout.row), np.int16)
        self._rows_view = self.obs[:, SEATS : layout.public_size].reshape(num_envs, 4, layout.row)
        assert np.shares_memory(self._rows_view, self.obs)
        self.encoders = [
            TableEncoder(layout, self.codec, self._rows[i]) for i in range(num_envs)
        ]
        self.encode_seconds = 0.0
        """Time spent encoding observations and masks in :meth:`encode_all` (benchmarks)."""
        self.query_seconds = 0.0
        """Time spent asking the tables who acts and what is legal in :meth:`encode_all`."""
        self._offsets = np.arange(num_envs) * layout.num_actions
        self._paid: list[list[float]] = [[0.0] * 4 for _ in range(num_envs)]
        self._range = np.arange(num_envs)[:, None]
        self.hands_finished = 0
        self.steps = 0

    def _new_table(self, i: int, seed: int) -> Table:
        table = Table(
            self.rule_set,
            seed,
            dealer=self.dealer,
            prevalent_wind=self.prevalent_wind,
            every_seat_answers=self.every_seat_answers,
        )
        self.seeds[i] = seed
        self.encoders[i].reset(table)
        self._paid[i] = [0.0] * 4
        return table

    def encode_all(self) -> None:
        """Every table's acting seat, observation vector and mask, written in a few vectorised
        operations (the per-table part only gathers small lists of small ints).

        The table's own work (``to_act`` and ``legal_actions``, which the next ``apply``
        would do anyway) is timed in ``query_seconds``, the encoding in ``encode_seconds``."""
        start = time.perf_counter()
        n = self.num_envs
        tables = self.tables
        seats: list[int] = []
        legals: list[list[Action]] = []
        for table in tables:
            seat = table.to_act()[0]
            seats.append(seat)
            legals.append(table.legal_actions(seat))
        middle = time.perf_counter()
        indices = self.codec.indices
        flat: list[int] = []
        counts: list[int] = []
        scalars: list[int] = []
        hands: list[int] = []
        special: list[int] = []
        oracle = self.layout.oracle
        encoders = self.encoders
        turns: list[bool] = []
        for i, (table, encoder, seat, legal_actions) in enumerate(
            zip(tables, encoders, seats, legals, strict=True)
        ):
            encoder.sync()
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
            scalars += encoder.scalars(seat, WIN in legal)
            if oracle or encoder.concealed_kongs[seat]:
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
            encoders[i].finish(seats[i], obs[i])
        end = time.perf_counter()
        self.query_seconds += middle - start
        self.encode_seconds += end - middle

    def _flat_array(self, flat: list[int]) -> npt.NDArray[np.integer[Any]]:
        """The legal indices as an array: through ``bytes`` when they fit in a byte, about five
        times faster than NumPy's conversion of a list of Python ints."""
        if self.layout.num_actions <= 256:
            return np.frombuffer(bytes(flat), np.uint8)
        return np.array(flat, np.intp)

    def reset(
        self, seeds: Sequence[int] | None = None
    ) -> tuple[ObsArray, MaskArray, npt.NDArray[np.int64]]:
        """New hands with these seeds (default ``0 … n-1``): ``(obs, mask, seats)``."""
        seeds = list(range(self.num_envs)) if seeds is None else list(seeds)
        if len(seeds) != self.num_envs:
            raise ValueError(f"{self.num_envs} seeds are needed, not {len(seeds)}")
        self.tables = [self._new_table(i, s) for i, s in enumerate(seeds)]
        for i in range(self.num_envs):
            while self.tables[i].is_over:  # a hand that ends at the deal (never in practice)
                self.tables[i] = self._new_table(i, self.seeds[i] + self.num_envs)
        self.encode_all()
        self.rewards[:] = 0
        self.dones[:] = False
        return self.obs, self.mask, self.seats

    def step(
        self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]
    ) -> tuple[
        ObsArray, MaskArray, npt.NDArray[np.int64], npt.NDArray[np.float32], npt.NDArray[np.bool_]
    ]:
        """One action per table (indices); returns ``(obs, mask, seats, rewards, dones)``."""
        acts = self.codec.actions
        action_list = actions.tolist() if isinstance(actions, np.ndarray) else list(actions)
        seats = self.seats.tolist()
        rewards = self.rewards
        rewards[:] = 0
        dones = self.dones
        dones[:] = False
        bullet_value = self.bullet_value
        n = self.num_envs
        for i, table, seat, action, paid in zip(
            range(n), self.tables, seats, action_list, self._paid, strict=True
        ):
            table.apply(seat, acts[action])
            deltas = table.deltas
            over = table.phase is _END  # is_over, without the property
            if over or deltas != paid:  # ints and floats compare exactly
                new = [float(d) for d in deltas]
                result = table.result
                if bullet_value and result is not None:
                    new = [new[s] + bullet_value * result.bullets[s] for s in range(4)]
                rewards[i] = [new[s] - paid[s] for s in range(4)]
                self._paid[i] = new
            if over:
                dones[i] = True
                self.results[i] = table.result
                self.hands_finished += 1
                table = self._new_table(i, self.seeds[i] + n)
                while table.is_over:
                    table = self._new_table(i, self.seeds[i] + n)
                self.tables[i] = table
            elif self.results[i] is not None:
                self.results[i] = None
        self.steps += n
        self.encode_all()
        return self.obs, self.mask, self.seats, rewards, dones


__all__ = ["BatchEnv"]
