"""The single-player look-ahead: passive others, the horizon, the deal-in risk subtracted."""

from __future__ import annotations

import random

import pytest

from majiang.bots.defence import GuardedFanBot, discard_risk
from majiang.bots.lookahead import PassiveBot, look_ahead, risk_of
from majiang.bots.sampler import sample_deal, table_at
from majiang.bots.view import hand_counts, unseen_counts
from majiang.engine.actions import DISCARDS, Pass, Win
from majiang.engine.state import Observation, Phase
from majiang.engine.table import Table
from majiang.notation import parse_tiles
from majiang.rules.registry import make_rules

GB = make_rules("gb")


def ready_position() -> Observation:
    """Seat 0 on turn with 123m 456m 789m 12p 55p and a drawn East: discarding East keeps it
    ready on 3p (a pure straight), discarding 5p breaks it."""
    table = Table(GB, 0)
    partial = table.observation(table.current)._replace(
        seat=0, current=0, dealer=0, seat_wind=0, phase=Phase.TURN,
        flowers=((), (), (), ()), visible=None, last_discard=None,
        hand=tuple(sorted(parse_tiles("123456789m1255pE"))), drawn=27,
        melds=((), (), (), ()), discards=((), (), (), ()), hand_sizes=(14, 13, 13, 13),
        wall_remaining=144 - 14 - 39, drawable=144 - 14 - 39,
    )
    deal = sample_deal(partial, GB, random.Random(0))
    return table_at(partial, GB, deal).observation(0)


def tables(obs: Observation, n: int) -> list[Table]:
    return [table_at(obs, GB, sample_deal(obs, GB, random.Random(k))) for k in range(n)]


def test_the_passive_bot_discards_its_draw_passes_and_never_wins() -> None:
    obs = ready_position()
    assert PassiveBot()(obs) == DISCARDS[27]
    claim = obs._replace(phase=Phase.CLAIM, legal_actions=(Win(), Pass()))
    assert PassiveBot()(claim) == Pass()
    won = obs._replace(legal_actions=(Win(), DISCARDS[27], DISCARDS[0]))
    assert PassiveBot()(won) == DISCARDS[27]


def test_the_risk_of_a_discard_is_the_defence_module_s() -> None:
    obs = ready_position()
    risks = discard_risk(obs, unseen_counts(obs, hand_counts(obs)))
    assert risk_of(obs, DISCARDS[27]) == risks[27]
    assert risk_of(obs, Pass()) == 0.0


def test_keeping_the_hand_ready_is_worth_more_than_breaking_it() -> None:
    obs = ready_position()
    ready = [look_ahead(t, 0, DISCARDS[27], GuardedFanBot(1), 0.0) for t in tables(obs, 30)]
    five = DISCARDS[parse_tiles("5p")[0]]
    broken = [look_ahead(t, 0, five, GuardedFanBot(1), 0.0) for t in tables(obs, 30)]
    assert sum(ready) > sum(broken)
    assert max(ready) > 0  # some deals give the seat its win


def test_the_risk_is_subtracted_and_the_horizon_cuts_the_hand() -> None:
    obs = ready_position()
    plain = [look_ahead(t, 0, DISCARDS[27], GuardedFanBot(1), 0.0) for t in tables(obs, 30)]
    risky = [look_ahead(t, 0, DISCARDS[27], GuardedFanBot(1), 5.0) for t in tables(obs, 30)]
    assert [p - 5.0 for p in plain] == pytest.approx(risky)
    # with no turn of its own the seat wins only on a passive seat's discard before its turn:
    # the same deals, the same first round
    cut = [look_ahead(t, 0, DISCARDS[27], GuardedFanBot(1), 0.0, horizon=0)
           for t in tables(obs, 30)]
    assert all(c == 0 or c == p for c, p in zip(cut, plain, strict=True))
    assert sum(c > 0 for c in cut) < sum(p > 0 for p in plain)
