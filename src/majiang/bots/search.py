"""The search bot: Monte Carlo rollouts over sampled deals, from the seat's observation alone.

At a decision with more than one action, the bot draws deals of the hidden tiles consistent
with what it has seen (:mod:`majiang.bots.sampler`), and for each candidate action plays the
hand out on a :class:`~majiang.engine.Table` built from the same deal with the same seeded fast
policies (common random numbers), scoring the seat's payment as the rule set settles it.

The rule set's description names the policies (:func:`rollout_plan`,
:class:`~majiang.rules.info.SearchPlan`) and whether a candidate is weighed by such a
whole-table rollout or by the seat's own look-ahead with the others passive
(:mod:`majiang.bots.lookahead`, :func:`looks_ahead`), whose values vary far less from deal
to deal (a look-ahead search waits for :data:`LOOK_MIN_SAMPLES` deals and weighs
:data:`LOOK_CANDIDATES` candidates; it played no better than the fast policy in Guobiao, and no
registered rule set uses it: docs/bots.md). The fast policy of the searching seat is the one it
falls back on: in Guobiao the guarded fan bot (:mod:`majiang.bots.defence`: the fan bot weighing
each discard's deal-in risk), in Huangyan the wild bot. The search spends its budget where a
decision shapes the hand (see :func:`worth_searching`): claims, kongs, and the discards of a
hand that is or can be ready (where the rollouts measure its own chance to win directly);
elsewhere the fast policy decides at once (the plain discards, whose rollouts from uniformly
sampled deals cannot read the others' threat). The action with the best mean payment
is taken once it has beaten the fast policy's own choice by a paired standard error
(:data:`TRUST_Z`) over at least 6 deals; until then the fast policy's choice stands, so that a
short budget plays no worse than the fast policy. Candidates: a win (only a legal one: never
under the minimum), every claim and kong, and the discards that keep the hand closest to ready
(the fast policy's own choice always among them). Candidates clearly behind the leader are
dropped as samples come in, and the search stops early when one is left or when no choice has
made any difference; otherwise it stops at its time budget (``think`` seconds) or sample cap.

The same seed and the same number of samples give the same choice; under a time budget the
number of samples depends on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from ..engine.actions import Action, AddedKong, Chow, ConcealedKong, Discard, ExposedKong, Pung, Win
from ..engine.match import Agent
from ..engine.state import Observation, Phase
from ..engine.table import Table
from ..errors import OptionError
from ..rules.base import RuleSet
from ..rules.info import load
from ..rules.registry import DEFAULT_RULES, RULE_SETS, description_of, make_rules
from .lookahead import look_ahead, risk_of
from .sampler import Readiness, hand_rules, sample_deal, table_at
from .view import find_win
from .wild_shanten import WildDiscards, split_hand

THINK = 1.0
"""Seconds a decision may take by default."""
MAX_SAMPLES = 400
"""Deals a decision draws at most."""
MIN_SAMPLES = 6
"""Deals before any candidate is dropped or the search stops early."""
CANDIDATES = 4
"""Discards weighed at most (besides wins, claims and kongs)."""
LOOK_MIN_SAMPLES = 4
""":data:`MIN_SAMPLES` of a search by look-ahead, whose values vary less from deal to deal."""
LOOK_CANDIDATES = 3
""":data:`CANDIDATES` of a search by look-ahead."""
Z = 1.96
"""95% intervals."""
DROP_Z = 2.5
"""A candidate is dropped when the leader beats it by this many standard errors (paired)."""
TRUST_Z = 1.0
"""The search overrules the fast policy's choice only when the leader beats it by this many
standard errors (paired) over :data:`MIN_SAMPLES` deals or more: with fewer the bot plays as
its fast policy does."""

@dataclass(slots=True)
class Candidate:
    """One action weighed, with the payments of its rollouts."""

    action: Action
    values: list[float] = field(default_factory=list)
    dropped: bool = False

    @property
    def mean(self) -> float:
        """Mean payment to the seat over the rollouts (0 with none)."""
        return sum(self.values) / len(self.values) if self.values else 0.0

    @property
    def half_width(self) -> float:
        """Half the 95% interval of the mean (infinite with fewer than two rollouts)."""
        n = len(self.values)
        if n < 2:
            return math.inf
        m = self.mean
        var = sum((v - m) ** 2 for v in self.values) / (n - 1)
        return Z * math.sqrt(var / n)


@dataclass(slots=True)
class Evaluation:
    """The candidates of one decision, best mean first, and what the search cost."""

    candidates: list[Candidate]
    samples: int
    rollouts: int
    seconds: float
    prior: Action
    """The fast policy's choice."""
    least: int = MIN_SAMPLES
    """Deals the fast policy's choice must have been weighed on before it is overruled."""
    looked_ahead: bool = False
    """Whether the values are look-aheads' (:mod:`majiang.bots.lookahead`): then the fast
    policy's choice stands unless the seat won on some deal after it or after the leader
    (a gap of deal-in risks alone is what the fast policy weighs already)."""

    @property
    def best(self) -> Action:
        """The action to take: the best mean, unless it has not clearly beaten the fast
        policy's choice (by :data:`TRUST_Z` paired standard errors over at least
        :data:`MIN_SAMPLES` deals)."""
        leader = self.candidates[0]
        if leader.action == self.prior:
            return leader.action
        prior = next((c for c in self.candidates if c.action == self.prior), None)
        if prior is None or not prior.values:
            return leader.action
        if self.looked_ahead and max(leader.values + prior.values) <= 0:
            return self.prior
        if len(prior.values) >= self.least and paired_z(leader, prior) >= TRUST_Z:
            return leader.action
        return self.prior


