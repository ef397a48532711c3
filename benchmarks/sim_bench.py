"""Simulation throughput and bot strength, measured in one run.

    .venv/bin/python benchmarks/sim_bench.py [--hands 300] [--seed 1] [--jobs 2] [--duel 2000]
        [--warm 20] [--steady 400] [--rounds 5]

1. Hands/s of whole bot hands on one core for each bot mix (``majiang.sim.simulate`` with one
   process, after ``--warm`` hands that start filling the shanten and block caches), and where
   the time goes: inside the bots, or in the engine (``observation`` plus ``apply``). The caches
   fill over a few hundred hands, so these are the rates of a short run from a fresh process.
   Then the efficiency bots' steady rate, as in a long simulation: ``--steady`` more hands
   uncounted, then ``--rounds`` rounds of ``--hands`` hands with fresh seeds, timed by process
   CPU time; the best round is the speed of an uncontended core (this machine's neighbours slow
   it by up to 2x), the median is printed beside it.
2. ``--jobs`` scaling: the efficiency bots' hands with 1 process and with ``--jobs`` processes,
   the same seed (the figures must be identical), and the speed-up.
3. The fan-aware bot against three efficiency bots over ``--duel`` hands: its win rate (with a
   95% interval) and points per hand against theirs.
4. Peak memory (resident set) of the single process and of the largest worker.

The milestones of issue 4 are printed at the end as met or not met.
"""

from __future__ import annotations

import argparse
import math
import resource
import time
from typing import Any

import majiang.engine.table as table_module
from majiang.bots import make_bot
from majiang.engine.table import Table
from majiang.rules.guobiao.ruleset import GuobiaoRules
from majiang.sim import SimConfig, derive_seed, simulate

MIXES = (
    ("random", "random", "random", "random"),
    ("efficient", "efficient", "efficient", "efficient"),
    ("efficient", "fan", "random", "random"),
    ("fan", "efficient", "efficient", "efficient"),
)
EFFICIENT = MIXES[1]


def peak_mb(who: int = resource.RUSAGE_SELF) -> float:
    """Peak resident memory in MB (Linux reports kilobytes)."""
    return resource.getrusage(who).ru_maxrss / 1024


