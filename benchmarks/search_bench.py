"""The search bot's speed: rollouts per second and decisions per second, both rule sets.

    .venv/bin/python benchmarks/search_bench.py [--positions 12] [--samples 4] [--rounds 3]
        [--seed 1]

A fixed set of decision positions (``--positions`` per rule set, taken from hands of the fast
policies, every one with more than one legal action) is decided in each round by:

* the reference: the search's own fast policy (the guarded fan bot in Guobiao, ``wild`` in
  Huangyan), one decision per position;
* the search's evaluation of every position with a sample budget instead of a time budget
  (``--samples`` deals a decision, no time limit), so that every round does the same work;
* the search bot playing each position with that sample budget: it searches only the
  decisions it spends its budget on (in Guobiao: claims, kongs, ready discards) and leaves the
  others to its fast policy.

The three are interleaved round by round. Printed per rule set: the evaluation's decisions/s
and rollouts/s (best and median round), the reference's decisions/s, the median ratio of the
evaluation's time per decision to the reference's, and the playing bot's decisions/s (best
round). Peak memory (resident set) at the end.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from majiang.bots import make_bot
from majiang.bots.search import SearchBot
from majiang.engine.state import Observation, Phase
from majiang.engine.table import Table
from majiang.rules.registry import make_rules

POLICY = {"gb": "fan", "huangyan": "wild"}


def positions(rules_name: str, count: int, seed: int) -> list[Observation]:
    """``count`` decisions of seat 0 with a choice, from hands of the fast policy."""
    rules = make_rules(rules_name)
    found: list[Observation] = []
    hand = seed
    while len(found) < count:
        table = Table(rules, hand)
        bots = [make_bot(POLICY[rules_name], hand * 4 + s) for s in range(4)]
        taken = 0
        while not table.is_over:
            for s in table.to_act():
                obs = table.observation(s)
                if (s == 0 and len(obs.legal_actions) > 1 and taken < 3
                        and obs.phase in (Phase.TURN, Phase.CLAIM) and len(found) < count):
                    found.append(obs)
                    taken += 1
                table.apply(s, bots[s](obs))
        hand += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    clock = time.perf_counter
    print(f"{args.positions} positions per rule set, {args.samples} deals a decision, "
          f"{args.rounds} interleaved rounds")
    print(f"{'rules':<9} {'search dec/s':>13} {'rollouts/s':>11} {'median':>8} "
          f"{'reference dec/s':>16} {'search/ref time':>16} {'playing dec/s':>14}")
    for rules_name in ("gb", "huangyan"):
        found = positions(rules_name, args.positions, args.seed)
        bot = SearchBot(args.seed, think=None, samples=args.samples)
        rates: list[float] = []
        rollout_rates: list[float] = []
        ref_rates: list[float] = []
        ratios: list[float] = []
        play_rates: list[float] = []
        for r in range(args.rounds):
            start = clock()
            for i, obs in enumerate(found):
                bot.policy(obs, r * 1000 + i)(obs)
            ref = clock() - start
            start = clock()
            rollouts = 0
            for obs in found:
                rollouts += bot.evaluate(obs).rollouts
            spent = clock() - start
            rates.append(len(found) / spent)
            rollout_rates.append(rollouts / spent)
            ref_rates.append(len(found) / ref)
            ratios.append(spent / ref)
            start = clock()
            for obs in found:
                bot(obs)
            play_rates.append(len(found) / (clock() - start))
        print(f"{rules_name:<9} {max(rates):>13.2f} {max(rollout_rates):>11.1f} "
              f"{statistics.median(rollout_rates):>8.1f} {max(ref_rates):>16.1f} "
              f"{statistics.median(ratios):>15.0f}x {max(play_rates):>14.2f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