@dataclass(eq=False)
class SearchBot:
    """Monte Carlo search over sampled deals; see the module docstring.

    ``think``: seconds per decision (None: no time limit); ``samples``: deals at most;
    ``rules``: the rule set played (default, with default options: the first registered rule
    set the search plays whose tables show a wild tile when the hand has one or is in its
    bullets phase, the first whose tables show none otherwise: Huangyan or Guobiao)."""

    name: ClassVar[str] = "search"

    seed: int = 0
    think: float | None = THINK
    samples: int = MAX_SAMPLES
    rules: RuleSet | None = None
    min_samples: int = 1
    """Deals drawn whatever the time budget says."""
    _rules_by_name: dict[str, RuleSet] = field(default_factory=dict, init=False, repr=False)

    def __call__(self, obs: Observation) -> Action:
        actions = obs.legal_actions
        if len(actions) == 1:
            return actions[0]
        if obs.phase not in (Phase.TURN, Phase.CLAIM, Phase.ROB):
            return self.policy(obs)(obs)  # thrown bullets: the fast policy decides
        win = find_win(obs)
        if win is not None:
            return win  # a legal win settles the hand: no rollout of the others improves on it
        if not self.searches(obs):
            return self.policy(obs, _decision_key(obs, self.seed))(obs)
        return self.evaluate(obs).best

    def searches(self, obs: Observation) -> bool:
        """Whether the bot weighs ``obs`` (a decision in play with a choice and no legal win)
        by search: every decision if its rule set's plan searches every discard, else those
        :func:`worth_searching`; the fast policy decides the others."""
        return rollout_plan(self.rules_of(obs))[2] or worth_searching(obs)

    def rules_of(self, obs: Observation) -> RuleSet:
        """The base rule set of the observed hand."""
        if self.rules is not None:
            return self.rules
        wild = obs.wild is not None or obs.phase is Phase.BULLETS
        name = next((name for name, info in RULE_SETS.items()
                     if info.search is not None and info.shows.wild == wild), DEFAULT_RULES)
        found = self._rules_by_name.get(name)
        if found is None:
            found = self._rules_by_name[name] = make_rules(name)
        return found

    def policy(self, obs: Observation, seed: int = 0) -> Agent:
        """The fast policy of the searching seat under ``obs``'s rules."""
        return rollout_plan(self.rules_of(obs))[0](seed)

    def evaluate(
        self, obs: Observation, required: Sequence[Action] = (), every: bool = False
    ) -> Evaluation:
        """Weigh the candidate actions of ``obs`` (``required`` among them; ``every``: all
        legal actions, none dropped early) and rank them by mean payment."""
        start = time.perf_counter()
        base = self.rules_of(obs)
        rules = hand_rules(obs, base)
        own, other, _ = rollout_plan(base)
        readiness = readiness_of(base)
        key = _decision_key(obs, self.seed)
        prior = self.policy(obs, key)(obs)
        solo = looks_ahead(base)
        least = LOOK_MIN_SAMPLES if solo else MIN_SAMPLES
        actions = (list(obs.legal_actions) if every
                   else candidates(obs, prior, LOOK_CANDIDATES if solo else CANDIDATES))
        for a in required:
            if a not in actions:
                actions.append(a)
        pool = [Candidate(a) for a in actions]
        risks = {a: risk_of(obs, a) for a in actions} if solo else {}
        samples = rollouts = 0
        while samples < self.samples:
            if (
                self.think is not None
                and samples >= self.min_samples
                and time.perf_counter() - start > self.think
            ):
                break
            live = [c for c in pool if not c.dropped]
            if len(live) == 1 and samples >= 1:
                break
            rng = random.Random(key * 1_000_003 + samples)
            deal = sample_deal(obs, rules, rng, readiness)
            seeds = [rng.getrandbits(32) for _ in range(4)]
            for c in live:
                table = table_at(obs, base, deal)
                if solo:
                    c.values.append(look_ahead(table, obs.seat, c.action, own(seeds[obs.seat]),
                                               risks[c.action]))
                    rollouts += 1
                    continue
                agents = [(own if s == obs.seat else other)(seeds[s]) for s in range(4)]
                c.values.append(play_out(table, obs, c.action, agents))
                rollouts += 1
            samples += 1
            if samples >= least and not every:
                _drop_behind(live, samples)
            if samples >= 2 * least and _all_equal(live):
                break
        ranked = sorted(pool, key=lambda c: (c.dropped, -c.mean))
        return Evaluation(ranked, samples, rollouts, time.perf_counter() - start, prior, least,
                          solo)


