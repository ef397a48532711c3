"""An Elo-style rating from pairwise comparisons within each hand (Bradley-Terry, fitted).

Every played hand compares each pair of entrants by that hand's points: the higher scores a
win, equal points a draw (half a win each). The counts are summed over all hands, a prior of
one drawn comparison is added to every pair (so that an entrant that never loses still gets a
finite rating), and the Bradley-Terry strengths ``π`` that maximise the likelihood
``Π (π_i / (π_i + π_j))^w_ij`` are found by Hunter's MM iteration
``π_i ← W_i / Σ_j n_ij / (π_i + π_j)``. Ratings are ``1500 + 400 · log10(π_i / g)`` with ``g``
the geometric mean of the strengths, so they average 1500 and a 400-point gap means 10:1 odds
of the better score in a comparison. The counts are integers, so the fit never depends on the
order of the hands.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

BASE = 1500.0
PRIOR_DRAWS = 1


def half_points(records: Iterable[dict[str, Any]], entrants: int = 4) -> list[list[int]]:
    """``h[i][j]``: twice entrant i's score against j (a win 2, a draw 1) summed over hands."""
    h = [[0] * entrants for _ in range(entrants)]
    for record in records:
        points = record["points"]
        for i in range(entrants):
            for j in range(entrants):
                if i != j:
                    h[i][j] += 2 if points[i] > points[j] else 1 if points[i] == points[j] else 0
    return h


def pairwise_scores(records: Iterable[dict[str, Any]], entrants: int = 4) -> list[list[float]]:
    """``s[i][j]``: entrant i's share of the comparisons with j (draws half), 0.5 on the
    diagonal and where the pair never met."""
    h = half_points(records, entrants)
    return [
        [h[i][j] / (h[i][j] + h[j][i]) if i != j and h[i][j] + h[j][i] else 0.5
         for j in range(entrants)]
        for i in range(entrants)
    ]


def bradley_terry(
    h: Sequence[Sequence[int]], prior: int = PRIOR_DRAWS, tolerance: float = 1e-12
) -> list[float]:
    """Strengths (geometric mean 1) from a half-point matrix, with ``prior`` draws per pair."""
    n = len(h)
    wins = [sum(h[i][j] + prior for j in range(n) if j != i) / 2 for i in range(n)]
    games = [[(h[i][j] + h[j][i]) / 2 + prior if i != j else 0.0 for j in range(n)]
             for i in range(n)]
    strength = [1.0] * n
    for _ in range(100_000):
        new = [
            wins[i] / math.fsum(games[i][j] / (strength[i] + strength[j])
                                for j in range(n) if j != i)
            for i in range(n)
        ]
        scale = math.exp(math.fsum(math.log(s) for s in new) / n)
        new = [s / scale for s in new]
        change = max(abs(a - b) / b for a, b in zip(new, strength, strict=True))
        strength = new
        if change < tolerance:
            break
    return strength


def elo_ratings(records: Iterable[dict[str, Any]], entrants: int = 4) -> list[float]:
    """Each entrant's rating (mean 1500) from the hands' pairwise comparisons."""
    strengths = bradley_terry(half_points(records, entrants))
    return [BASE + 400 * math.log10(s) for s in strengths]


__all__ = ["BASE", "PRIOR_DRAWS", "bradley_terry", "elo_ratings", "half_points",
           "pairwise_scores"]
