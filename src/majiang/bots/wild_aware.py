"""The wild-aware Huangyan bot: shanten with 得 jokers, keeps its 得, careful in the raw phase.

* **Wins** whenever a (legal) win is offered.
* **Discards** the tile that leaves the lowest wild shanten (:mod:`.wild_shanten`), then the most
  unseen useful tiles (by physical face: not in its hand, any pond, any shown meld, nor the
  indicator). A 得 is discarded only if every other discard is worse by at least one shanten step
  (in practice never: discarding a natural tile never costs more than discarding a joker).
* **Raw-tile phase** (生牌阶段, ``late`` of ``obs.extension``): a raw (生) discard that someone
  wins on makes the discarder the gunner, who pays for everyone (rules/huangyan.md §2.8-2.9).
  Unless a discard
  leaves the hand ready, known (熟) faces — lying in some pond — go first: candidates rank by
  ``(raw risk, shanten, -useful)``, where the risk is 1 for a raw natural tile whose discard
  leaves the hand not ready. A discarded 得 cannot be won on, so it carries no risk; a seat whose
  hand is all raw and cannot be made ready is excused by the rules, so it carries none either.
  An added kong in the raw phase is declared only with a known face (the added tile may be
  robbed).
* **Claims** a chow, pung or kong only when it lowers the wild shanten, or keeps it and adds
  useful tiles; a pung or kong of its seat wind or of a live dragon (they double) is taken as
  soon as it does not raise the shanten. Otherwise it passes.
* **Thrown bullets** (抛弹): as dealer it throws the smallest amount offered (0); as another seat
  it declines. Accepting is an even side bet with the dealer, who starts a tile ahead, so
  declining never costs anything.

Observations without a wild face or an extension (``wild`` and ``extension`` None) are
played as a plain four-sets-and-a-pair game without jokers.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import actions
from ..engine.actions import DISCARDS, Action
from ..engine.state import extension_state
from ..engine.table import Observation, Phase
from ..tiles import DRAGONS, EAST
from .seeded import SeededBot
from .view import find_win, hand_counts, own_melds, unseen_counts
from .wild_shanten import WildDiscards, identity_of, split_hand, useful_count, wild_shanten

_ISOLATION = tuple(
    0 if t >= 27 else 1 if t % 9 in (0, 8) else 2 if t % 9 in (1, 7) else 3 for t in range(34)
)
"""Tie-break between equal discards: honours first, then terminals, then 2/8, then the rest."""

def bullet_choice(legal: Sequence[Action]) -> Action | None:
    """The answer to a thrown-bullets offer (抛弹), or None when none is on offer: the smallest
    ``ThrowBullets`` as dealer; ``Pass`` (decline) to an ``AcceptBullets`` offer."""
    throws = [a for a in legal if isinstance(a, actions.ThrowBullets)]
    if throws:
        return min(throws, key=lambda a: a.count)
    accept = next((a for a in legal if isinstance(a, actions.AcceptBullets)), None)
    if accept is not None:
        return next((a for a in legal if type(a) is actions.Pass), accept)
    return None


def physical_unseen(obs: Observation, wild: int | None) -> list[int]:
    """Copies of each physical face this seat cannot see: 4 less its hand, the ponds, every shown
    meld (identity ``F`` in a meld is a white dragon) and the indicator."""
    if wild is not None and obs.indicator is None:
        obs = obs._replace(indicator=wild)  # the indicator shows the wild face
    return unseen_counts(obs, hand_counts(obs), wild)


def known_faces(obs: Observation) -> set[int]:
    """Faces lying in some pond (熟); every other face is raw (生)."""
    return {t for pond in obs.discards for t in pond}


class WildBot(SeededBot):
    """Wild-shanten efficiency with 得 kept and raw discards avoided; see the module docstring."""

    name = "wild"

    def __call__(self, obs: Observation) -> Action:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        bullets = bullet_choice(legal)
        if bullets is not None:
            return bullets
        win = find_win(obs)
        if win is not None:
            return win
        wild = obs.wild
        counts, jokers = split_hand(obs.hand, wild)
        melds = len(own_melds(obs))
        if obs.phase is Phase.TURN:
            return self._turn(obs, wild, counts, jokers, melds)
        return self._claim(obs, wild, counts, jokers, melds)

    # ------------------------------------------------------------------ own turn

    def _turn(
        self, obs: Observation, wild: int | None, counts: list[int], jokers: int, melds: int
    ) -> Action:
        legal = obs.legal_actions
        discardable = {a.tile for a in legal if type(a) is actions.Discard}
        if not discardable or sum(counts) + jokers + 3 * melds != 14:
            return next((a for a in legal if type(a) is actions.Discard), legal[0])
        table = WildDiscards(counts, jokers, melds, wild)
        options = {f: s for f, s in table.options.items() if f in discardable}
        if not options:
            return next(a for a in legal if type(a) is actions.Discard)
        if wild in options and len(options) > 1:
            natural = min(s for f, s in options.items() if f != wild)
            if natural < options[wild] + 1:
                del options[wild]  # keep the 得 unless everything else is a step worse
        best = min(options.values())
        raw_phase = extension_state(obs)[0]
        known = known_faces(obs) if raw_phase else set()
        if raw_phase and best > 0 and all(t not in known for t in obs.hand):
            raw_phase = False  # all raw and cannot be ready: excused from the gunner rule

        def risk(face: int) -> int:
            return int(raw_phase and face != wild and face not in known and options[face] > 0)

        for a in legal:  # kongs first: a free replacement draw and hu points
            if type(a) is actions.ConcealedKong:
                x = identity_of(a.tile, wild)
                if a.tile == wild or counts[x] < 4:
                    continue
                counts[x] -= 4
                left = wild_shanten(counts, jokers, melds + 1)
                counts[x] += 4
                if left <= best:
                    return a
            elif (
                type(a) is actions.AddedKong
                and options.get(a.tile) == best
                and not (raw_phase and a.tile not in known)
            ):
                return a  # the fourth tile is no use
        ranked = sorted(options, key=lambda f: (risk(f), options[f]))
        top = (risk(ranked[0]), options[ranked[0]])
        ties = [f for f in ranked if (risk(f), options[f]) == top]
        if len(ties) == 1:
            return DISCARDS[ties[0]]
        unseen = physical_unseen(obs, wild)
        seat_wind = EAST + obs.seat_wind
        return DISCARDS[
            max(
                ties,
                key=lambda f: (
                    table.acceptance(f, unseen),
                    f != wild,
                    -_keep_value(f, wild, seat_wind),
                    -_ISOLATION[f],
                    -f,
                ),
            )
        ]

    # ------------------------------------------------------------------ claims

    def _claim(
        self, obs: Observation, wild: int | None, counts: list[int], jokers: int, melds: int
    ) -> Action:
        legal = obs.legal_actions
        pass_action = next((a for a in legal if type(a) is actions.Pass), legal[-1])
        tile = obs.last_discard
        if tile is None or tile == wild or sum(counts) + jokers + 3 * melds != 13:
            return pass_action
        x = identity_of(tile, wild)
        now = wild_shanten(counts, jokers, melds)
        seat_wind = EAST + obs.seat_wind
        valuable = x == seat_wind or (x in DRAGONS and x != wild)
        unseen: list[int] | None = None
        now_acc = -1
        best: tuple[int, int, int] = (now, 0, 0)
        choice: Action = pass_action
        for a in legal:
            kind = type(a)
            if kind is actions.ExposedKong:
                if counts[x] < 3:
                    continue
                counts[x] -= 3
                left = wild_shanten(counts, jokers, melds + 1)
                counts[x] += 3
                key = (left, -2 if valuable else -1, 0)
                if left <= now and key < best:
                    best, choice = key, a  # a kong that does not hurt: a free draw and hu
                continue
            if kind is actions.Pung:
                used: tuple[int, ...] = (x, x)
            elif kind is actions.Chow:
                low = a.low  # type: ignore[union-attr]
                run = [low, low + 1, low + 2]
                if x not in run:
                    continue
                run.remove(x)
                used = tuple(run)
            else:
                continue
            for t in used:
                counts[t] -= 1
            if min(counts) < 0:
                for t in used:
                    counts[t] += 1
                continue
            after = WildDiscards(counts, jokers, melds + 1, wild)
            for t in used:
                counts[t] += 1
            left = after.natural_best if after.natural_best < 99 else after.best
            if left > now:
                continue
            if unseen is None:
                unseen = physical_unseen(obs, wild)
            acc = max(
                (after.acceptance(f, unseen) for f, s in after.options.items()
                 if s == left and f != wild),
                default=0,
            )
            bonus = -1 if kind is actions.Pung and valuable else 0
            if left == now and not bonus:
                if now_acc < 0:
                    now_acc = useful_count(counts, jokers, melds, wild, unseen)
                if acc <= now_acc:
                    continue
            key = (left, bonus, -acc)
            if key < best:
                best, choice = key, a
        return choice


def _keep_value(face: int, wild: int | None, seat_wind: int) -> int:
    """1 for a face worth keeping at equal shanten and acceptance (seat wind, live dragon)."""
    x = identity_of(face, wild)
    return int(x == seat_wind or (x in DRAGONS and x != wild))


__all__ = ["WildBot", "bullet_choice", "known_faces", "physical_unseen"]
