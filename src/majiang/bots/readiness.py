"""How close the other seats' hands are to ready, read from what the table shows.

A :data:`~majiang.bots.sampler.Readiness` model for the search's sampler: uniformly drawn hands
are further from ready than the hands of players who have been building them, so rollouts from
them see too little danger in a discard and too much time for a slow hand. The shares were
measured in 2,000 Guobiao hands of four ``fan`` bots, some 395,000 observations of a seat
(``python tools/readiness_table.py --hands 2000 --seed 1``). A rule set's search plan may name
:func:`fan_bots` (``SearchPlan(readiness=...)``); Guobiao's does not: the search won fewer hands
with it and scored 3.8 points a hand less against three ``fan`` bots (docs/bots.md).
"""

from __future__ import annotations

from ..engine.state import Observation

Shares = tuple[tuple[tuple[float, float], ...], ...]
"""Shares by exposed sets and pond length."""

FAN_BOTS: Shares = (
    ((0.001, 0.038), (0.018, 0.166), (0.081, 0.309), (0.179, 0.351), (0.264, 0.352),
     (0.359, 0.306), (0.487, 0.260)),
    ((0.009, 0.184), (0.037, 0.392), (0.120, 0.530), (0.233, 0.515), (0.329, 0.454),
     (0.425, 0.368), (0.493, 0.264)),
    ((0.035, 0.496), (0.090, 0.647), (0.205, 0.646), (0.315, 0.566), (0.435, 0.454),
     (0.490, 0.362), (0.531, 0.277)),
    ((0.327, 0.506), (0.327, 0.506), (0.379, 0.543), (0.480, 0.442), (0.567, 0.336),
     (0.655, 0.283), (0.594, 0.301)),
    ((1.000, 0.000), (1.000, 0.000), (1.000, 0.000), (1.000, 0.000), (1.000, 0.000),
     (1.000, 0.000), (1.000, 0.000)),
)
"""(share able to declare a legal win on a discard, share one tile from ready) of a seat's
hands, by its exposed sets (0-4) and its pond length // 3 (0-6, capped)."""


def fan_bots(obs: Observation, seat: int) -> tuple[float, float]:
    """The :data:`FAN_BOTS` shares for ``seat`` as ``obs`` shows it."""
    exposed = sum(1 for m in obs.melds[seat] if not m.is_concealed_kong)
    return FAN_BOTS[min(exposed, 4)][min(len(obs.discards[seat]) // 3, 6)]


__all__ = ["FAN_BOTS", "fan_bots"]
