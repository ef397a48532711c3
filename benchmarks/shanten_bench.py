"""Shanten throughput against the reference calculator (PyMahjongGB), measured in the same run.

    .venv/bin/python benchmarks/shanten_bench.py [--hands 100000] [--seed 7] [--runs 5]

Two workloads of ``--hands`` random hands each, dealt from one set of 136 tiles: 13 concealed
tiles, and 0-4 random melds (chows, pungs, kongs) plus the concealed rest. Both libraries get
their input prepared beforehand (tile ints for majiang, tile codes and packs for the reference)
and compute the shanten over all five shapes. majiang's tables fill lazily, so the first pass
over a workload ("cold", in a fresh process) includes filling them; later passes are "warm".
The answers are compared, and the tables' size and the process's resident memory are reported.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable

from MahjongGB import MahjongShanten  # type: ignore[import-not-found]


def rss_mb() -> float:
    """The resident memory of this process now, in MB (Linux)."""
    import os

    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


RSS_BEFORE_IMPORT = rss_mb()
from majiang import shanten as shanten_module  # noqa: E402
from majiang.analysis import useful_tiles  # noqa: E402
from majiang.shanten import shanten  # noqa: E402

RSS_AFTER_IMPORT = rss_mb()

CODES = (
    [f"W{r}" for r in range(1, 10)]
    + [f"T{r}" for r in range(1, 10)]
    + [f"B{r}" for r in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
)

Pack = tuple[str, str, int]
Case = tuple[list[int], int, tuple[Pack, ...], tuple[str, ...]]
"""Concealed tiles, number of melds, the reference's packs and its hand."""


def random_case(rng: random.Random, with_melds: bool) -> Case:
    """One random 13-tile hand, with 0-4 random melds if asked."""
    wall = [4] * 34
    packs: list[Pack] = []
    n = rng.randint(0, 4) if with_melds else 0
    while len(packs) < n:
        roll = rng.random()
        t = rng.randrange(34)
        if roll < 0.5:
            if t >= 27 or t % 9 > 6 or not all(wall[t + i] for i in range(3)):
                continue
            for i in range(3):
                wall[t + i] -= 1
            packs.append(("CHI", CODES[t + 1], 1))
        elif roll < 0.85:
            if wall[t] < 3:
                continue
            wall[t] -= 3
            packs.append(("PENG", CODES[t], 1))
        else:
            if wall[t] < 4:
                continue
            wall[t] -= 4
            packs.append(("GANG", CODES[t], rng.choice((0, 1))))
    pool = [t for t in range(34) for _ in range(wall[t])]
    tiles = sorted(rng.sample(pool, 13 - 3 * n))
    return tiles, n, tuple(packs), tuple(CODES[t] for t in tiles)


def timed(work: Callable[[], object]) -> float:
    """Seconds taken by ``work()``, with the garbage collector off (as ``timeit`` does)."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        work()
        return time.perf_counter() - start
    finally:
        gc.enable()


def bench(name: str, cases: list[Case], runs: int) -> None:
    n = len(cases)

    def ours() -> list[int]:
        return [shanten(tiles, melds) for tiles, melds, _, _ in cases]

    def theirs() -> list[int]:
        return [MahjongShanten(pack=packs, hand=hand) for _, _, packs, hand in cases]

    cold = timed(ours)
    warm = reference = float("inf")
    for _ in range(runs):  # interleaved, so that a busy machine slows both alike
        reference = min(reference, timed(theirs))
        warm = min(warm, timed(ours))
    differ = sum(1 for a, b in zip(ours(), theirs(), strict=True) if a != b)
    print(f"{name}: {n:,} hands")
    print(f"  pymahjonggb MahjongShanten  {n / reference:>11,.0f} hands/s")
    print(f"  majiang shanten, cold       {n / cold:>11,.0f} hands/s"
          f"  ({n / cold / (n / reference):.2f}x the reference; tables filled on the way)")
    print(f"  majiang shanten, warm       {n / warm:>11,.0f} hands/s"
          f"  ({n / warm / (n / reference):.2f}x the reference)")
    print(f"  tables filled in            {max(0.0, cold - warm):>11.2f} s (cold - warm)")
    print(f"  different answers           {differ:>11,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runs", type=int, default=5, help="timed passes; the best is kept")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    concealed = [random_case(rng, False) for _ in range(args.hands)]
    melded = [random_case(rng, True) for _ in range(args.hands)]
    before = rss_mb()
    shanten(list(range(13)))  # allocates the key arrays
    arrays = rss_mb()
    print(f"Python {sys.version.split()[0]}, seed {args.seed}, best of {args.runs} warm passes")
    bench("13 concealed tiles", concealed, args.runs)
    bench("0-4 melds + concealed tiles", melded, args.runs)
    after = rss_mb()
    sizes = shanten_module.table_sizes()
    print("tables after both workloads: " + ", ".join(f"{k} {v:,}" for k, v in sizes.items()))
    print(f"resident memory: importing majiang {RSS_AFTER_IMPORT - RSS_BEFORE_IMPORT:+.1f} MB, "
          f"the key arrays (first call) {arrays - before:+.1f} MB, "
          f"filling the tables {after - arrays:+.1f} MB")
    sample = concealed[: max(1, args.hands // 10)]

    def useful() -> None:
        for tiles, melds, _, _ in sample:
            useful_tiles(tiles, melds)

    cold = timed(useful)
    warm = min(timed(useful) for _ in range(args.runs))
    print(f"useful_tiles of {len(sample):,} of the concealed hands: {len(sample) / cold:,.0f} "
          f"hands/s cold, {len(sample) / warm:,.0f} warm")


if __name__ == "__main__":
    main()
