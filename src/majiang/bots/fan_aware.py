"""The fan-aware bot: in Guobiao a ready hand below 8 fans is useless, so it plays for 8.

Each 13-tile state it could keep (after a discard, a claim or a kong) is valued by its targets
(:mod:`majiang.bots.targets`): each target adds ``chance(fans) * STEP ** distance``, the best
one fully and the others a little (open options are worth something). A ready state is valued
exactly instead: every winning tile is scored as a discard win and as a self-draw with
:func:`~majiang.rules.guobiao.scoring.score_hand`, and only the unseen copies of those that reach
8 fans count. Ties go to the discard that leaves more unseen useful tiles. It claims only when
the claim raises the value of its hand, so chows and pungs that kill every 8-fan path are
declined, and it always wins when the engine offers a win.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import actions
from ..engine.actions import DISCARDS, Action
from ..engine.table import Observation, Phase
from ..errors import MajiangError
from ..hand import Hand, Meld, MeldKind, WinContext
from ..rules.guobiao.options import DEFAULT_OPTIONS, GuobiaoOptions
from ..rules.guobiao.scoring import score_hand
from ..shanten import TILE_KEYS, hand_key, shanten_of_key
from .efficient import Discards, acceptance, guobiao_obvious, state_shanten
from .targets import Situation, winning_chance
from .view import hand_counts, own_melds, unseen_counts

STEP = 0.25
"""How much a target loses per tile it still needs."""
OTHERS = 0.1
"""Weight of the targets other than the best one."""
SELF_DRAWN_ONLY = 0.3
"""Weight of a winning tile that reaches 8 fans only when self-drawn."""
PER_WAIT = 0.3
"""A ready state with ``w`` weighted winning tiles is worth ``1 - (1 - PER_WAIT) ** w``."""
CLAIM_MARGIN = 1.05
"""A claim must raise the value of the hand by this factor."""

_WaitKey = tuple[int, tuple[Meld, ...], int, bool, bool, int, int]
_wait_scores: dict[_WaitKey, bool] = {}


def _meets(
    concealed: tuple[int, ...],
    melds: tuple[Meld, ...],
    tile: int,
    self_drawn: bool,
    fourth: bool,
    seat_wind: int,
    prevalent_wind: int,
    options: GuobiaoOptions,
) -> bool:
    """Whether winning on ``tile`` reaches 8 fans (cached)."""
    key = (hand_key(concealed), melds, tile, self_drawn, fourth, seat_wind, prevalent_wind)
    found = _wait_scores.get(key)
    if found is None:
        hand = Hand(melds, concealed, tile)
        context = WinContext(self_drawn=self_drawn, seat_wind=seat_wind,
                             prevalent_wind=prevalent_wind, fourth_tile=fourth)
        try:
            found = score_hand(hand, context, options).meets_minimum
        except MajiangError:
            found = False
        if len(_wait_scores) > 200_000:
            _wait_scores.clear()
        _wait_scores[key] = found
    return found


_wait_sets: dict[tuple[int, int], tuple[int, ...]] = {}


def _waits(concealed: tuple[int, ...], melds: int) -> tuple[int, ...]:
    """The winning tiles of a ready 13-tile state (cached)."""
    key = hand_key(concealed)
    found = _wait_sets.get((key, melds))
    if found is None:
        n = len(concealed) + 1
        found = tuple(
            t for t in range(34)
            if concealed.count(t) < 4 and shanten_of_key(key + TILE_KEYS[t], n, melds) == -1
        )
        if len(_wait_sets) > 100_000:
            _wait_sets.clear()
        _wait_sets[key, melds] = found
    return found


class FanBot:
    """Plays toward hands that reach 8 fans; see the module docstring."""

    name = "fan"

    def __init__(self, seed: int = 0, options: GuobiaoOptions | None = None) -> None:
        self.seed = seed
        self.options = options or DEFAULT_OPTIONS

    def __call__(self, obs: Observation) -> Action:
        obvious = guobiao_obvious(obs, self.name)
        if obvious is not None:
            return obvious
        counts = hand_counts(obs)
        unseen = unseen_counts(obs, counts)
        if obs.phase is Phase.TURN:
            return self._turn(obs, counts, unseen)
        return self._claim(obs, counts, unseen)

    # ------------------------------------------------------------------ valuing states

    def value(self, obs: Observation, situation: Situation, counts: list[int]) -> float:
        """The value of a 13-tile state (concealed ``counts`` plus the situation's sets)."""
        melds = len(situation.melds)
        general = state_shanten(counts, melds)
        best = 0.0
        total = 0.0
        if general == 0:
            best = total = self._ready_value(obs, situation, counts)
        for target in situation.targets(counts):
            if target.distance <= 0 and general == 0:
                continue  # valued exactly above
            v = winning_chance(target.fans) * STEP ** max(target.distance, 0)
            total += v
            if v > best:
                best = v
        return best + OTHERS * (total - best)

    def _ready_value(self, obs: Observation, situation: Situation, counts: list[int]) -> float:
        if not obs.may_win:
            return 0.0  # after a false win (错和) this hand cannot win any more
        melds = situation.melds
        concealed = tuple(t for t in range(34) for _ in range(counts[t]))
        unseen = situation.unseen
        weight = 0.0
        in_melds = {t for m in melds for t in m.tiles}
        args = (obs.seat_wind, obs.prevalent_wind, self.options)
        for t in _waits(concealed, len(melds)):
            left = unseen[t]
            if not left:
                continue
            fourth = left == 1 and not counts[t] and t not in in_melds
            if _meets(concealed, melds, t, False, fourth, *args):
                weight += left
            elif _meets(concealed, melds, t, True, fourth, *args):
                weight += left * SELF_DRAWN_ONLY
        return 1.0 - (1.0 - PER_WAIT) ** weight if weight else 0.0

    def discard_values(
        self, obs: Observation, situation: Situation, counts: list[int]
    ) -> list[tuple[float, int]]:
        """(value, tile) of each discard weighed from a 14-tile state.

        Discards that leave the hand two or more tiles further from ready than the best one
        are not weighed (two steps cost a target far more than any fans can repay)."""
        melds = len(situation.melds)
        shanten = Discards(counts, melds).options
        near = min(shanten.values()) + 1
        scored: list[tuple[float, int]] = []
        for t, s in shanten.items():
            if s <= near:
                counts[t] -= 1
                scored.append((self.value(obs, situation, counts), t))
                counts[t] += 1
        return scored

    def best_discard(
        self, obs: Observation, situation: Situation, counts: list[int]
    ) -> tuple[float, int]:
        """(value, tile) of the best discard from a 14-tile state (of
        :meth:`discard_values`; ties go to more unseen useful tiles)."""
        return self.pick(situation, counts, self.discard_values(obs, situation, counts))

    def pick(
        self, situation: Situation, counts: list[int], scored: list[tuple[float, int]]
    ) -> tuple[float, int]:
        """The best of ``scored`` (value, tile) discards; ties to more unseen useful tiles."""
        melds = len(situation.melds)
        top = max(v for v, _ in scored)
        ties = [t for v, t in scored if v >= top - 1e-9]
        if len(ties) > 1:
            ranked = []
            for t in ties:
                counts[t] -= 1
                ranked.append((acceptance(counts, melds, situation.unseen,
                                          state_shanten(counts, melds)), -t, t))
                counts[t] += 1
            return top, max(ranked)[2]
        return top, ties[0]

    # ------------------------------------------------------------------ decisions

    def _situation(self, obs: Observation, melds: Sequence[Meld], unseen: list[int],
                   counts: Sequence[int]) -> Situation:
        hand = [t for t in range(34) for _ in range(counts[t])]
        return Situation(melds, unseen, obs.seat_wind, obs.prevalent_wind, hand)

    def _turn(self, obs: Observation, counts: list[int], unseen: list[int]) -> Action:
        melds = own_melds(obs)
        situation = self._situation(obs, melds, unseen, counts)
        value, tile = self.best_discard(obs, situation, counts)
        for a in obs.legal_actions:
            if type(a) is actions.ConcealedKong:
                kong = (*melds, Meld(MeldKind.KONG, a.tile, 0))
                counts[a.tile] -= 4
                after = self.value(obs, self._situation(obs, kong, unseen, counts), counts)
                counts[a.tile] += 4
                if after >= value:
                    return a
            elif type(a) is actions.AddedKong:
                counts[a.tile] -= 1
                kept = self.value(obs, situation, counts)
                counts[a.tile] += 1
                if kept >= value:
                    return a  # the fourth tile is no use: kong it and draw a replacement
        return DISCARDS[tile]

    def _claim(self, obs: Observation, counts: list[int], unseen: list[int]) -> Action:
        tile = obs.last_discard
        pass_action = next((a for a in obs.legal_actions if type(a) is actions.Pass),
                           obs.legal_actions[-1])
        if tile is None:
            return pass_action
        melds = own_melds(obs)
        now = self.value(obs, self._situation(obs, melds, unseen, counts), counts)
        best, choice = now * CLAIM_MARGIN, pass_action
        for a in obs.legal_actions:
            kind = type(a)
            if kind is actions.Pung:
                used: tuple[int, ...] = (tile, tile)
                meld = Meld(MeldKind.PUNG, tile, 1)
            elif kind is actions.ExposedKong:
                used = (tile, tile, tile)
                meld = Meld(MeldKind.KONG, tile, 1)
            elif kind is actions.Chow:
                low = a.low  # type: ignore[union-attr]
                used = tuple(t for t in (low, low + 1, low + 2) if t != tile)
                meld = Meld(MeldKind.CHOW, low, tile - low + 1)
            else:
                continue
            for t in used:
                counts[t] -= 1
            situation = self._situation(obs, (*melds, meld), unseen, counts)
            if kind is actions.ExposedKong:
                after = self.value(obs, situation, counts)
            else:
                after, _ = self.best_discard(obs, situation, counts)
            for t in used:
                counts[t] += 1
            if after > best:
                best, choice = after, a
        return choice


__all__ = ["FanBot"]
