"""How many random winning hands majiang names differently from the reference (PyMahjongGB).

    .venv/bin/python benchmarks/reference_names.py [--hands 300000] [--seed 1] [--show 10]
        [--one-suit]

Scores random hands of every shape (``majiang.random_hands``; with ``mixed_kong_pair_5``, the
reference's 明暗杠) with both calculators and counts the hands whose totals differ and those whose
totals agree but whose fan lists differ, by the pair of fan sets that differ. Prints the counts
and the first ``--show`` hands of each kind. ``--one-suit`` scores instead every concealed
winning hand of one suit (characters) with each of its tiles as the winning tile, on a discard
and self-drawn: the hands with the most readings of equal total.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from majiang.hand import Hand, WinContext  # noqa: E402
from majiang.random_hands import random_winning_hand  # noqa: E402
from majiang.rules.guobiao.options import GuobiaoOptions  # noqa: E402
from majiang.rules.guobiao.scoring import score_hand  # noqa: E402
from majiang.shapes import is_complete  # noqa: E402
from reference import reference_fans  # noqa: E402

OPTIONS = GuobiaoOptions(mixed_kong_pair_5=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=10)
    parser.add_argument("--one-suit", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hands = _one_suit_hands() if args.one_suit else _random_hands(rng, args.hands)
    totals: list[str] = []
    names: list[str] = []
    families: Counter[str] = Counter()
    shapes: Counter[str] = Counter()
    start = time.perf_counter()
    count = 0
    for hand, ctx in hands:
        count += 1
        result = score_hand(hand, ctx, OPTIONS)
        shapes[result.reading.shape] += 1
        mine = {fc.fan.zh: fc.count for fc in result.fans}
        ref = reference_fans(hand, ctx)
        if mine == ref:
            continue
        line = f"{hand} {ctx.describe()}: majiang {mine}, reference {ref}"
        only_mine = sorted(f"{k}×{v}" for k, v in mine.items() if ref.get(k) != v)
        only_ref = sorted(f"{k}×{v}" for k, v in ref.items() if mine.get(k) != v)
        if _points(mine) != _points(ref):
            totals.append(line)
        else:
            names.append(line)
            families[f"{' '.join(only_mine)} <-> {' '.join(only_ref)}"] += 1
    seconds = time.perf_counter() - start
    source = "one-suit hands" if args.one_suit else f"random hands (seed {args.seed})"
    print(f"{count} {source} in {seconds:.0f} s; shapes: {dict(shapes)}")
    print(f"totals differ: {len(totals)}")
    for line in totals[: args.show]:
        print("  " + line)
    print(f"same total, fan lists differ: {len(names)}")
    for family, count in families.most_common():
        print(f"  {count:6d}  {family}")
    for line in names[: args.show]:
        print("  " + line)


def _random_hands(rng: random.Random, n: int) -> Iterator[tuple[Hand, WinContext]]:
    for _ in range(n):
        yield random_winning_hand(rng)


def _one_suit_hands() -> Iterator[tuple[Hand, WinContext]]:
    """Every 14-tile concealed winning hand of characters, each held kind as the winning tile,
    on a discard and self-drawn."""
    for counts in _compositions(14, 9, 4):
        full = counts + [0] * 25
        if not is_complete(full, 0):
            continue
        for win in range(9):
            if not counts[win]:
                continue
            concealed = [t for t in range(9) for _ in range(counts[t] - (t == win))]
            hand = Hand.of((), concealed, win)
            for self_drawn in (False, True):
                yield hand, WinContext(self_drawn=self_drawn)


def _compositions(total: int, slots: int, most: int) -> Iterator[list[int]]:
    if slots == 1:
        if total <= most:
            yield [total]
        return
    for first in range(min(most, total) + 1):
        for rest in _compositions(total - first, slots - 1, most):
            yield [first, *rest]


def _points(fans: dict[str, int]) -> int:
    """The total of fans named in the seed's spelling (flowers 1 each)."""
    return sum(_POINTS[name] * count for name, count in fans.items())


def _point_table() -> dict[str, int]:
    from majiang.rules.guobiao.fans import FANS

    return {info.zh: info.points for info in FANS.values()}


_POINTS = _point_table()

if __name__ == "__main__":
    main()
