"""Run a duplicate tournament: resume what a directory holds, play the rest on a backend,
write hands as deals finish, then the results and the plot."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..rules.registry import rules_options
from ..sim.backends import Backend, LocalBackend, run_ordered
from .entrants import entrant_labels
from .play import TournamentConfig, play_deals
from .stats import summarize
from .store import PLOT, HandStore

Progress = Callable[[int, int], None]
"""Called with (deals done, deals in all) as the work advances (resumed deals count as done)."""


@dataclass(frozen=True)
class TournamentResult:
    """The results document and how the run went (deals played now and resumed, time)."""

    config: TournamentConfig
    results: dict[str, Any]
    played: int
    resumed: int
    elapsed: float
    backend: str
    jobs: int
    out: Path | None = None
    plot: Path | None = None

    @property
    def deals_per_second(self) -> float:
        """Deals played by this run per second of wall-clock time."""
        return self.played / self.elapsed if self.elapsed > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """``results.json`` plus a ``run`` object (the only part that varies between runs)."""
        return {
            **self.results,
            "run": {
                "backend": self.backend,
                "jobs": self.jobs,
                "played": self.played,
                "resumed": self.resumed,
                "elapsed_s": round(self.elapsed, 3),
                "deals_per_s": round(self.deals_per_second, 2),
                "out": str(self.out) if self.out is not None else None,
                "plot": str(self.plot) if self.plot is not None else None,
            },
        }


def _chunks(deals: list[int], jobs: int) -> list[tuple[int, ...]]:
    size = max(1, min(8, len(deals) // (jobs * 8)))
    return [tuple(deals[i:i + size]) for i in range(0, len(deals), size)]


def run_tournament(
    config: TournamentConfig,
    out: str | Path | None = None,
    backend: Backend | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    plot: bool = True,
) -> TournamentResult:
    """Play ``config`` on ``backend`` (the caller closes it; default ``jobs`` local processes).

    With ``out``, deals already in ``out/hands.jsonl`` are not played again, new hands are
    appended deal by deal in deal order, and ``results.json`` (and ``ratings.png`` when
    matplotlib is there and ``plot``) are written at the end.
    """
    rules = config.validate()
    options = rules_options(rules)
    header = {
        "rules": config.rules,
        "options": options,
        "seed": config.seed,
        "bots": list(config.bots),
        "permutations": config.permutations,
    }
    if config.external:
        header["time_limit"] = config.time_limit
    orders = len(config.orders)
    runner = backend if backend is not None else LocalBackend(jobs)
    store = HandStore(out, header) if out is not None else None
    done: dict[int, list[dict[str, Any]]] = store.load(orders) if store is not None else {}
    resumed = sum(1 for deal in done if deal < config.deals)
    missing = [deal for deal in range(config.deals) if deal not in done]
    chunks = _chunks(missing, runner.jobs)
    finished = resumed
    begin = time.perf_counter()
    if progress is not None:
        progress(finished, config.deals)

    def advance(index: int, records: list[dict[str, Any]]) -> None:
        nonlocal finished
        finished += len(chunks[index])
        if progress is not None:
            progress(finished, config.deals)

    try:
        work = [(config, chunk) for chunk in chunks]
        for records in run_ordered(runner, play_deals, work, advance):
            if store is not None:
                store.append(records)
            for record in records:
                done.setdefault(record["deal"], []).append(record)
    finally:
        if store is not None:
            store.close()
    elapsed = time.perf_counter() - begin
    records = [r for deal in range(config.deals) for r in done[deal]]
    results = {
        "format": 1,
        "rules": config.rules,
        "options": options,
        "seed": config.seed,
        "bots": list(config.bots),
        "permutations": config.permutations,
        "orders": orders,
        **summarize(records, entrant_labels(config.bots), config.bots),
    }
    picture = None
    if store is not None:
        store.write_results(results)
        if plot:
            from .plot import plot_available, plot_ratings

            if plot_available():
                picture = plot_ratings(results, store.directory / PLOT)
    return TournamentResult(
        config, results, len(missing), resumed, elapsed, runner.name,
        min(runner.jobs, max(1, len(chunks))), store.directory if store else None, picture,
    )


__all__ = ["Progress", "TournamentResult", "run_tournament"]
