"""Duplicate tournaments: deals/s on the local backend (1 and 2 processes) and on a local Ray
instance with 2 CPUs, with a check that all three give identical results.

    .venv/bin/python benchmarks/tournament_bench.py [--deals 60] [--bots efficient] [--seed 1]
                                                   [--rounds 3] [--no-ray]

The contenders are interleaved for ``--rounds`` rounds and the best time of each is kept (the
machine is shared: single runs move a lot). Ray's start-up (``ray.init``) is timed apart: it is
paid once per command, not per deal; its first round also includes starting the workers.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import time
from typing import Any

from majiang.sim import Backend, make_backend
from majiang.tournament import TournamentConfig, parse_entrants, run_tournament


def _timed(config: TournamentConfig, backend: Backend) -> tuple[float, str]:
    begin = time.perf_counter()
    result = run_tournament(config, backend=backend, plot=False)
    return time.perf_counter() - begin, json.dumps(result.results, sort_keys=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--bots", default="efficient")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray backend")
    args = parser.parse_args()
    config = TournamentConfig(bots=parse_entrants(args.bots), deals=args.deals, seed=args.seed)
    orders = len(config.orders)
    print(f"{args.deals} deals x {orders} rotations ({args.deals * orders} hands), "
          f"bots {','.join(config.bots)}, seed {args.seed}, best of {args.rounds} rounds")
    backends: dict[str, Backend] = {
        "local, 1 process": make_backend("local", 1),
        "local, 2 processes": make_backend("local", 2),
    }
    ray: Any = None
    startup = 0.0
    if not args.no_ray:
        import ray

        begin = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR)
        startup = time.perf_counter() - begin
        backends["ray, 2 CPUs (local instance)"] = make_backend("ray", 2)
    times: dict[str, list[float]] = {name: [] for name in backends}
    results: set[str] = set()
    try:
        for _ in range(args.rounds):
            for name, backend in backends.items():
                elapsed, document = _timed(config, backend)
                times[name].append(elapsed)
                results.add(document)
    finally:
        if ray is not None:
            ray.shutdown()

    base = args.deals / min(times["local, 1 process"])
    print(f"{'backend':<30}{'best s':>8}{'deals/s':>9}{'hands/s':>9}{'median':>9}{'vs 1':>7}")
    for name, runs in times.items():
        rate = args.deals / min(runs)
        median = args.deals / statistics.median(runs)
        print(f"{name:<30}{min(runs):>8.2f}{rate:>9.2f}{rate * orders:>9.1f}{median:>9.2f}"
              f"{rate / base:>6.2f}x")
    if ray is not None:
        print(f"ray.init: {startup:.1f} s (once per command)")
    print(f"identical results: {len(results) == 1}")


if __name__ == "__main__":
    main()
