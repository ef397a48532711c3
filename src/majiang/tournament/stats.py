"""Tournament statistics: means over deals with Student-t intervals, and the per-hand rates.

The duplicate unit is the deal: the hands of one deal (its rotations) share a wall and are
strongly correlated, so an entrant's figure for deal ``d`` is its mean over the orders of that
deal, ``x_d``, and the interval is computed over the ``n`` deals:
``mean ± t(0.975, n-1) · s / √n`` with ``s`` the sample standard deviation of the ``x_d``.
Everything is computed from the records sorted by (deal, order), with exactly rounded sums
(``math.fsum``), so the input order never changes a digit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from .elo import elo_ratings, pairwise_scores

ENTRANTS = 4


def _t_cdf_abs(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with integer ``df`` (closed forms, A&S 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2 == 0:
        term = total = 1.0
        for k in range(2, df, 2):
            term *= c2 * (k - 1) / k
            total += term
        return math.sin(theta) * total
    if df == 1:
        return 2 * theta / math.pi
    term = total = 1.0
    for k in range(3, df, 2):
        term *= c2 * (k - 1) / k
        total += term
    return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (``p > 0.5``) of Student's t with ``df`` degrees of freedom.

    Exact (bisection on the closed-form distribution) up to 60 degrees of freedom, the
    Cornish-Fisher expansion (A&S 26.7.5, error below 1e-6) beyond.
    """
    if not 0.5 < p < 1 or df < 1:
        raise ValueError("t_quantile needs 0.5 < p < 1 and df >= 1")
    if df <= 60:
        target = 2 * p - 1
        low, high = 0.0, 1.0
        while _t_cdf_abs(high, df) < target:
            high *= 2
        for _ in range(100):
            middle = (low + high) / 2
            if _t_cdf_abs(middle, df) < target:
                low = middle
            else:
                high = middle
        return (low + high) / 2
    z = NormalDist().inv_cdf(p)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


@dataclass(frozen=True, slots=True)
class MeanCI:
    """A mean over ``n`` units, its sample standard deviation and its confidence interval
    (``low``/``high`` are None for fewer than two units)."""

    mean: float
    sd: float | None
    low: float | None
    high: float | None
    n: int


def mean_ci(values: Sequence[float], level: float = 0.95) -> MeanCI:
    """The mean of ``values`` with its two-sided Student-t interval at ``level``."""
    n = len(values)
    if n == 0:
        raise ValueError("mean_ci needs at least one value")
    mean = math.fsum(values) / n
    if n == 1:
        return MeanCI(mean, None, None, None, 1)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile((1 + level) / 2, n - 1) * sd / math.sqrt(n)
    return MeanCI(mean, sd, mean - half, mean + half, n)


def sort_records(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records in (deal, order) order: the canonical order every statistic reads them in."""
    return sorted(records, key=lambda r: (r["deal"], r["order"]))


def deal_means(records: Iterable[dict[str, Any]]) -> list[list[float]]:
    """Per deal (in deal order), each entrant's mean points over the deal's orders."""
    sums: dict[int, list[list[int]]] = {}
    for record in records:
        per_deal = sums.setdefault(record["deal"], [[] for _ in range(ENTRANTS)])
        for e in range(ENTRANTS):
            per_deal[e].append(record["points"][e])
    return [[math.fsum(points) / len(points) for points in sums[deal]] for deal in sorted(sums)]


def _rate(n: float, d: int, digits: int = 6) -> float | None:
    return round(n / d, digits) if d else None


def _round(value: float | None, digits: int = 6) -> float | None:
    return None if value is None else round(value, digits)


def summarize(
    records: Iterable[dict[str, Any]], labels: Sequence[str], specs: Sequence[str]
) -> dict[str, Any]:
    """Per-entrant figures of a set of complete deals (the ``entrants`` of ``results.json``),
    with the hands, draws and the pairwise score matrix."""
    ordered = sort_records(records)
    hands = len(ordered)
    per_deal = deal_means(ordered)
    wins = [0] * ENTRANTS
    self_drawn = [0] * ENTRANTS
    deal_ins = [0] * ENTRANTS
    fans = [0] * ENTRANTS
    points = [0] * ENTRANTS
    bullets = [0] * ENTRANTS
    gunner = [0] * ENTRANTS
    false_wins = [0] * ENTRANTS
    draws = 0
    for record in ordered:
        winner = record["winner"]
        if winner is None:
            draws += 1
        else:
            wins[winner] += 1
            fans[winner] += record["fans"]
            if record["self_drawn"]:
                self_drawn[winner] += 1
            if record["discarder"] is not None and record["discarder"] != winner:
                deal_ins[record["discarder"]] += 1
        if record.get("gunner") is not None:
            gunner[record["gunner"]] += 1
        for e in range(ENTRANTS):
            points[e] += record["points"][e]
            bullets[e] += record.get("bullets", (0,) * ENTRANTS)[e]
            false_wins[e] += record.get("false_wins", (0,) * ENTRANTS)[e]
    ratings = elo_ratings(ordered)
    entrants = []
    for e in range(ENTRANTS):
        ci = mean_ci([deal[e] for deal in per_deal]) if per_deal else None
        entrants.append({
            "entrant": e,
            "label": labels[e],
            "bot": specs[e],
            "hands": hands,
            "mean_points": _round(ci.mean if ci else None),
            "ci95": [_round(ci.low), _round(ci.high)] if ci and ci.low is not None else None,
            "sd_per_deal": _round(ci.sd if ci else None),
            "points": points[e],
            "wins": wins[e],
            "win_rate": _rate(wins[e], hands),
            "self_drawn": self_drawn[e],
            "self_draw_rate": _rate(self_drawn[e], hands),
            "deal_ins": deal_ins[e],
            "deal_in_rate": _rate(deal_ins[e], hands),
            "mean_fans": _rate(fans[e], wins[e]),
            "false_wins": false_wins[e],
            "bullets": bullets[e],
            "gunner": gunner[e],
            "elo": round(ratings[e], 1),
        })
    return {
        "deals": len(per_deal),
        "hands": hands,
        "draws": draws,
        "draw_rate": _rate(draws, hands),
        "entrants": entrants,
        "pairwise": [[_round(x) for x in row] for row in pairwise_scores(ordered)],
    }


__all__ = ["MeanCI", "deal_means", "mean_ci", "sort_records", "summarize", "t_quantile"]