def play_out(table: Table, obs: Observation, action: Action, agents: Sequence[Agent]) -> float:
    """The payment to ``obs``'s seat when it takes ``action`` on ``table`` (built at ``obs``'s
    decision) and ``agents``, one a seat, play the hand out."""
    table.apply(obs.seat, action)
    while not table.is_over:
        for s in table.to_act():
            table.apply(s, agents[s](table.observation(s)))
    assert table.result is not None
    return table.result.deltas[obs.seat] - obs.deltas[obs.seat]


def rollout_plan(rules: RuleSet) -> tuple[Callable[[int], Agent], Callable[[int], Agent], bool]:
    """The searching seat's policy and the others' in rollouts, and whether every discard is
    searched, as the rule set's description names them
    (:class:`~majiang.rules.info.SearchPlan`)."""
    plan = description_of(rules).search
    if plan is None:
        raise OptionError(f"the search bot does not play {rules.name}")
    return load(plan.own), load(plan.others), plan.every_discard


def readiness_of(rules: RuleSet) -> Readiness | None:
    """The model the sampler moves the other seats' hands toward under ``rules``, if the rule
    set's plan names one (:class:`~majiang.rules.info.SearchPlan`)."""
    plan = description_of(rules).search
    if plan is None or plan.readiness is None:
        return None
    found: Readiness = load(plan.readiness)
    return found


