"""Tournament seating speed: the time to seat each round of a field, with the repeat meetings
and the worst wind spread it ends with.

    .venv/bin/python benchmarks/seating_bench.py [--players 40,120,256] [--rounds 7] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

from majiang.organiser.seating import History, Seating, seat_tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="40,120,256")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("players  rounds  slowest round  all rounds  repeat meetings  worst wind spread")
    for count in (int(n) for n in args.players.split(",")):
        history = History()
        times = []
        for number in range(1, args.rounds + 1):
            start = time.perf_counter()
            tables = seat_tables(list(range(count)), history, args.seed, number)
            times.append(time.perf_counter() - start)
            history.add(Seating(number, tables))
        repeats = sum(n - 1 for n in history.meetings.values())
        spread = max(max(c) - min(c) for c in history.winds.values())
        print(f"{count:>7}  {args.rounds:>6}  {max(times):>11.2f} s  {sum(times):>8.2f} s"
              f"  {repeats:>15}  {spread:>17}")


if __name__ == "__main__":
    main()
