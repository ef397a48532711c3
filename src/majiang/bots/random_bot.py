"""The random bot: any legal action, uniformly, except that it always takes a win."""

from __future__ import annotations

import random

from ..engine.actions import Action
from ..engine.table import Observation
from .seeded import SeededBot
from .view import find_win


class RandomBot(SeededBot):
    """Uniform over ``obs.legal_actions`` (a win is always taken); seeded, so reproducible."""

    name = "random"

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def __call__(self, obs: Observation) -> Action:
        actions = obs.legal_actions
        if len(actions) == 1:
            return actions[0]  # no choice: the generator is not touched
        win = find_win(obs)
        if win is not None:
            return win
        return actions[self.rng.randrange(len(actions))]


__all__ = ["RandomBot"]
