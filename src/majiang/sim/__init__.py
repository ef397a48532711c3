"""Many games at once: bots against bots, in local processes or on Ray, with per-bot statistics.

>>> from majiang.sim import SimConfig, simulate
>>> result = simulate(SimConfig(bots=("efficient",) * 4, games=4, seed=1))
>>> result.tally.hands
4
"""

from .backends import (
    BACKENDS,
    Backend,
    BackendError,
    LocalBackend,
    RayBackend,
    make_backend,
    run_ordered,
)
from .progress import ProgressBar
from .runner import Progress, SimConfig, SimResult, derive_seed, play_games, simulate
from .stats import PlayerTally, Tally, player_summary

__all__ = [
    "BACKENDS",
    "Backend",
    "BackendError",
    "LocalBackend",
    "PlayerTally",
    "Progress",
    "ProgressBar",
    "RayBackend",
    "SimConfig",
    "SimResult",
    "Tally",
    "derive_seed",
    "make_backend",
    "play_games",
    "player_summary",
    "run_ordered",
    "simulate",
]