def split(bots: tuple[str, ...], hands: int, seed: int) -> tuple[float, float]:
    """(ms in the bots, ms in the engine) per hand, the same hands as ``simulate`` plays."""
    rules = GuobiaoRules()
    in_bots = in_engine = 0.0
    clock = time.perf_counter
    for game in range(hands):
        agents = [make_bot(name, derive_seed(seed, "bot", game, p)) for p, name in enumerate(bots)]
        start = clock()
        table = Table(rules, derive_seed(seed, "hand", game), dealer=game % 4,
                      prevalent_wind=game // 4 % 4, every_seat_answers=False)
        in_engine += clock() - start
        while not table.is_over:
            for seat in table.to_act():
                t0 = clock()
                obs = table.observation(seat)
                t1 = clock()
                action = agents[seat](obs)
                t2 = clock()
                table.apply(seat, action)
                in_engine += clock() - t2 + t1 - t0
                in_bots += t2 - t1
    return 1000 * in_bots / hands, 1000 * in_engine / hands


def run(bots: tuple[str, ...], hands: int, seed: int, jobs: int = 1) -> dict[str, Any]:
    """One simulation's JSON figures."""
    return simulate(SimConfig(bots=bots, games=hands, seed=seed), jobs).to_json()


def stable(document: dict[str, Any]) -> dict[str, Any]:
    """The figures that must not depend on time or processes."""
    return {k: v for k, v in document.items() if k not in ("elapsed_s", "hands_per_s", "jobs")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="hands per mix (300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="processes for scaling/duel (2)")
    parser.add_argument("--duel", type=int, default=2000, help="fan vs 3 efficient hands (2000)")
    parser.add_argument("--warm", type=int, default=20, help="warm-up hands, uncounted (20)")
    parser.add_argument("--steady", type=int, default=400,
                        help="more uncounted hands before the steady rounds (400)")
    parser.add_argument("--rounds", type=int, default=5, help="steady rounds (5)")
    args = parser.parse_args()

    if args.warm > 0:
        run(EFFICIENT, args.warm, args.seed + 1)  # fill the caches
    build = "compiled (mypyc)" if table_module.__file__.endswith(".so") else "pure Python"
    print(f"1. one core, {args.hands} hands per mix after {args.warm} uncounted, seed "
          f"{args.seed}, {build}")
    print(f"   {'bots':<40}{'hands/s':>9}{'bots ms/hand':>14}{'engine ms/hand':>16}"
          f"{'draws':>7}")
    speeds = {}
    for bots in MIXES:
        data = run(bots, args.hands, args.seed)
        ms_bots, ms_engine = split(bots, min(args.hands, 100), args.seed)
        speeds[bots] = data["hands_per_s"]
        print(f"   {','.join(bots):<40}{data['hands_per_s']:>9.1f}{ms_bots:>14.2f}"
              f"{ms_engine:>16.2f}{100 * data['draw_rate']:>6.1f}%")
    if args.rounds > 0:
        run(EFFICIENT, args.steady, args.seed + 2)
        rates = []
        for r in range(args.rounds):
            start = time.process_time()
            run(EFFICIENT, args.hands, args.seed + 10 + r)
            rates.append(args.hands / (time.process_time() - start))
        steady, middle = max(rates), sorted(rates)[len(rates) // 2]
        print(f"   steady state, efficiency bots, {args.rounds} rounds of {args.hands} hands after "
              f"{args.steady} more: best {steady:.1f}, median {middle:.1f} hands/s "
              f"({', '.join(f'{x:.0f}' for x in rates)})")
    else:
        steady = middle = speeds[EFFICIENT]
    single_peak = peak_mb()

    print(f"\n2. --jobs scaling, efficiency bots, {2 * args.hands} hands")
    one = run(EFFICIENT, 2 * args.hands, args.seed)
    many = run(EFFICIENT, 2 * args.hands, args.seed, args.jobs)
    ratio = many["hands_per_s"] / one["hands_per_s"]
    same = stable(one) == stable(many)
    print(f"   1 process {one['hands_per_s']:.1f} hands/s, {args.jobs} processes "
          f"{many['hands_per_s']:.1f} hands/s: x{ratio:.2f}; identical figures: {same}")

    if args.duel > 0:
        print(f"\n3. fan-aware bot against three efficiency bots, {args.duel} hands, "
              f"{args.jobs} processes, seed {args.seed}")
        duel = run(MIXES[3], args.duel, args.seed, args.jobs)
        fan = duel["players"][0]
        eff = duel["by_bot"]["efficient"]
        p = fan["win_rate"]
        half = 1.96 * math.sqrt(p * (1 - p) / duel["hands"])
        print(f"   fan:       win rate {100 * p:.1f}% (95% interval {100 * (p - half):.1f}-"
              f"{100 * (p + half):.1f}%), deal-in {100 * fan['deal_in_rate']:.1f}%, "
              f"mean fans {fan['mean_fans']:.1f}, points {fan['points']:+d} "
              f"({fan['mean_points']:+.2f}/hand)")
        print(f"   efficient: win rate {100 * eff['win_rate']:.1f}% each, deal-in "
              f"{100 * eff['deal_in_rate']:.1f}%, mean fans {eff['mean_fans']:.1f}, points "
              f"{eff['points']:+d} ({eff['mean_points']:+.2f}/hand each)")
        print(f"   draws {100 * duel['draw_rate']:.1f}%, {duel['hands_per_s']:.1f} hands/s")

    workers_peak = peak_mb(resource.RUSAGE_CHILDREN)
    print(f"\n4. peak memory: single process {single_peak:.0f} MB, largest worker "
          f"{workers_peak:.0f} MB")

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT met"

    print("\nmilestones")
    print(f"   >= 300 hands/s, efficiency bots, one core: steady best {steady:.1f} (median "
          f"{middle:.1f}; {speeds[EFFICIENT]:.1f} from near-empty caches) -> "
          f"{verdict(steady >= 300)}")
    print(f"   peak memory < 300 MB per worker: {max(single_peak, workers_peak):.0f} MB -> "
          f"{verdict(max(single_peak, workers_peak) < 300)}")
    print(f"   --jobs {args.jobs} close to x{args.jobs}: x{ratio:.2f} -> "
          f"{verdict(ratio >= 0.8 * args.jobs)}")
    if args.duel > 0:
        print(f"   fan-aware > 25% and more points than the efficiency bots: {100 * p:.1f}%, "
              f"{fan['mean_points']:+.2f} vs {eff['mean_points']:+.2f} per hand -> "
              f"{verdict(p > 0.25 and fan['mean_points'] > eff['mean_points'])}")


if __name__ == "__main__":
    main()