def looks_ahead(rules: RuleSet) -> bool:
    """Whether the search weighs candidates by the seat's own look-ahead
    (:mod:`majiang.bots.lookahead`) under ``rules`` rather than by whole-table rollouts."""
    plan = description_of(rules).search
    return plan is not None and plan.look_ahead


def candidates(obs: Observation, prior: Action, limit: int = CANDIDATES) -> list[Action]:
    """The actions worth weighing: the fast policy's ``prior`` first, a legal win, every claim
    and kong, and the discards that keep the hand closest to ready (``limit`` at most)."""
    chosen: list[Action] = [prior]
    discards: list[Discard] = []
    for a in obs.legal_actions:
        if a == prior:
            continue
        if type(a) is Win:
            if obs.win_reaches_minimum is not False:
                chosen.append(a)
        elif type(a) is Discard:
            discards.append(a)
        else:
            chosen.append(a)
    if discards:
        chosen.extend(_closest(obs, discards)[: max(limit - 1, 0)])
    return chosen


def worth_searching(obs: Observation) -> bool:
    """Whether ``obs`` is a decision that shapes the hand: a claim or a kong is offered, or a
    discard leaves the hand ready (which wait to keep, or whether to break it)."""
    for a in obs.legal_actions:
        if isinstance(a, Chow | Pung | ExposedKong | ConcealedKong | AddedKong):
            return True
    if obs.phase is not Phase.TURN:
        return False
    counts, jokers = split_hand(obs.hand, obs.wild)
    melds = len(obs.melds[obs.seat])
    if sum(counts) + jokers + 3 * melds != 14:
        return False
    options = WildDiscards(counts, jokers, melds, obs.wild).options
    return bool(options) and min(options.values()) <= 0


def _closest(obs: Observation, discards: list[Discard]) -> list[Discard]:
    """``discards`` ordered by the shanten (regular shape, wild tiles as jokers) they leave."""
    counts, jokers = split_hand(obs.hand, obs.wild)
    melds = len(obs.melds[obs.seat])
    if sum(counts) + jokers + 3 * melds != 14:
        return discards
    options = WildDiscards(counts, jokers, melds, obs.wild).options
    return sorted(discards, key=lambda d: (options.get(d.tile, 99), d.tile))


def paired_z(a: Candidate, b: Candidate) -> float:
    """How many standard errors ``a``'s mean beats ``b``'s by, over the deals both were
    played on (infinite for a constant positive gap, 0 with fewer than two deals)."""
    n = min(len(a.values), len(b.values))
    if n < 2:
        return 0.0
    diffs = [a.values[i] - b.values[i] for i in range(n)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if var == 0:
        return math.inf if mean > 0 else (0.0 if mean == 0 else -math.inf)
    return mean / math.sqrt(var / n)


def _drop_behind(live: list[Candidate], n: int) -> None:
    """Drop every candidate the leader beats by :data:`DROP_Z` paired standard errors."""
    leader = max(live, key=lambda c: c.mean)
    for c in live:
        if c is not leader and paired_z(leader, c) > DROP_Z:
            c.dropped = True


def _all_equal(live: list[Candidate]) -> bool:
    """Whether every candidate has had the same payment in every sample so far."""
    first = live[0].values
    return all(c.values == first for c in live[1:])


def _decision_key(obs: Observation, seed: int) -> int:
    """A number naming this decision for this seed (the same in every process)."""
    text = repr((seed, obs.seat, obs.phase.value, obs.hand, obs.melds, obs.discards,
                 obs.wall_remaining, obs.last_discard, obs.current))
    return zlib.crc32(text.encode())


__all__ = [
    "Candidate",
    "Evaluation",
    "SearchBot",
    "candidates",
    "looks_ahead",
    "paired_z",
    "play_out",
    "readiness_of",
    "rollout_plan",
    "worth_searching",
]
