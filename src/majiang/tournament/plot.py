"""``ratings.png``: each entrant's mean points per hand with its 95% interval, and its rating.

Drawn with matplotlib's Agg canvas directly (no pyplot, no display, no global backend); matplotlib
is imported only here, so a run without the ``plot`` extra still saves its results.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot_available() -> bool:
    """Whether matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def plot_ratings(results: dict[str, Any], path: str | Path) -> Path:
    """Draw the results document's entrants into ``path`` (PNG); the path."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    entrants = results["entrants"]
    labels = [e["label"] for e in entrants]
    means = [e["mean_points"] for e in entrants]
    low = [e["mean_points"] - e["ci95"][0] if e["ci95"] else 0.0 for e in entrants]
    high = [e["ci95"][1] - e["mean_points"] if e["ci95"] else 0.0 for e in entrants]
    ratings = [e["elo"] for e in entrants]
    rows = list(range(len(entrants)))[::-1]

    figure = Figure(figsize=(9, 1.2 + 0.55 * len(entrants)), layout="constrained")
    FigureCanvasAgg(figure)
    left, right = figure.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [3, 2]})
    left.axvline(0, color="0.6", linewidth=1)
    left.errorbar(means, rows, xerr=[low, high], fmt="o", color="tab:blue", capsize=4)
    left.set_yticks(rows, labels)
    left.set_xlabel("mean points per hand (95% interval over deals)")
    right.axvline(1500, color="0.6", linewidth=1)
    right.barh(rows, [r - 1500 for r in ratings], left=1500, color="tab:orange")
    for row, rating in zip(rows, ratings, strict=True):
        above = rating >= 1500
        right.annotate(f"{rating:.0f}", (rating, row), xytext=(3 if above else -3, 0),
                       textcoords="offset points", va="center", ha="left" if above else "right",
                       fontsize=8)
    right.margins(x=0.2)
    right.set_xlabel("Elo-style rating (pairwise, per hand)")
    figure.suptitle(
        f"{results['rules']} duplicate tournament: {results['deals']} deals x "
        f"{results['orders']} orders, seed {results['seed']}"
    )
    target = Path(path)
    figure.savefig(target, dpi=100)
    return target


__all__ = ["plot_available", "plot_ratings"]
