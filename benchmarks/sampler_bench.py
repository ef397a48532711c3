"""Deals sampled per second for the search, uniformly and with Guobiao's readiness model.

    .venv/bin/python benchmarks/sampler_bench.py [--hands 20] [--rounds 5] [--seed 0]

The positions are the decisions (turns and claim windows) with a choice in ``--hands`` Guobiao
hands of four ``fan`` bots, about one in five. Each round samples one deal at every position
uniformly and one with :func:`majiang.bots.readiness.fan_bots` (a sampler reading readiness),
the two interleaved position by position. Printed: the positions and the best round's deals per
second of each (process CPU time), their ratio, and the share of the other seats' hands that
could declare a legal win on a discard in each kind of deal.
"""

from __future__ import annotations

import argparse
import random
import time

from majiang.bots import make_bot
from majiang.bots.readiness import fan_bots
from majiang.bots.sampler import legal_waits, sample_deal
from majiang.engine.state import Observation, Phase
from majiang.engine.table import Table
from majiang.rules.registry import make_rules


def positions(hands: int, seed: int) -> list[Observation]:
    """About one decision with a choice in five of ``fan`` play."""
    rules = make_rules("gb")
    found = []
    for hand in range(seed, seed + hands):
        table = Table(rules, hand)
        bots = [make_bot("fan", hand * 4 + s) for s in range(4)]
        rng = random.Random(hand)
        while not table.is_over:
            for s in table.to_act():
                obs = table.observation(s)
                if (obs.phase in (Phase.TURN, Phase.CLAIM) and len(obs.legal_actions) > 1
                        and rng.random() < 0.2):
                    found.append(obs)
                table.apply(s, bots[s](obs))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rules = make_rules("gb")
    found = positions(args.hands, args.seed)
    best = {"uniform": 0.0, "readiness": 0.0}
    ready = {"uniform": 0, "readiness": 0}
    seats = 0
    for round_ in range(args.rounds):
        spent = {"uniform": 0.0, "readiness": 0.0}
        for i, obs in enumerate(found):
            for kind, model in (("uniform", None), ("readiness", fan_bots)):
                rng = random.Random(round_ * 1_000_003 + i)
                start = time.process_time()
                deal = sample_deal(obs, rules, rng, model)
                spent[kind] += time.process_time() - start
                if round_ == 0:
                    for s in range(4):
                        if s != obs.seat and obs.hand_sizes[s] % 3 == 1:
                            seats += kind == "uniform"
                            ready[kind] += bool(
                                legal_waits(obs, rules, s, deal.hands[s], list(obs.melds[s])))
        for kind in best:
            best[kind] = max(best[kind], len(found) / spent[kind])
    print(f"{len(found)} positions, {args.rounds} rounds, {seats} other hands")
    for kind in best:
        print(f"{kind:<10} {best[kind]:>9,.0f} deals/s   ready hands {ready[kind] / seats:.1%}")
    print(f"readiness/uniform time {best['uniform'] / best['readiness']:.1f}x")


if __name__ == "__main__":
    main()
