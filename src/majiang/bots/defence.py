"""Defence for Guobiao: what a discard is likely to cost, and a fan bot that weighs it.

In Guobiao the discarder of a win pays its fans + 8 and the two others 8 each, so a tile an
opponent wins on costs its discarder the win's fans more than anyone else's loss. Nothing here
sees another seat's tiles: the risk of a discard is read from the table as the safety hint
reads it (:func:`majiang.bots.danger.against`), with figures measured in hands of four ``fan``
bots:

- :data:`READY`: how often an opponent holds a hand that could declare a legal win on some
  discard, by its exposed sets and the length of its pond (three discards a step);
- :data:`WAITS_ON`: how often a ready opponent wins on a tile, by the safety reading of that
  tile against it (in its pond, an honour with so many copies unseen, a terminal, ...);
- :data:`COST`: the points a win on the discarder's tile takes from it beyond what the others pay.

:class:`GuardedFanBot` is the :class:`~majiang.bots.fan_aware.FanBot` with that risk subtracted
from each discard's value: ``value * GAIN - risk``, every discard weighed once the risk matters
(folding gives up the hand for tiles the others cannot win on).
"""

from __future__ import annotations

from ..engine.table import Observation
from .danger import against
from .fan_aware import FanBot
from .targets import Situation
from .view import hand_counts, unseen_counts

READY: tuple[tuple[float, ...], ...] = (
    (0.001, 0.019, 0.082, 0.193, 0.286, 0.383, 0.43),
    (0.004, 0.036, 0.120, 0.234, 0.353, 0.456, 0.57),
    (0.025, 0.085, 0.203, 0.299, 0.428, 0.508, 0.50),
    (0.10, 0.234, 0.516, 0.539, 0.624, 0.658, 0.63),
    (1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0),
)
"""Share of opponents ready to win, by exposed sets (0-4) and pond length // 3 (0-6, capped)."""

WAITS_ON: dict[str, float] = {
    "honour_gone": 0.002,
    "honour_single": 0.005,
    "honour_pair": 0.017,
    "honour_pung": 0.023,
    "genbutsu": 0.004,
    "terminal": 0.035,
    "suji": 0.064,
    "flush_elsewhere": 0.051,
    "flush_here": 0.079,
    "middle": 0.069,
}
"""Share of ready opponents that win on a tile, by the tile's safety reading against them."""

COST = 22.0
"""Points a deal-in costs its discarder beyond another seat's win (mean fans about 14, + 8)."""

GAIN = 40.0
"""Points a unit of the fan bot's hand value is worth."""

FOLD = 0.5
"""Once some weighed discard risks this many points, every discard is weighed."""


def opponent_ready(obs: Observation, seat: int) -> float:
    """The chance that ``seat`` could win on some discard now (see :data:`READY`)."""
    exposed = sum(1 for m in obs.melds[seat] if not m.is_concealed_kong)
    return READY[min(exposed, 4)][min(len(obs.discards[seat]) // 3, 6)]


def discard_risk(obs: Observation, unseen: list[int]) -> dict[int, float]:
    """Expected points lost by discarding each distinct tile of the hand now."""
    ready = [(s, opponent_ready(obs, s)) for s in range(4) if s != obs.seat]
    risks = {}
    for tile in set(obs.hand):
        risk = 0.0
        for s, p in ready:
            if p:
                risk += p * WAITS_ON[against(obs, s, tile, unseen[tile])[1]]
        risks[tile] = risk * COST
    return risks


class GuardedFanBot(FanBot):
    """The fan bot with each discard's deal-in risk subtracted; see the module docstring."""

    name = "guarded"

    def __init__(self, seed: int = 0, gain: float = GAIN) -> None:
        super().__init__(seed)
        self.gain = gain
        self._risk_of: tuple[Observation, dict[int, float]] | None = None

    def risks(self, obs: Observation) -> dict[int, float]:
        """:func:`discard_risk` of ``obs`` (kept for the decision)."""
        if self._risk_of is None or self._risk_of[0] is not obs:
            self._risk_of = (obs, discard_risk(obs, unseen_counts(obs, hand_counts(obs))))
        return self._risk_of[1]

    def best_discard(
        self, obs: Observation, situation: Situation, counts: list[int]
    ) -> tuple[float, int]:
        scored = self.discard_values(obs, situation, counts)
        risks = self.risks(obs)
        if max(risks.get(t, 0.0) for _, t in scored) >= FOLD:
            weighed = {t for _, t in scored}
            for t in range(34):
                if counts[t] and t not in weighed:
                    counts[t] -= 1
                    scored.append((self.value(obs, situation, counts), t))
                    counts[t] += 1
        adjusted = [(v * self.gain - risks.get(t, 0.0), t) for v, t in scored]
        _, tile = self.pick(situation, counts, adjusted)
        return next(v for v, t in scored if t == tile), tile


__all__ = ["COST", "GAIN", "READY", "WAITS_ON", "GuardedFanBot", "discard_risk",
           "opponent_ready"]
