"""Measure the search bot's choices against the true hidden hands.

Plays hands with the search's fast policy in seat 0 and the rollout policy of the others in the
other seats (Guobiao: ``guarded`` and three ``fan``). At up to ``--per-hand`` decisions of seat
0 with a choice (the ones the search weighs, or with ``--decisions plain`` the discards it
leaves to its fast policy), it

- runs the search on the seat's observation with ``--deals`` sampled deals and no time limit
  (a second's budget draws about eight) and notes its choice;
- values each of the search's candidates over ``--truth`` deals that hold the table's true
  hidden hands, the wall shuffled, with the same deals and policy seeds for every candidate:
  the best any sampler could know;
- lets a search that knew the hands choose on the first ``--know`` deals of those (8 and 16),
  each choice valued on the deals after them.

Prints, for claims and for discards, the mean gain a decision of each choice over the fast
policy's, with its 95% interval over positions, and the best candidate's gain (an upper bound:
the best of noisy means), all valued on the same held-out deals of the true hands::

    python tools/search_regret.py --hands 60 --seed 1
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from multiprocessing import Pool

from majiang.bots.sampler import Deal, hand_rules, hidden_pool, table_at
from majiang.bots.search import (
    Candidate,
    Evaluation,
    SearchBot,
    play_out,
    rollout_plan,
)
from majiang.bots.view import find_win
from majiang.engine.actions import Action
from majiang.engine.state import Observation, Phase
from majiang.engine.table import Table
from majiang.rules.base import RuleSet
from majiang.rules.registry import make_rules

SEAT = 0
PHASES = {Phase.CLAIM: "claims", Phase.TURN: "discards"}


def true_deal(obs: Observation, truth: list[Observation], rules: RuleSet,
              rng: random.Random) -> Deal:
    """The hidden tiles as the table holds them (``truth``: every seat's own observation),
    the unseen wall tiles shuffled."""
    pool, flowers = hidden_pool(obs, rules)
    hands: list[tuple[int, ...]] = []
    kongs: list[tuple[int, ...]] = []
    for s, view in enumerate(truth):
        faces = tuple(rules.physical(m.tile) for m in view.melds[s] if m.is_concealed_kong)
        hands.append(tuple(obs.hand) if s == obs.seat else tuple(sorted(view.hand)))
        kongs.append(faces)
        if s != obs.seat:
            for t in view.hand:
                pool[t] -= 1
            for t in faces:
                pool[t] -= 4
    wall = [t for t in range(34) for _ in range(pool[t])] + flowers
    rng.shuffle(wall)
    return Deal(tuple(hands), tuple(kongs), tuple(wall))


def truth_values(obs: Observation, truth: list[Observation], base: RuleSet,
                 actions: list[Action], deals: int, key: int) -> list[list[float]]:
    """Each action's payments over ``deals`` deals of the true hidden hands."""
    own, other, _ = rollout_plan(base)
    rules = hand_rules(obs, base)
    values: list[list[float]] = [[] for _ in actions]
    for i in range(deals):
        rng = random.Random(key * 1_000_003 + i)
        deal = true_deal(obs, truth, rules, rng)
        seeds = [rng.getrandbits(32) for _ in range(4)]
        for found, action in zip(values, actions, strict=True):
            agents = [(own if s == obs.seat else other)(seeds[s]) for s in range(4)]
            found.append(play_out(table_at(obs, base, deal), obs, action, agents))
    return values


def wanted(bot: SearchBot, obs: Observation, plain: bool) -> bool:
    """Whether ``obs`` is a decision of the kind measured: one ``bot`` searches, or with
    ``plain`` a discard it leaves to its fast policy."""
    if len(obs.legal_actions) < 2 or obs.phase not in PHASES or find_win(obs) is not None:
        return False
    if plain:
        return obs.phase is Phase.TURN and not bot.searches(obs)
    return bot.searches(obs)


Row = tuple[str, float, list[float], float]
"""(kind, the search's gain, the gain of a search that knew the hands at each budget, the
best candidate's gain) of one measured decision."""


def measure_hand(job: tuple[str, int, int, int, tuple[int, ...], int, int, bool]) -> list[Row]:
    """The measured decisions of one hand (see :data:`Row`)."""
    rules_name, seed, per_hand, sampled, knowing, truth_deals, n, plain = job
    base = make_rules(rules_name)
    own, other, _ = rollout_plan(base)
    hand_seed = seed * 1_000_003 + n
    table = Table(base, hand_seed, dealer=n % 4)
    bots = [(own if s == SEAT else other)(hand_seed * 4 + s) for s in range(4)]
    searcher = SearchBot(hand_seed, think=None, samples=sampled)
    found: list[Row] = []
    while not table.is_over:
        for s in table.to_act():
            obs = table.observation(s)
            if s == SEAT and len(found) < per_hand and wanted(searcher, obs, plain):
                search = searcher.evaluate(obs)
                found.append(_measure(obs, table, base, search, knowing, truth_deals,
                                      hand_seed * 31 + len(found)))
            table.apply(s, bots[s](obs))
    return found


def _measure(obs: Observation, table: Table, base: RuleSet, search: Evaluation,
             knowing: tuple[int, ...], truth_deals: int, key: int) -> Row:
    actions = [c.action for c in search.candidates]
    truth = [table.observation(s) for s in range(4)]
    values = truth_values(obs, truth, base, actions, truth_deals, key)
    first_held = max(knowing)
    held_out = {a: statistics.fmean(v[first_held:]) for a, v in zip(actions, values, strict=True)}
    prior = held_out[search.prior]
    knew = []
    for deals in knowing:
        ranked = sorted((Candidate(a, v[:deals]) for a, v in zip(actions, values, strict=True)),
                        key=lambda c: -c.mean)
        knew.append(held_out[Evaluation(ranked, deals, 0, 0.0, search.prior).best] - prior)
    return (PHASES[obs.phase], held_out[search.best] - prior, knew,
            max(held_out.values()) - prior)


def interval(values: list[float]) -> str:
    """The mean and its 95% interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0
    return f"{mean:+.2f} ({mean - half:+.2f} .. {mean + half:+.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="gb")
    parser.add_argument("--per-hand", type=int, default=3)
    parser.add_argument("--deals", type=int, default=8, help="the search's sampled deals")
    parser.add_argument("--truth", type=int, default=48, help="deals of the true hands")
    parser.add_argument("--know", default="8,16",
                        help="deals a search that knew the hands chooses on (comma-separated)")
    parser.add_argument("--decisions", choices=("searched", "plain"), default="searched")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    plain = args.decisions == "plain"
    knowing = tuple(int(k) for k in args.know.split(","))
    if max(knowing) >= args.truth:
        parser.error("--truth must exceed every --know")
    jobs = [(args.rules, args.seed, args.per_hand, args.deals, knowing, args.truth, n, plain)
            for n in range(args.hands)]
    with Pool(args.jobs) as pool:
        rows = [row for hand in pool.imap(measure_hand, jobs) for row in hand]
    print(f"{len(rows)} {args.decisions} decisions of {args.hands} hands; gain a decision over "
          f"the fast policy's choice, valued on {args.truth - max(knowing)} deals of the true "
          "hands")
    heads = [f"search, {args.deals} deals"] + [f"knowing, {k} deals" for k in knowing]
    print(f"{'':<9} {'positions':>9}  " + "".join(f"{h:<25}" for h in heads) + "best (bound)")
    for kind in ("claims", "discards", "all"):
        chosen = [r for r in rows if kind in ("all", r[0])]
        if not chosen:
            continue
        columns = [interval([r[1] for r in chosen])]
        columns += [interval([r[2][i] for r in chosen]) for i in range(len(knowing))]
        columns.append(interval([r[3] for r in chosen]))
        print(f"{kind:<9} {len(chosen):>9}  " + "".join(f"{c:<25}" for c in columns[:-1])
              + columns[-1])


if __name__ == "__main__":
    main()
