"""The PettingZoo AEC environment: one hand of Guobiao or Huangyan per episode.

Agents are ``player_0`` … ``player_3`` (seats 0-3, each seat's next player is seat + 1).
``agent_selection`` is always ``table.to_act()[0]``: on a turn the player on turn; in a claim or
robbing window every seat that must answer, one after the other in the order the table lists
them (counter-clockwise from the discarder). With ``every_seat_answers=True`` (the default) every
window is open to all three other seats, so being asked tells nobody that someone may claim.

Rewards are the hand's real score changes: a false win (错和) is paid when it is declared, the
settlement of a win when the hand ends; over an episode each agent's rewards add up to its entry
of ``table.result.deltas`` (plus ``bullet_value`` times its entry of the ``bullets`` ledger in
Huangyan).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from ..engine.table import Phase, Table
from ..rules.base import RuleSet
from ..rules.registry import DEFAULT_RULES
from .encoding import Layout, MaskArray, ObsArray
from .observer import Observer
from .tables import SelfPlaySettings, next_seed, reset_table

AGENTS = ("player_0", "player_1", "player_2", "player_3")
_END = Phase.END  # a module constant: Phase.END is a slow enum look-up (see engine.table)
SEAT_OF = {agent: seat for seat, agent in enumerate(AGENTS)}


class MajiangEnv(AECEnv[str, dict[str, Any], int | None], SelfPlaySettings):
    """One hand per episode under a rule set; see the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's convention)
        "name": "majiang_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self, rules: str | RuleSet = DEFAULT_RULES, *, render_mode: str | None = None, **kwargs: Any
    ) -> None:
        """``kwargs``: the settings of :class:`~majiang.env.tables.SelfPlaySettings`."""
        AECEnv.__init__(self)
        SelfPlaySettings.__init__(self, rules, **kwargs)
        self._sizes = (self.layout.size, self.layout.num_actions)
        """The layout's sizes (its properties compute them at every call)."""
        self.observer = Observer(self.layout, self.codec)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        low, high = self.layout.low_high()
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.int16),
                "action_mask": spaces.Box(0, 1, (self.layout.num_actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {
            a: spaces.Discrete(self.layout.num_actions) for a in self.possible_agents
        }
        oracle_layout = Layout(self.layout.throw_limit, self.layout.max_pond, True)
        self.state_space = spaces.Box(*oracle_layout.low_high(), dtype=np.int16)
        self._state_observer = Observer(oracle_layout, self.codec)
        self._seeds = random.Random()
        self.table: Table | None = None
        self.seed_used = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The Dict of ``observation`` (int16 vector) and ``action_mask`` (int8 0/1)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(num_actions)``: see :mod:`majiang.env.encoding`."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new hand. ``seed`` is the table's seed (``Table(rules, seed)`` plays the same hand);
        without one the next seed comes from the last one given. ``options`` may set ``dealer``,
        ``prevalent_wind``, ``wall`` (tiles in draw order), ``dealer_count``, ``thrown``."""
        table_seed = next_seed(self._seeds, seed)
        opts = dict(options or {})
        self.seed_used = table_seed
        self.table = reset_table(
            self.rule_set,
            table_seed,
            opts,
            dealer=self.dealer,
            prevalent_wind=self.prevalent_wind,
            every_seat_answers=self.every_seat_answers,
        )
        self.observer.reset(self.table)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._paid = [0.0, 0.0, 0.0, 0.0]
        self._deltas = [0, 0, 0, 0]
        self._rewarded = False
        self._select()

    def _select(self) -> None:
        table = self.table
        assert table is not None
        if table.phase is _END:  # is_over, without the property
            self.terminations = dict.fromkeys(self.agents, True)
            result = table.result
            assert result is not None
            for a in self.agents:
                self.infos[a] = {"result": result}
            # the last seat to act stays selected; every agent then steps None
        else:
            self.agent_selection = AGENTS[table.to_act()[0]]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation vector and action mask (zeros when it need not act)."""
        obs: ObsArray = np.empty(self._sizes[0], np.int16)  # encode writes every value
        mask: MaskArray = np.empty(self._sizes[1], np.int8)
        assert self.table is not None
        self.observer.encode(SEAT_OF[agent], obs, mask)
        return {"observation": obs, "action_mask": mask}

    def _payments(self) -> list[float]:
        table = self.table
        assert table is not None
        paid = [float(d) for d in table.deltas]
        if self.bullet_value and table.result is not None:
            for s in range(4):
                paid[s] += self.bullet_value * table.result.ledger("bullets")[s]
        return paid

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (an index into the action space)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        assert table is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        table.apply(SEAT_OF[agent], self.codec.actions[int(action)])
        if self._rewarded or table.phase is _END or table.deltas != self._deltas:
            # somebody paid (or was paid last step, which must be cleared): the full protocol
            self._deltas = list(table.deltas)
            paid = self._payments()
            for s, a in enumerate(AGENTS):
                self.rewards[a] = paid[s] - self._paid[s]
            self._rewarded = paid != self._paid
            self._paid = paid
            self._select()
            self._accumulate_rewards()
        else:
            self._select()  # nobody paid: every reward stays 0 and nothing accumulates
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str:
        """A one-screen text picture of the table (``ansi``) or print it (``human``)."""
        from ..engine.serialize import observation_to_json

        table = self.table
        if table is None:
            return ""
        lines = [f"phase {table.phase.value}, current {table.current}, wall {table.wall.remaining}"]
        for seat in range(4):
            view = observation_to_json(table.observation(seat))
            melds = " ".join(f"{m['kind']}:{m['tile']}" for m in view["melds"][seat])
            lines.append(
                f"{AGENTS[seat]} {''.join(view['hand'])} | {melds} | "
                f"pond {''.join(view['discards'][seat])} | {table.deltas[seat]:+d}"
            )
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""

    def state(self) -> np.ndarray[Any, Any]:
        """The oracle vector of seat 0 (every hand and the wall), for centralised critics."""
        table = self.table
        assert table is not None
        observer = self._state_observer
        layout = observer.layout
        if observer.table is not table:
            observer.reset(table)
        obs: ObsArray = np.zeros(layout.size, np.int16)
        mask: MaskArray = np.zeros(layout.num_actions, np.int8)
        observer.encode(0, obs, mask)
        return obs

    @property
    def phase(self) -> Phase | None:
        """The table's phase (None before the first reset)."""
        return None if self.table is None else self.table.phase


def env(rules: str | RuleSet = DEFAULT_RULES, **kwargs: Any) -> MajiangEnv:
    """``majiang.env.env(rules="gb" | "huangyan", **options)``: a PettingZoo AEC environment.

    Keyword arguments: ``oracle``, ``every_seat_answers``, ``dealer``, ``prevalent_wind``,
    ``bullet_value``, ``max_pond``, ``render_mode``; every other keyword is a rule option
    (``false_win=True``, ``throw_limit=0`` …).
    """
    return MajiangEnv(rules, **kwargs)


__all__ = ["AGENTS", "MajiangEnv", "env"]
