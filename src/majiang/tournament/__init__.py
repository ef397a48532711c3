"""Duplicate tournaments: every deal (one seeded wall) played in every rotation of the entrants
over the seats, per-entrant means with intervals over deals, rates, an Elo-style rating;
resumable, on local processes or Ray.

>>> from majiang.tournament import TournamentConfig, run_tournament
>>> result = run_tournament(TournamentConfig(bots=("random",) * 4, deals=2, seed=1))
>>> result.results["hands"], sum(e["points"] for e in result.results["entrants"])
(8, 0)
"""

from .elo import bradley_terry, elo_ratings, pairwise_scores
from .entrants import check_entrant, entrant_from_spec, entrant_labels, parse_entrants
from .play import TournamentConfig, play_deal, play_deals
from .runner import TournamentResult, run_tournament
from .schedule import Game, Order, orders, rotations, schedule, seats_of
from .stats import MeanCI, mean_ci, summarize, t_quantile
from .store import HandStore, StoreError

__all__ = [
    "Game",
    "HandStore",
    "MeanCI",
    "Order",
    "StoreError",
    "TournamentConfig",
    "TournamentResult",
    "bradley_terry",
    "check_entrant",
    "elo_ratings",
    "entrant_from_spec",
    "entrant_labels",
    "mean_ci",
    "orders",
    "pairwise_scores",
    "parse_entrants",
    "play_deal",
    "play_deals",
    "rotations",
    "run_tournament",
    "schedule",
    "seats_of",
    "summarize",
    "t_quantile",
]
