"""Single-player look-ahead: the searching seat's own hand played on, the others passive.

A rollout of the search bot (:mod:`majiang.bots.search`) plays every seat, so that two
candidates' hands diverge at once and a short budget cannot tell them apart. The look-ahead
keeps only what the candidate changes: the seat plays on with its fast policy from a sampled
deal, drawing its own tiles from the sampled wall, while the others are passive: each discards
the tile it drew, never claims and never declares a win (:class:`PassiveBot`). The others'
discards still pass the seat, which may claim and win on them as the rules allow.

The value of a candidate on one deal is the seat's payment when it wins within
:data:`HORIZON` of its own draws (nothing otherwise), less the deal-in risk the defence module
reads from the table (:func:`~majiang.bots.defence.discard_risk`) for every tile the seat
discards on the way, the candidate's own included.
"""

from __future__ import annotations

from ..engine.actions import Action, Discard, Pass, Win
from ..engine.match import Agent
from ..engine.state import Observation, Phase
from ..engine.table import Table
from .defence import discard_risk
from .seeded import SeededBot
from .view import hand_counts, unseen_counts

HORIZON = 6
"""The seat's own turns a look-ahead plays before it stops (a hand rarely lasts longer)."""


class PassiveBot(SeededBot):
    """Discards the tile it drew (else its last), passes every claim, never wins."""

    name = "passive"

    def __call__(self, obs: Observation) -> Action:
        actions = obs.legal_actions
        if obs.phase is not Phase.TURN:
            return next((a for a in actions if type(a) is Pass), actions[0])
        tile = obs.drawn if obs.drawn is not None else obs.hand[-1]
        discards = [a for a in actions if type(a) is Discard]
        if not discards:
            return next(a for a in actions if type(a) is not Win)
        return next((a for a in discards if a.tile == tile), discards[-1])


def risk_of(obs: Observation, action: Action) -> float:
    """The points ``action`` is expected to lose to a deal-in (a discard's risk, else 0)."""
    if type(action) is not Discard:
        return 0.0
    risks = discard_risk(obs, unseen_counts(obs, hand_counts(obs)))
    return risks.get(action.tile, 0.0)


def look_ahead(table: Table, seat: int, action: Action, own: Agent, risk: float,
               horizon: int = HORIZON) -> float:
    """The seat's value of ``action`` on ``table`` (see the module docstring): its payment if
    it wins within ``horizon`` of its turns, less the deal-in risk of every discard it makes
    (``risk``: the risk of ``action`` itself, :func:`risk_of` at the decision)."""
    value = -risk
    start = table.observation(seat).deltas[seat]
    table.apply(seat, action)
    passive = PassiveBot()
    turns = 0
    while not table.is_over:
        for s in table.to_act():
            obs = table.observation(s)
            if s != seat:
                table.apply(s, passive(obs))
                continue
            if obs.phase is Phase.TURN:
                turns += 1
                if turns > horizon:
                    return value
            chosen = own(obs)
            value -= risk_of(obs, chosen)
            table.apply(s, chosen)
    assert table.result is not None
    return value + table.result.deltas[seat] - start


__all__ = ["HORIZON", "PassiveBot", "look_ahead", "risk_of"]
