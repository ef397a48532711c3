"""A base commit's benchmarks against the working tree's, pure Python and compiled, interleaved.

    .venv/bin/python benchmarks/against_commit.py BASE [--rounds N] [--only NAME ...]

The base tree is ``git archive BASE`` unpacked in the work directory (``--work``, kept between
runs). Each tree runs pure from its ``src`` (this interpreter, ``PYTHONPATH``) and compiled in a
virtualenv built by the Makefile's ``.venv-compiled`` target (``FAST=``, rebuilt when the sources
change) plus the server's dependencies. Each benchmark script runs in a short mode, every tree its
own copy (said when the copies differ), for the four contenders in turn, the order reversed every
other round. Printed: each figure's median per contender and the per-round ratio head/base
(higher is faster) as median and range.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILDS = ("pure", "compiled")
TREES = ("base", "head")
CONTENDERS = [(tree, build) for build in BUILDS for tree in TREES]
"""Round 1's order: base-pure, head-pure, base-compiled, head-compiled."""

Figure = Callable[[str, str], float]
"""A figure read from a run's stdout and stderr (higher is faster)."""


def printed(pattern: str, occurrence: int = 0, milliseconds: bool = False) -> Figure:
    """The number in the ``occurrence``-th match of ``pattern`` (its group 1) on stdout
    (``milliseconds``: a duration, read as how many a second)."""

    def read(out: str, _err: str) -> float:
        number = float(re.findall(pattern, out, re.M)[occurrence].replace(",", ""))
        return 1000 / number if milliseconds else number

    return read


def server_row(key: str, invert: bool = False) -> Figure:
    """A figure of server_load's JSON row on stderr (``invert``: per unit of it instead)."""

    def read(_out: str, err: str) -> float:
        row = json.loads(err[err.rindex("tables done: ") + len("tables done: "):].splitlines()[0])
        return 1 / row[key] if invert else row[key]

    return read


@dataclass(frozen=True)
class Benchmark:
    script: str
    args: tuple[str, ...]
    figures: dict[str, Figure]


BENCHMARKS = {
    "score": Benchmark("score_bench.py", ("--hands", "5000", "--runs", "3", "--memory-hands",
                                          "1000"), {
        "core hands/s": printed(r"^majiang core \(parsed hands\)\s+([\d,]+)"),
        "API hands/s": printed(r"^majiang API \(notation strings\)\s+([\d,]+)"),
        "batch hands/s": printed(r"^majiang batch, 1 process \(JSON lines\)\s+([\d,]+)"),
        "start-ups/s (score HAND)": printed(r"^start-up: .* (\d+) ms", milliseconds=True),
    }),
    "shanten": Benchmark("shanten_bench.py", ("--hands", "20000", "--runs", "3"), {
        "concealed warm hands/s": printed(r"majiang shanten, warm\s+([\d,]+)"),
        "melded warm hands/s": printed(r"majiang shanten, warm\s+([\d,]+)", 1),
    }),
    "sim": Benchmark("sim_bench.py", ("--hands", "60", "--warm", "20", "--steady", "40",
                                      "--rounds", "3", "--duel", "0", "--jobs", "1"), {
        "efficient hands/s": printed(r"^\s+efficient,efficient,efficient,efficient\s+([\d.]+)"),
        "fan+3 efficient hands/s": printed(r"^\s+fan,efficient,efficient,efficient\s+([\d.]+)"),
        "efficient steady hands/s": printed(r"steady state.*best ([\d.]+)"),
    }),
    "env": Benchmark("env_bench.py", ("--seconds", "1", "--repeat", "1", "--no-rlcard"), {
        "engine gb hands/s": printed(r"engine only \(Table\), gb\s+\d+\s+([\d.]+)", 1),
        "BatchEnv gb hands/s": printed(r"BatchEnv x64, gb\s+\d+\s+([\d.]+)", 1),
        "BatchEnv huangyan hands/s": printed(r"BatchEnv x64, huangyan\s+\d+\s+([\d.]+)", 1),
    }),
    "server": Benchmark("server_load.py", ("--tables", "10", "--seconds", "8", "--warmup", "3"), {
        "actions/s": server_row("actions_per_s"),
        "actions per server CPU ms": server_row("server_cpu_ms_per_action", invert=True),
    }),
}


