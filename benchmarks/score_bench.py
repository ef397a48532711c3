"""Scorer throughput against the reference calculator (PyMahjongGB), measured in the same run.

    .venv/bin/python benchmarks/score_bench.py [--hands 20000] [--seed 7] [--runs 5]
        [--memory-hands 100000] [--batch-passes N]

Prints hands/s for the reference (its Python entry point, arguments prepared beforehand), for
majiang's core scorer (parsed hands), its API (notation strings) and its batch scorer (JSON lines
in, JSON lines out; one process and ``--jobs 2``), the ratios, the start-up time of
``majiang score`` and the peak memory of a large batch.

``--batch-passes N`` only scores the batch's lines N times in one process and prints nothing:
for a profiler such as callgrind, whose counts for N = 3 minus N = 1 are two warm passes.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from majiang import score  # noqa: E402
from majiang.cli.score import run_batch  # noqa: E402
from majiang.random_hands import random_winning_hand  # noqa: E402
from majiang.rules.guobiao.options import GuobiaoOptions  # noqa: E402
from majiang.rules.guobiao.scoring import score_hand  # noqa: E402
from majiang.tiles import WIND_LETTERS  # noqa: E402
from reference import reference_arguments  # noqa: E402


def batch_line(hand, ctx) -> str:  # type: ignore[no-untyped-def]
    """The JSON-lines record of a hand and its situation."""
    return json.dumps(
        {
            "hand": str(hand),
            "win": "self_drawn" if ctx.self_drawn else "discard",
            "seat_wind": WIND_LETTERS[ctx.seat_wind],
            "prevalent_wind": WIND_LETTERS[ctx.prevalent_wind],
            "last_tile": ctx.last_tile,
            "kong": ctx.kong,
            "fourth_tile": ctx.fourth_tile,
        }
    )


def profile_batch(hands, passes: int) -> None:  # type: ignore[no-untyped-def]
    """Score the hands' batch lines ``passes`` times in one process (the first fills the
    per-suit caches), as the benchmark's one-process batch does."""
    text = "".join(batch_line(h, c) + "\n" for h, c in hands)
    options = GuobiaoOptions(mixed_kong_pair_5=True)
    for _ in range(passes):
        run_batch(io.StringIO(text), io.StringIO(), options)


def best_of(runs: int, work) -> float:  # type: ignore[no-untyped-def]
    """The fastest of ``runs`` timings of ``work()``, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--memory-hands", type=int, default=100000)
    parser.add_argument("--batch-passes", type=int, default=0, metavar="N")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    hands = [random_winning_hand(rng) for _ in range(args.hands)]
    if args.batch_passes:
        profile_batch(hands, args.batch_passes)
        return

    from MahjongGB import MahjongFanCalculator

    ref_args = [reference_arguments(h, c) for h, c in hands]
    texts = [(str(h), c) for h, c in hands]
    lines = [batch_line(h, c) + "\n" for h, c in hands]
    batch_text = "".join(lines)
    options = GuobiaoOptions(mixed_kong_pair_5=True)  # the reference's kong rule (D1)
    n = len(hands)

    def run_reference() -> None:
        for kwargs in ref_args:
            MahjongFanCalculator(**kwargs)

    def run_core() -> None:
        for hand, ctx in hands:
            score_hand(hand, ctx, options)

    def run_api() -> None:
        for text, ctx in texts:
            score(
                text,
                self_drawn=ctx.self_drawn,
                seat_wind=ctx.seat_wind,
                prevalent_wind=ctx.prevalent_wind,
                last_tile=ctx.last_tile,
                kong=ctx.kong,
                fourth_tile=ctx.fourth_tile,
                options=options,
            )

    def run_batch_jobs(jobs: int):  # type: ignore[no-untyped-def]
        def work() -> None:
            sink = io.StringIO()
            run_batch(io.StringIO(batch_text), sink, options, jobs)
            assert sink.getvalue().count("\n") == n

        return work

    run_core()  # warm the per-suit caches, as a long-running batch would
    work = {
        "reference (PyMahjongGB 1.4.0, C++)": run_reference,
        "majiang core (parsed hands)": run_core,
        "majiang API (notation strings)": run_api,
        "majiang batch, 1 process (JSON lines)": run_batch_jobs(1),
        "majiang batch, --jobs 2 (JSON lines)": run_batch_jobs(2),
    }
    # Rounds interleave the contenders so that a busy machine slows them alike; the median of
    # the per-round ratios is the steadier figure, the best run shows the speed when unhindered.
    times: dict[str, list[float]] = {label: [] for label in work}
    for _ in range(args.runs):
        for label, job in work.items():
            times[label].append(best_of(1, job))
    ref_label = "reference (PyMahjongGB 1.4.0, C++)"
    import majiang.rules.guobiao.scoring as scoring_module

    build = "compiled (mypyc)" if scoring_module.__file__.endswith(".so") else "pure Python"
    print(f"{n} random winning hands, seed {args.seed}, {args.runs} interleaved runs, {build}")
    print(f"{'':40} {'best hands/s':>12} {'vs reference':>13} {'median ratio':>13}")
    for label, seconds in times.items():
        ratios = [ref / own for ref, own in zip(times[ref_label], seconds, strict=True)]
        best_ratio = min(times[ref_label]) / min(seconds)
        print(
            f"{label:40} {n / min(seconds):>12,.0f} {best_ratio:>12.3f}x "
            f"{statistics.median(ratios):>12.3f}x"
        )

    startup = []
    cli = [sys.executable, "-m", "majiang", "score", "[WWWW,1][444s]45m678pFF6m"]
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run(cli, check=True, capture_output=True)
        startup.append(time.perf_counter() - start)
    print(
        f"start-up: `majiang score HAND` {statistics.median(startup) * 1000:.0f} ms (median of 5)"
    )

    big = random.Random(args.seed + 1)
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        for _ in range(args.memory_hands):
            hand, ctx = random_winning_hand(big)
            handle.write(batch_line(hand, ctx) + "\n")
        path = handle.name
    probe = (
        "import resource, sys; from majiang.cli import main; code = main(sys.argv[1:]); "
        "sys.stderr.write(str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)); "
        "raise SystemExit(code)"
    )
    try:
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", probe, "score", "--batch", path],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        seconds = time.perf_counter() - start
        peak = int(done.stderr.strip().splitlines()[-1])
    finally:
        os.unlink(path)
    print(
        f"batch of {args.memory_hands:,} hands through the CLI: {seconds:.1f} s, "
        f"peak memory {peak / 1024:.0f} MB"
    )


if __name__ == "__main__":
    main()
