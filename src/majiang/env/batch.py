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
from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine.actions import Action
from ..engine.table import HandResult, Phase, Table
from ..rules.base import RuleSet
from ..rules.registry import DEFAULT_RULES
from .encoding import MaskArray, ObsArray
from .observer import BatchObserver
from .tables import SelfPlaySettings

_END = Phase.END  # a module constant: Phase.END is a slow enum look-up (see engine.table)


class BatchEnv(SelfPlaySettings):
    """``num_envs`` tables in self-play; see the module docstring."""

    def __init__(self, num_envs: int, rules: str | RuleSet = DEFAULT_RULES, **kwargs: Any) -> None:
        """``kwargs``: the settings of :class:`~majiang.env.tables.SelfPlaySettings`."""
        super().__init__(rules, **kwargs)
        self.num_envs = num_envs
        self.observer = BatchObserver(self.layout, self.codec, num_envs)
        self.obs: ObsArray = self.observer.obs
        self.mask: MaskArray = self.observer.mask
        self.seats: npt.NDArray[np.int64] = self.observer.seats
        self.rewards: npt.NDArray[np.float32] = np.zeros((num_envs, 4), np.float32)
        self.dones: npt.NDArray[np.bool_] = np.zeros(num_envs, np.bool_)
        self.results: list[HandResult | None] = [None] * num_envs
        """The result of the hand that ended at each table in the last step (else None)."""
        self.seeds: list[int] = list(range(num_envs))
        self.tables: list[Table] = []
        self.encode_seconds = 0.0
        """Time spent encoding observations and masks in :meth:`encode_all` (benchmarks)."""
        self.query_seconds = 0.0
        """Time spent asking the tables who acts and what is legal in :meth:`encode_all`."""
        self._paid: list[list[float]] = [[0.0] * 4 for _ in range(num_envs)]
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
        self.observer.reset(i, table)
        self._paid[i] = [0.0] * 4
        return table

    def encode_all(self) -> None:
        """Every table's acting seat, observation vector and mask (:class:`BatchObserver`).

        The table's own work (``to_act`` and ``legal_actions``, which the next ``apply``
        would do anyway) is timed in ``query_seconds``, the encoding in ``encode_seconds``."""
        start = time.perf_counter()
        tables = self.tables
        seats: list[int] = []
        legals: list[list[Action]] = []
        for table in tables:
            seat = table.to_act()[0]
            seats.append(seat)
            legals.append(table.legal_actions(seat))
        middle = time.perf_counter()
        self.observer.encode(tables, seats, legals)
        end = time.perf_counter()
        self.query_seconds += middle - start
        self.encode_seconds += end - middle

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
                    bullets = result.ledger("bullets")
                    new = [new[s] + bullet_value * bullets[s] for s in range(4)]
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
