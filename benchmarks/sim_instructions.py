"""Instructions per simulated hand, counted by valgrind's callgrind: a speed figure that the
load of a shared machine does not move (wall-clock rounds here swing by 2x).

    .venv-compiled/bin/python benchmarks/sim_instructions.py [--warm 400] [--hands 40]
        [--bots efficient,efficient,efficient,efficient] [--against OTHER_PYTHON]

The interpreter running this script plays ``--warm`` hands uninstrumented (the shanten and block
caches fill as in a long run), then ``--hands`` hands are counted; the interpreter's shut-down is
left out. ``--against`` counts the same hands with another interpreter (e.g. a build of an older
commit) and prints the ratio. Needs ``valgrind`` (with ``callgrind_control`` and
``callgrind_annotate``); about a minute a run.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import sys, time
from majiang.sim import SimConfig, simulate
bots = tuple(sys.argv[1].split(","))
simulate(SimConfig(bots=bots, games=int(sys.argv[2]), seed=2), 1)
print("go", flush=True)
time.sleep(2)
simulate(SimConfig(bots=bots, games=int(sys.argv[3]), seed=1), 1)
"""


def _count(annotated: str, pattern: str) -> int:
    found = re.search(r"^\s*([\d,]+) .*" + pattern, annotated, re.MULTILINE)
    return int(found.group(1).replace(",", "")) if found else 0


def instructions_per_hand(python: str, bots: str, warm: int, hands: int) -> float:
    """Instructions (Ir) per counted hand for the interpreter ``python``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        child = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no",
             f"--callgrind-out-file={out}", python, "-c", CHILD, bots, str(warm), str(hands)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        assert child.stdout is not None
        for line in child.stdout:
            if line.strip() == "go":
                subprocess.run(["callgrind_control", "-i", "on", str(child.pid)],
                               check=True, capture_output=True)
                break
        if child.wait() != 0:
            raise SystemExit(f"{python} failed under valgrind")
        annotated = subprocess.run(
            ["callgrind_annotate", "--inclusive=yes", str(out)],
            check=True, capture_output=True, text=True,
        ).stdout
    total = _count(annotated, r"PROGRAM TOTALS")
    shutdown = _count(annotated, r"pylifecycle\.c:Py_FinalizeEx \[")
    return (total - shutdown) / hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm", type=int, default=400, help="uncounted hands first (400)")
    parser.add_argument("--hands", type=int, default=40, help="counted hands (40)")
    parser.add_argument("--bots", default="efficient,efficient,efficient,efficient")
    parser.add_argument("--against", help="another interpreter to count the same hands with")
    args = parser.parse_args()
    mine = instructions_per_hand(sys.executable, args.bots, args.warm, args.hands)
    print(f"{sys.executable}: {mine / 1e6:.2f} M instructions a hand ({args.bots}, "
          f"{args.hands} hands after {args.warm})")
    if args.against:
        other = instructions_per_hand(args.against, args.bots, args.warm, args.hands)
        print(f"{args.against}: {other / 1e6:.2f} M instructions a hand: "
              f"{other / mine:.2f}x this one's")


if __name__ == "__main__":
    main()
