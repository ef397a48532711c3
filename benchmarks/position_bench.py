"""Tables built at sampled positions per second (``bots.sampler.table_at``), both rule sets.

    .venv/bin/python benchmarks/position_bench.py [--hands 40] [--rounds 5] [--seed 0]

The positions are the decisions (turns and claim windows) of random play in ``--hands`` hands,
about one in five, each with its hidden tiles sampled once; every round builds a table at each
of them, as the search bot does before a rollout. Printed per rule set: the positions and the
best round's tables per second (process CPU time).
"""

from __future__ import annotations

import argparse
import random
import time

from majiang.bots.sampler import Deal, hand_rules, sample_deal, table_at
from majiang.engine.state import Observation, Phase
from majiang.engine.table import Table
from majiang.rules.base import RuleSet
from majiang.rules.registry import make_rules


def positions(rules: RuleSet, hands: int, seed: int) -> list[tuple[Observation, Deal]]:
    """About one decision in five of random play, with its hidden tiles sampled."""
    found = []
    for hand in range(seed, seed + hands):
        table = Table(rules, hand)
        rng = random.Random(hand)
        while not table.is_over:
            for s in table.to_act():
                obs = table.observation(s)
                if obs.phase in (Phase.TURN, Phase.CLAIM) and rng.random() < 0.2:
                    found.append((obs, sample_deal(obs, hand_rules(obs, rules), rng)))
                table.apply(s, rng.choice(obs.legal_actions))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for name in ("gb", "huangyan"):
        rules = make_rules(name)
        found = positions(rules, args.hands, args.seed)
        best = 0.0
        for _ in range(args.rounds):
            start = time.process_time()
            for obs, deal in found:
                table_at(obs, rules, deal)
            best = max(best, len(found) / (time.process_time() - start))
        print(f"{name:<9} {len(found)} positions: {best:,.0f} tables/s")


if __name__ == "__main__":
    main()
