"""Hidden tiles sampled from one seat's observation, and a table built at that position.

A :class:`Deal` fills in what the seat cannot see: the other seats' concealed tiles, the faces
of their concealed kongs, and the order of the wall. :func:`sample_deal` draws one uniformly
among the deals consistent with what the seat has seen: only unseen copies are placed (the
counts of :func:`~majiang.bots.view.unseen_counts`), every hand gets its size, a concealed kong
gets a face of which all four copies are unseen, no flower is held, and a seat is never given a
hand that could have declared a legal win on a tile it has just let pass (a player who may
declare a win takes it; a deal that says otherwise is drawn again, a few times at most).

:func:`table_at` builds a :class:`~majiang.engine.Table` at the observation's decision from a
deal: the same melds, flowers, ponds, scores, wall count and phase, so that the seat's legal
actions are the observation's and any play from there follows the real rules and settlement.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from ..engine.actions import Action
from ..engine.state import HIDDEN, Observation, Phase, extension_state
from ..engine.table import Table
from ..errors import MajiangError
from ..hand import CONCEALED_KONG, Hand, Meld, MeldKind, WinContext
from ..rules.base import RuleSet
from ..shanten import wild_regular_shanten
from .view import hand_counts, unseen_counts
from .wild_shanten import split_hand

REDRAWS = 12
"""Draws of a deal before one that breaks the passed-win condition is kept anyway."""
RESHAPE_STEPS = 600
"""Swaps tried at most to bring one hand to the shanten it was given."""

Readiness = Callable[[Observation, int], tuple[float, float]]
"""A model of another seat's hidden hand, read from the observation: (the chance that it could
declare a legal win on a discard now, the chance that it is one tile from ready)."""


class SamplerError(MajiangError):
    """An observation whose hidden tiles cannot be filled in (it does not add up)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """One filling-in of the hidden tiles of an observation."""

    hands: tuple[tuple[int, ...], ...]
    """Every seat's concealed tiles (the observer's own as observed)."""
    kongs: tuple[tuple[int, ...], ...]
    """Each seat's concealed kongs' faces, in the order of its melds (the observer's as shown)."""
    wall: tuple[int, ...]
    """The tiles left in the wall, in draw order (front first)."""


def hidden_pool(obs: Observation, rules: RuleSet) -> tuple[list[int], list[int]]:
    """(counts of the 34 faces the seat cannot see, the flowers it has not seen)."""
    pool = unseen_counts(obs, hand_counts(obs), obs.wild)
    shown = [t for seat_flowers in obs.flowers for t in seat_flowers]
    flowers = [t for t in rules.wall_tiles() if rules.is_flower(t)]
    for t in shown:
        if t in flowers:
            flowers.remove(t)
    return pool, flowers


def passed_tiles(obs: Observation, seat: int) -> list[int]:
    """Tiles discarded by the others since ``seat`` last discarded, which it let pass: the
    last discard of each seat that played after it in turn order, up to the seat on turn (the
    tile on offer now is still being decided). Claims reorder play; this reads the ponds as if
    none had."""
    tiles = []
    other = (seat + 1) % 4
    while other != obs.current and other != seat:
        pond = obs.discards[other]
        if pond:
            tiles.append(pond[-1])
        other = (other + 1) % 4
    return tiles


def sample_deal(
    obs: Observation, rules: RuleSet, rng: random.Random, readiness: Readiness | None = None
) -> Deal:
    """A deal drawn uniformly among those consistent with ``obs`` (see the module docstring),
    then moved toward ``readiness`` (:func:`reshape`) if one is given.

    ``rules`` are the hand's rules (bound to the wild face where there is one)."""
    pool, flowers = hidden_pool(obs, rules)
    needed = sum(obs.hand_sizes[s] for s in range(4) if s != obs.seat) + obs.wall_remaining
    hidden_kongs = [
        sum(1 for m in obs.melds[s] if m.tile == HIDDEN) if s != obs.seat else 0 for s in range(4)
    ]
    needed += 4 * sum(hidden_kongs)
    if sum(pool) + len(flowers) != needed:
        raise SamplerError(
            f"the unseen tiles ({sum(pool) + len(flowers)}) do not fill the hidden places "
            f"({needed})"
        )
    deal = _draw(obs, rules, rng, pool, flowers, hidden_kongs)
    for _ in range(REDRAWS):
        if not _passed_a_win(obs, rules, deal):
            break
        deal = _draw(obs, rules, rng, pool, flowers, hidden_kongs)
    if readiness is not None:
        deal = reshape(obs, rules, deal, readiness, rng)
    return deal


