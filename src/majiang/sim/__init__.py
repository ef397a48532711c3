"""Many games at once: bots against bots, in local processes, with per-bot statistics.

>>> from majiang.sim import SimConfig, simulate
>>> result = simulate(SimConfig(bots=("efficient",) * 4, games=4, seed=1))
>>> result.tally.hands
4
"""

from .progress import ProgressBar
from .runner import Progress, SimConfig, SimResult, derive_seed, play_games, simulate
from .stats import PlayerTally, Tally, player_summary

__all__ = [
    "PlayerTally",
    "Progress",
    "ProgressBar",
    "SimConfig",
    "SimResult",
    "Tally",
    "derive_seed",
    "play_games",
    "player_summary",
    "simulate",
]
