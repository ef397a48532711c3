"""A Gymnasium single-agent wrapper: the learner at one seat, bots at the other three.

An episode is one hand. The observation is the learner's ``{"observation", "action_mask"}``
(as in the AEC environment; the mask is also in ``info["action_mask"]``); the reward of a step is
the learner's score change over it (false-win penalties when declared, the settlement at the
end), so the rewards of an episode add up to the learner's ``result.deltas`` entry.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import make_bot
from ..engine.match import Agent, play_until_asked
from ..engine.table import IllegalAction, Table
from ..rules.base import RuleSet
from ..rules.registry import DEFAULT_RULES
from .encoding import MaskArray, ObsArray
from .observer import Observer
from .tables import SelfPlaySettings, next_seed, reset_table


class MajiangGymEnv(gymnasium.Env[dict[str, Any], int], SelfPlaySettings):
    """The learner plays ``seat`` (or a seat drawn each hand) against ``opponents``.

    ``opponents``: one bot name for all three (``"efficient"``, ``"fan"``, ``"random"``,
    ``"wild"``), or three names or agents (callables from an ``Observation`` to an action) for
    the seats after the learner's, in turn order. ``skip_forced`` plays the learner's
    decisions that have a single legal action (a lone ``Pass``) without asking. An action
    outside the mask raises :class:`~majiang.engine.IllegalAction` (``illegal="raise"``) or, with
    ``illegal="penalize"``, changes nothing and costs ``illegal_penalty`` (for learners that
    sample without the mask; the rewards then no longer add up to the payments).
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (Gymnasium's convention)

    def __init__(
        self,
        rules: str | RuleSet = DEFAULT_RULES,
        *,
        opponents: str | Sequence[str | Agent] = "efficient",
        seat: int | None = 0,
        oracle: bool = False,
        every_seat_answers: bool = False,
        skip_forced: bool = True,
        dealer: int | None = 0,
        prevalent_wind: int = 0,
        bullet_value: float = 0.0,
        max_pond: int = 40,
        illegal: str = "raise",
        illegal_penalty: float = 1.0,
        **options: Any,
    ) -> None:
        if illegal not in ("raise", "penalize"):
            raise ValueError("illegal: 'raise' or 'penalize'")
        self.illegal = illegal
        self.illegal_penalty = illegal_penalty
        SelfPlaySettings.__init__(
            self, rules, oracle=oracle, every_seat_answers=every_seat_answers,
            dealer=dealer or 0, prevalent_wind=prevalent_wind, bullet_value=bullet_value,
            max_pond=max_pond, **options,
        )
        self.random_dealer = dealer is None
        self.observer = Observer(self.layout, self.codec)
        specs = [opponents] * 3 if isinstance(opponents, str) else list(opponents)
        if len(specs) != 3:
            raise ValueError("opponents: one bot name, or three names or agents")
        self.opponent_specs = specs
        self.fixed_seat = seat
        self.skip_forced = skip_forced
        low, high = self.layout.low_high()
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.int16),
                "action_mask": spaces.Box(0, 1, (self.layout.num_actions,), np.int8),
            }
        )
        self.action_space: spaces.Discrete = spaces.Discrete(self.layout.num_actions)  # type: ignore[assignment]
        self._seeds = random.Random()
        self.table: Table | None = None
        self.seat = 0
        self.bots: dict[int, Agent] = {}
        self._paid = 0.0

    def _agents(self, hand_seed: int) -> dict[int, Agent]:
        bots: dict[int, Agent] = {}
        for i, spec in enumerate(self.opponent_specs):
            seat = (self.seat + 1 + i) % 4
            bots[seat] = make_bot(spec, hand_seed * 4 + seat) if isinstance(spec, str) else spec
        return bots

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new hand (``seed`` is the table's seed); ``options`` as the AEC env's ``reset``."""
        super().reset(seed=seed)
        hand_seed = next_seed(self._seeds, seed)
        opts = dict(options or {})
        draw = random.Random(hand_seed)
        self.seat = self.fixed_seat if self.fixed_seat is not None else draw.randrange(4)
        dealer = draw.randrange(4) if self.random_dealer else self.dealer
        self.table = reset_table(
            self.rule_set,
            hand_seed,
            opts,
            dealer=dealer,
            prevalent_wind=self.prevalent_wind,
            every_seat_answers=self.every_seat_answers,
        )
        self.observer.reset(self.table)
        self.bots = self._agents(hand_seed)
        self._paid = 0.0
        self._advance()
        return self._observe(), self._info()

    def _payment(self) -> float:
        table = self.table
        assert table is not None
        paid = float(table.deltas[self.seat])
        if self.bullet_value and table.result is not None:
            paid += self.bullet_value * table.result.ledger("bullets")[self.seat]
        return paid

    def _advance(self) -> None:
        """Let the bots (and forced learner moves) play until the learner decides or the end."""
        table = self.table
        assert table is not None
        players = [self.bots.get(seat) for seat in range(4)]  # None: the learner
        while True:
            for _ in play_until_asked(table, players):
                pass
            if table.is_over:
                return
            legal = table.legal_actions(self.seat)
            if not (self.skip_forced and len(legal) == 1):
                return
            table.apply(self.seat, legal[0])

    def _observe(self) -> dict[str, Any]:
        obs: ObsArray = np.zeros(self.layout.size, np.int16)
        mask: MaskArray = np.zeros(self.layout.num_actions, np.int8)
        self.observer.encode(self.seat, obs, mask)
        return {"observation": obs, "action_mask": mask}

    def _info(self, obs: dict[str, Any] | None = None) -> dict[str, Any]:
        table = self.table
        assert table is not None
        info: dict[str, Any] = {"seat": self.seat}
        if obs is not None:
            info["action_mask"] = obs["action_mask"]
        if table.result is not None:
            info["result"] = table.result
        return info

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Apply the learner's action (an index); bots answer until the learner's next decision."""
        table = self.table
        assert table is not None
        try:
            table.apply(self.seat, self.codec.actions[int(action)])
        except IllegalAction:
            if self.illegal == "raise":
                raise
            obs = self._observe()
            info = self._info(obs)
            info["illegal"] = True
            return obs, -self.illegal_penalty, table.is_over, False, info
        self._advance()
        paid = self._payment()
        reward = paid - self._paid
        self._paid = paid
        obs = self._observe()
        return obs, reward, table.is_over, False, self._info(obs)

    def action_masks(self) -> MaskArray:
        """The current action mask (the name sb3-contrib's MaskablePPO looks for)."""
        return np.asarray(self._observe()["action_mask"])


__all__ = ["MajiangGymEnv"]