def round_order(round_index: int) -> list[tuple[str, str]]:
    """The contenders in the order they run in round ``round_index`` (from 0)."""
    return CONTENDERS if round_index % 2 == 0 else CONTENDERS[::-1]


def ratio_spread(head: list[float], base: list[float]) -> tuple[float, float, float]:
    """Median, lowest and highest of the per-round ratios head/base."""
    ratios = [h / b for h, b in zip(head, base, strict=True)]
    return statistics.median(ratios), min(ratios), max(ratios)


def figure_text(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:.2f}"


def run(command: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, cwd=cwd, env={**os.environ, **env}, text=True,
                          capture_output=True)
    if done.returncode:
        tail = (done.stdout + done.stderr)[-3000:]
        sys.exit(f"{' '.join(command)} failed in {cwd}:\n{tail}")
    return done


def compiled_python(tree: Path, venv: Path) -> str:
    """The Makefile's compiled build of ``tree`` in ``venv``, with the server's dependencies."""
    run(["make", "-s", f"FAST={venv}", f"{venv}/.installed"], tree)
    server = tomllib.loads((tree / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["server"]
    python = str(venv / "bin" / "python")
    run([python, "-m", "pip", "install", "-q", *server], tree)
    return python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the commit to compare the working tree with")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--only", nargs="+", choices=BENCHMARKS, default=list(BENCHMARKS))
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "majiang-bench")
    args = parser.parse_args()

    sha = run(["git", "rev-parse", "--short", args.base], ROOT).stdout.strip()
    base = args.work / f"base-{sha}"
    if not base.exists():
        base.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", sha], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive.stdout, check=True)
    trees = {"base": base, "head": ROOT}
    pythons = {(tree, "pure"): sys.executable for tree in TREES}
    for tree in TREES:
        pythons[tree, "compiled"] = compiled_python(trees[tree], args.work / f"{tree}-compiled")

    for name in args.only:
        script = BENCHMARKS[name].script
        if not (base / "benchmarks" / script).exists():
            sys.exit(f"{sha} has no benchmarks/{script}: leave {name} out (--only)")
        if not filecmp.cmp(base / "benchmarks" / script, ROOT / "benchmarks" / script, False):
            print(f"note: benchmarks/{script} differs between the trees; each runs its own")
    load = os.getloadavg()
    print(f"{args.rounds} rounds, base {sha}, load average {load[0]:.1f}", flush=True)
    results: dict[tuple[str, str, str], dict[str, list[float]]] = {}
    for round_index in range(args.rounds):
        for name in args.only:
            bench = BENCHMARKS[name]
            for tree, build in round_order(round_index):
                env = {"PYTHONPATH": str(trees[tree] / "src") if build == "pure" else ""}
                done = run([pythons[tree, build], str(trees[tree] / "benchmarks" / bench.script),
                            *bench.args], trees[tree], **env)
                for label, figure in bench.figures.items():
                    results.setdefault((name, label, build), {}).setdefault(tree, []).append(
                        figure(done.stdout, done.stderr))
        print(f"round {round_index + 1} done, load average {os.getloadavg()[0]:.1f}",
              file=sys.stderr, flush=True)

    print(f"{'benchmark':9} {'figure':28} {'build':8} {'base':>9} {'head':>9} "
          f"{'head/base':>9}  range")
    for (name, label, build), by_tree in results.items():
        middle, low, high = ratio_spread(by_tree["head"], by_tree["base"])
        base_value, head_value = (statistics.median(by_tree[tree]) for tree in TREES)
        print(f"{name:9} {label:28} {build:8} {figure_text(base_value):>9} "
              f"{figure_text(head_value):>9} {middle:>9.3f}  {low:.3f}-{high:.3f}")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