def reshape(
    obs: Observation, rules: RuleSet, deal: Deal, readiness: Readiness, rng: random.Random
) -> Deal:
    """``deal`` with each other seat's hand brought to a distance from ready drawn from
    ``readiness``: ready to declare a legal win (on no tile it let pass), one tile from ready,
    or left as drawn. A hand moves by swapping its tiles with the wall's, one at a time, keeping
    each swap that brings it no further from its target (at most :data:`RESHAPE_STEPS`), so
    every count and everything the seat has seen still holds."""
    hands = [list(h) for h in deal.hands]
    wall = list(deal.wall)
    spots = [j for j, t in enumerate(wall) if not rules.is_flower(t)]
    if not spots:
        return deal
    changed = False
    for s in range(4):
        if s == obs.seat or obs.hand_sizes[s] % 3 != 1:
            continue
        ready, near = readiness(obs, s)
        u = rng.random()
        if u >= ready + near:
            continue
        _move_toward(obs, rules, deal, s, hands[s], wall, spots, 0 if u < ready else 1, rng)
        changed = True
    if not changed:
        return deal
    return Deal(tuple(tuple(sorted(h)) for h in hands), deal.kongs, tuple(wall))


def _move_toward(
    obs: Observation,
    rules: RuleSet,
    deal: Deal,
    seat: int,
    hand: list[int],
    wall: list[int],
    spots: list[int],
    target: int,
    rng: random.Random,
) -> None:
    """Swap tiles of ``hand`` with the wall's ``spots`` until it is ``target`` tiles from
    ready (0: able to declare a legal win on a discard it has not let pass)."""
    melds = _melds_of(obs, deal, seat, rules)
    passed = set(passed_tiles(obs, seat))

    def distance() -> float:
        counts, jokers = split_hand(hand, obs.wild)
        shanten = wild_regular_shanten(counts, jokers, len(melds))
        if shanten == 0 and target == 0:
            wins = legal_waits(obs, rules, seat, hand, melds)
            return 0.0 if wins and not wins & passed else 0.5
        return float(abs(shanten - target))

    now = distance()
    for _ in range(RESHAPE_STEPS):
        if now == 0:
            return
        i = rng.randrange(len(hand))
        j = spots[rng.randrange(len(spots))]
        if hand[i] == wall[j]:
            continue
        hand[i], wall[j] = wall[j], hand[i]
        after = distance()
        if after <= now:
            now = after
        else:
            hand[i], wall[j] = wall[j], hand[i]


def legal_waits(
    obs: Observation,
    rules: RuleSet,
    seat: int,
    hand: Sequence[int],
    melds: Sequence[Meld],
    among: Collection[int] | None = None,
) -> set[int]:
    """The tiles (of ``among``, if given) on which ``seat``, holding ``hand`` (13 tiles less
    its melds') and ``melds``, could declare a legal win on another seat's discard."""
    counts = [0] * 34
    for t in hand:
        counts[t] += 1
    wins = set()
    context = WinContext(self_drawn=False, seat_wind=(seat - obs.dealer) % 4,
                         prevalent_wind=obs.prevalent_wind)
    for tile in rules.waiting_tiles(counts, len(melds)):
        if among is not None and tile not in among:
            continue
        try:
            check = rules.check_win(
                Hand(tuple(melds), tuple(hand), tile, tuple(obs.flowers[seat])), context)
        except MajiangError:
            continue
        if check is not None and check.legal and rules.may_declare(check):
            wins.add(tile)
    return wins


