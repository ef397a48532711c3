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
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.actions import Action, Win
from ..engine.state import HIDDEN, Observation, Phase
from ..engine.table import Table
from ..engine.wall import Wall
from ..errors import MajiangError
from ..hand import CONCEALED_KONG, Hand, Meld, MeldKind, WinContext
from ..rules.base import RuleSet
from ..shanten import TILE_KEYS
from .view import hand_counts, unseen_counts

REDRAWS = 12
"""Draws of a deal before one that breaks the passed-win condition is kept anyway."""


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


def sample_deal(obs: Observation, rules: RuleSet, rng: random.Random) -> Deal:
    """A deal drawn uniformly among those consistent with ``obs`` (see the module docstring).

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
    return deal


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
        counts = [0] * 34
        for t in deal.hands[s]:
            counts[t] += 1
        melds = _melds_of(obs, deal, s, rules)
        waits = rules.waiting_tiles(counts, len(melds))
        for tile in passed:
            if tile not in waits:
                continue
            hand = Hand(tuple(melds), tuple(deal.hands[s]), tile, tuple(obs.flowers[s]))
            context = WinContext(self_drawn=False, seat_wind=(s - obs.dealer) % 4,
                                 prevalent_wind=obs.prevalent_wind)
            try:
                check = rules.check_win(hand, context)
            except MajiangError:
                continue
            if check is not None and check.legal and rules.may_declare(check):
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
    table = Table(base, 0, dealer=obs.dealer, prevalent_wind=obs.prevalent_wind,
                  dealer_count=obs.dealer_count, thrown=tuple(obs.thrown),
                  every_seat_answers=False)
    rules = hand_rules(obs, base)
    table.indicators = [obs.indicator] if obs.indicator is not None else []
    table._bind_rules(rules)
    for s in range(4):
        counts = [0] * 34
        for t in deal.hands[s]:
            counts[t] += 1
        table.concealed[s] = counts
        table._sizes[s] = len(deal.hands[s])
        table._keys[s] = sum(TILE_KEYS[t] * counts[t] for t in range(34))
        table.melds[s] = _melds_of(obs, deal, s, rules)
        table.flowers[s] = list(obs.flowers[s])
        table.ponds[s] = list(obs.discards[s])
    table._waits = [None] * 4
    table._wait_memos = [None] * 4
    table._hands = [None] * 4
    table._seat_views = [None] * 4
    table._public_key = -1
    visible = [0] * 34
    for s in range(4):
        for t in table.ponds[s]:
            visible[t] += 1
        for m in table.melds[s]:
            if not m.is_concealed_kong:
                for t in m.tiles:
                    visible[t] += 1
    table._visible = visible
    table._visible_tuple = None
    table.deltas = list(obs.deltas)
    table.thrown = list(obs.thrown)
    kongs = sum(1 for melds in obs.melds for m in melds if m.kind is MeldKind.KONG)
    table.replacements = kongs + sum(len(f) for f in obs.flowers)
    table._reserve = rules.reserve(table.replacements)
    table.wall = Wall([], random.Random(0), order=deal.wall)
    table.late = obs.raw_phase
    table.cannot_win = set() if obs.may_win else {obs.seat}
    table._skipped_pungs = [set(), set(), set(), set()]
    table._passed_win = set()
    table.history, table.events, table.event_marks = [], [], []
    table.result = None
    table.offer_note = None
    table.final_discard = False
    if obs.phase is Phase.TURN:
        source = "claim" if obs.drawn is None else "wall"
        if obs.drawn is not None and not any(obs.discards) and not any(obs.melds):
            source = "initial"
        table._begin_turn(obs.seat, source, obs.drawn if obs.drawn is not None else obs.hand[-1])
        table._draw_may_win = any(type(a) is Win for a in obs.legal_actions)
        return table
    offerer = obs.current
    tile = obs.last_discard
    if tile is None:
        raise SamplerError("a claim window without a tile on offer")
    table._begin_turn(offerer, "wall", tile)
    table.concealed[offerer][tile] += 1  # the tile is back in the hand it leaves
    table._sizes[offerer] += 1
    table._keys[offerer] += TILE_KEYS[tile]
    if obs.phase is Phase.CLAIM:
        table.ponds[offerer].pop()
        visible[tile] -= 1
        table.every_seat_answers = True  # the observer is asked even with only a pass
        table._discard(offerer, tile)
        table.every_seat_answers = False
    else:
        table.offer_note = rules.note_offer(table, offerer, tile)
        table._add(offerer, tile, -1)
        table.last_tile = tile
        table.every_seat_answers = True
        table._open_window(Phase.ROB, offerer, tile)
        table.every_seat_answers = False
    return table


def actions_match(table: Table, obs: Observation) -> bool:
    """Whether the built table offers the observer exactly the observed actions."""
    offered: Sequence[Action] = table.legal_actions(obs.seat)
    return sorted(map(repr, offered)) == sorted(map(repr, obs.legal_actions))


__all__ = [
    "Deal",
    "SamplerError",
    "actions_match",
    "hand_rules",
    "hidden_pool",
    "passed_tiles",
    "sample_deal",
    "table_at",
]
