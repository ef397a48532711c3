"""Measure how close the other seats' hands are to ready, for the search's sampler.

Plays hands of four bots (Guobiao and ``fan`` by default) and, at every decision, records for
each other seat
holding 13 tiles less its melds' (its exposed sets, its pond length // 3) and whether its hand
could declare a legal win on a discard, is one tile from ready (four sets and a pair, wild
tiles as jokers), or is further. Prints the shares as :data:`majiang.bots.readiness.FAN_BOTS`
holds them (for ``--rules gb --bot fan``)::

    python tools/readiness_table.py --hands 2000 --seed 1
"""

from __future__ import annotations

import argparse

from majiang.bots import make_bot
from majiang.bots.sampler import legal_waits
from majiang.bots.wild_shanten import split_hand
from majiang.engine.state import Phase
from majiang.engine.table import Table
from majiang.rules.registry import make_rules
from majiang.shanten import wild_regular_shanten

PLAY = (Phase.TURN, Phase.CLAIM, Phase.ROB)
EXPOSED = 5
PONDS = 7
FEWEST = 40
"""A cell seen fewer times than this takes the shares of the measured cell to its left (the
first measured one at the start of a row)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="gb")
    parser.add_argument("--bot", default="fan")
    args = parser.parse_args()
    base = make_rules(args.rules)
    tally = [[[0, 0, 0] for _ in range(PONDS)] for _ in range(EXPOSED)]
    for n in range(args.hands):
        seed = args.seed * 1_000_003 + n
        table = Table(base, seed, dealer=n % 4)
        bots = [make_bot(args.bot, seed * 4 + s) for s in range(4)]
        while not table.is_over:
            acting = table.to_act()
            views = [table.observation(s) for s in range(4)]
            for s in range(4):
                if s in acting or views[s].hand_sizes[s] % 3 != 1 or table.phase not in PLAY:
                    continue
                obs = views[s]
                exposed = sum(1 for m in obs.melds[s] if not m.is_concealed_kong)
                row = tally[min(exposed, EXPOSED - 1)][min(len(obs.discards[s]) // 3, PONDS - 1)]
                melds = list(obs.melds[s])
                if legal_waits(obs, table.rules, s, obs.hand, melds):
                    row[0] += 1
                else:
                    counts, jokers = split_hand(obs.hand, obs.wild)
                    row[1 if wild_regular_shanten(counts, jokers, len(melds)) == 1 else 2] += 1
            for s in acting:
                table.apply(s, bots[s](views[s]))
    print("FAN_BOTS: Shares = (")
    for exposed in range(EXPOSED):
        measured: list[tuple[float, float] | None] = []
        for ready, near, far in tally[exposed]:
            total = ready + near + far
            measured.append((ready / total, near / total) if total >= FEWEST else None)
        known = [m for m in measured if m is not None] or [(0.0, 0.0)]
        cells = []
        shares = known[0]
        for cell in measured:
            shares = cell if cell is not None else shares
            cells.append(f"({shares[0]:.3f}, {shares[1]:.3f})")
        print(f"    ({', '.join(cells)}),")
    print(")")
    counts = [[sum(c) for c in row] for row in tally]
    print("# observations:", counts)


if __name__ == "__main__":
    main()