def _draw(
    obs: Observation,
    rules: RuleSet,
    rng: random.Random,
    pool: list[int],
    flowers: list[int],
    hidden_kongs: list[int],
) -> Deal:
    left = list(pool)
    kongs: list[tuple[int, ...]] = []
    for s in range(4):
        if s == obs.seat:
            kongs.append(tuple(rules.physical(m.tile) for m in obs.melds[s]
                               if m.is_concealed_kong))
            continue
        faces = []
        for _ in range(hidden_kongs[s]):
            fours = [t for t in range(34) if left[t] == 4 and rules.natural(t)]
            if not fours:
                raise SamplerError(f"seat {s} shows a concealed kong no unseen face can fill")
            face = rng.choice(fours)
            left[face] = 0
            faces.append(face)
        kongs.append(tuple(faces))
    tiles = [t for t in range(34) for _ in range(left[t])]
    rng.shuffle(tiles)
    hands: list[tuple[int, ...]] = []
    at = 0
    for s in range(4):
        if s == obs.seat:
            hands.append(tuple(obs.hand))
            continue
        size = obs.hand_sizes[s]
        hands.append(tuple(sorted(tiles[at:at + size])))
        at += size
    wall = tiles[at:] + flowers
    rng.shuffle(wall)
    return Deal(tuple(hands), tuple(kongs), tuple(wall))


def _passed_a_win(obs: Observation, rules: RuleSet, deal: Deal) -> bool:
    """Whether some other seat's hand in ``deal`` could have declared a legal win on a tile
    it let pass."""
    for s in range(4):
        if s == obs.seat or obs.hand_sizes[s] % 3 != 1:
            continue
        passed = passed_tiles(obs, s)
        if not passed:
            continue
        if legal_waits(obs, rules, s, deal.hands[s], _melds_of(obs, deal, s, rules), passed):
            return True
    return False


def _melds_of(obs: Observation, deal: Deal, seat: int, rules: RuleSet) -> list[Meld]:
    """``seat``'s melds with its concealed kongs' faces filled in from ``deal``."""
    faces = iter(deal.kongs[seat])
    melds = []
    for m in obs.melds[seat]:
        if m.tile == HIDDEN or (seat == obs.seat and m.is_concealed_kong):
            face = next(faces)
            melds.append(Meld(MeldKind.KONG, rules.identity(face), CONCEALED_KONG))
        else:
            melds.append(m)
    return melds


def hand_rules(obs: Observation, base: RuleSet) -> RuleSet:
    """The rules of the observed hand: ``base`` bound to its indicator, if it turns one up."""
    if base.indicator_tiles and obs.indicator is not None:
        return base.begin_hand([obs.indicator])
    return base


def table_at(obs: Observation, base: RuleSet, deal: Deal) -> Table:
    """A table at ``obs``'s decision with the hidden tiles of ``deal`` (see the module
    docstring). Claim windows open only to seats that may claim, as in simulations."""
    if obs.phase not in (Phase.TURN, Phase.CLAIM, Phase.ROB):
        raise SamplerError(f"no table can be built in the {obs.phase.value} phase")
    rules = hand_rules(obs, base)
    tile = obs.last_discard
    source = "wall"
    if obs.phase is Phase.TURN:
        tile = obs.drawn if obs.drawn is not None else obs.hand[-1]
        if obs.drawn is None:
            source = "claim"
        elif not any(obs.discards) and not any(obs.melds):
            source = "initial"
    elif tile is None:
        raise SamplerError("a claim window without a tile on offer")
    late, dealer_count, thrown = extension_state(obs)
    return Table.at_position(
        base,
        phase=obs.phase,
        current=obs.seat if obs.phase is Phase.TURN else obs.current,
        tile=tile,
        hands=deal.hands,
        melds=[_melds_of(obs, deal, s, rules) for s in range(4)],
        flowers=obs.flowers,
        ponds=obs.discards,
        wall=deal.wall,
        source=source,
        dealer=obs.dealer,
        prevalent_wind=obs.prevalent_wind,
        indicators=[obs.indicator] if obs.indicator is not None else [],
        deltas=obs.deltas,
        dealer_count=dealer_count,
        thrown=thrown,
        late=late,
        cannot_win=() if obs.may_win else (obs.seat,),
    )


def actions_match(table: Table, obs: Observation) -> bool:
    """Whether the built table offers the observer exactly the observed actions."""
    offered: Sequence[Action] = table.legal_actions(obs.seat)
    return sorted(map(repr, offered)) == sorted(map(repr, obs.legal_actions))


__all__ = [
    "Deal",
    "Readiness",
    "SamplerError",
    "actions_match",
    "hand_rules",
    "hidden_pool",
    "legal_waits",
    "passed_tiles",
    "reshape",
    "sample_deal",
    "table_at",
]
