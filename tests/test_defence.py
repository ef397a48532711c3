"""The guarded fan bot: deal-in risk read from the table, folding against threats, pushing when
ready."""

from __future__ import annotations

import random

from majiang.bots.defence import GuardedFanBot, discard_risk, opponent_ready
from majiang.bots.fan_aware import FanBot
from majiang.bots.sampler import sample_deal, table_at
from majiang.bots.view import hand_counts, unseen_counts
from majiang.engine.actions import DISCARDS
from majiang.engine.state import Observation, Phase
from majiang.engine.table import Table
from majiang.hand import Meld, MeldKind
from majiang.notation import parse_tiles
from majiang.rules.registry import make_rules

GB = make_rules("gb")
FIVE_M = 4
POND = (8, 3, 13, 22, 21, 4, 12, 15, 23, 24, 5, 14)
"""Twelve discards with 5m among them (and no 1m, 7m, 2p, 9p)."""


def position(hand: str, threat: bool = True) -> Observation:
    """Seat 0 to discard from ``hand`` (14 tiles); with ``threat`` each other seat shows three
    pungs and a pond of twelve tiles holding 5m, else no melds and a short pond."""
    tiles = tuple(sorted(parse_tiles(hand)))
    if threat:
        pungs = ((27, 28, 29), (30, 31, 32), (33, 9, 18))
        melds = ((), *(tuple(Meld(MeldKind.PUNG, t, 1) for t in ts) for ts in pungs))
        ponds = ((), POND, POND, (8, 10, *POND[2:]))
        sizes = (14, 4, 4, 4)
    else:
        melds = ((), (), (), ())
        ponds = ((), (8, 3), (13, 22), (21, 12))
        sizes = (14, 13, 13, 13)
    seen = 14 + sum(sizes[1:]) + sum(len(p) for p in ponds) + sum(
        3 for ms in melds for _ in ms) + 8
    table = Table(GB, 0)
    partial = table.observation(table.current)._replace(
        seat=0, current=0, dealer=0, seat_wind=0, phase=Phase.TURN, visible=None,
        last_discard=None, hand=tiles, drawn=tiles[-1], melds=melds, discards=ponds,
        hand_sizes=sizes, wall_remaining=144 - seen, drawable=144 - seen,
        flowers=((34, 35, 36, 37), (38, 39, 40, 41), (), ()),
    )
    deal = sample_deal(partial, GB, random.Random(0))
    return table_at(partial, GB, deal).observation(0)


def risks(obs: Observation) -> dict[int, float]:
    return discard_risk(obs, unseen_counts(obs, hand_counts(obs)))


def test_a_tile_in_every_pond_is_the_safe_one() -> None:
    obs = position("1356789m2479p258s")
    risk = risks(obs)
    assert risk[FIVE_M] < 0.5
    assert min(risk[t] for t in risk if t != FIVE_M and t not in obs.discards[1]) > 1.5
    # the same tiles against seats that show nothing and have discarded little: small risks
    quiet = risks(position("1356789m2479p258s", threat=False))
    assert max(quiet.values()) < 0.2 < max(risk.values())
    quiet_obs = position("1356789m2479p258s", threat=False)
    assert opponent_ready(obs, 1) > 0.5 > 0.1 > opponent_ready(quiet_obs, 1)


def test_a_far_hand_folds_where_the_fan_bot_pushes() -> None:
    # four tiles from ready against three seats that show three pungs each, late: the fan bot
    # throws a tile nobody has let go; the guarded bot throws the 5m every pond holds
    obs = position("1356789m2479p258s")
    fan = FanBot(0)(obs)
    assert risks(obs)[fan.tile] > 1.5  # type: ignore[union-attr]
    guarded = GuardedFanBot(0)(obs)
    assert guarded == DISCARDS[FIVE_M] or risks(obs)[guarded.tile] < 0.5  # type: ignore[union-attr]


def test_a_ready_hand_keeps_pushing() -> None:
    # 123m 456m 789m 12p 88p + East: ready on 3p for a pure straight once East goes, whatever
    # the others show
    obs = position("123456789m1288pE")
    assert GuardedFanBot(0)(obs) == FanBot(0)(obs) == DISCARDS[27]


def test_without_threat_it_plays_as_the_fan_bot() -> None:
    obs = position("1356789m2479p258s", threat=False)
    assert GuardedFanBot(0)(obs) == FanBot(0)(obs)
