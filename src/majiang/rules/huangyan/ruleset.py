"""Huangyan as a rule set for the engine (rules/huangyan.md §1-5).

136 tiles and no flowers; one indicator turned up after the deal binds the wild face for the
hand (:meth:`HuangyanRules.begin_hand`). White dragons play as the wild face; a 得 is never
claimed nor used in a declared set. Chows only from the discarder's right-hand player, kongs also
right after a claim, the skipped-pung restriction, robbing an added kong as the ``rob_kong``
option says. The wall ends with a reserve of 7 stacks ``T(k)``; the raw-tile phase starts at
``G(k)``. A win is settled with every loser's own count, the gunner penalty and bullets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...errors import SituationError
from ...hand import Hand, WinContext
from ...tiles import NUM_KINDS, tile_name
from ..base import OpeningPhase, TableView, WinCheck, WinSettlement, WinSituation
from .bullets import ThrownBullets
from .notation import parse_huangyan_hand
from .observation import HuangyanObservation
from .options import HuangyanOptions
from .phase import draw_threshold, in_raw_tile_phase, is_gunner
from .scoring import check_win, is_winning_shape, score_loser, score_winner
from .settlement import settle_hand
from .wild import Wild

TILES = [t for t in range(NUM_KINDS) for _ in range(4)]


@dataclass(frozen=True, slots=True)
class OfferNote:
    """What the gunner test (§2.9) needs about a tile offered in the raw-tile phase, taken just
    before it left the offerer's hand."""

    tile_raw: bool
    all_raw: bool
    counts: tuple[int, ...]
    """The offerer's concealed faces before the tile left (for "could he be ready")."""
    melds: int


class HuangyanRules:
    """The Huangyan rule set; bound to a wild face for one hand by :meth:`begin_hand`."""

    name = "huangyan"
    indicator_tiles = 1
    kong_after_claim = True
    skipped_pung_restriction = True

    def __init__(
        self, options: HuangyanOptions | Mapping[str, Any] | None = None, wild: Wild | None = None
    ) -> None:
        if not isinstance(options, HuangyanOptions):
            options = HuangyanOptions.from_mapping(options)
        self.options = options
        self.wild = wild
        self.wild_face = wild.face if wild is not None else None
        self.robbing = options.rob_kong
        self.skipped_win_restriction = options.skipped_win_restriction
        self.throw_limit = options.throw_limit
        self.opening_phase: OpeningPhase | None = (
            ThrownBullets(options.throw_limit) if options.throw_limit > 0 else None
        )
        """Thrown bullets before the deal, when the options allow a throw."""
        self._bound: dict[int, HuangyanRules] = {}
        self._stand_in = wild is not None and wild.stand_in is not None

    # ------------------------------------------------------------------ the hand's wild face

    def begin_hand(self, indicators: Sequence[int]) -> HuangyanRules:
        """The rules with the indicator's face wild (A1 a); cached per face."""
        face = indicators[0]
        bound = self._bound.get(face)
        if bound is None:
            wild = Wild.from_indicator(face, self.options.live_dragon_face)
            bound = self._bound[face] = HuangyanRules(self.options, wild)
        return bound

    def _face(self) -> Wild:
        if self.wild is None:
            raise SituationError("the Huangyan rules need the wild face: call begin_hand")
        return self.wild

    # ------------------------------------------------------------------ tiles and claims

    def wall_tiles(self) -> list[int]:
        """136 tiles: four of each face, no flowers."""
        return list(TILES)

    def is_flower(self, tile: int) -> bool:
        """Huangyan has no flowers."""
        return False

    def identity(self, tile: int) -> int:
        """A white dragon is the wild face (the stand-in, §1.7); other tiles are themselves."""
        return self._face().identity(tile)

    def physical(self, identity: int) -> int:
        """The wild face in a set is carried by a white dragon."""
        return self._face().physical(identity)

    def natural(self, tile: int) -> bool:
        """A tile of the wild face is a 得: never claimed, never in a declared set (A20)."""
        return tile != self._face().face

    def chow_allowed(self, discarder: int, claimer: int) -> bool:
        """Only the discarder's right-hand player (下家) may chow (§2.2)."""
        return claimer == (discarder + 1) % 4

    def reserve(self, replacements: int) -> int:
        """T(k): 7 stacks (option ``draw_reserve``), plus the loose single after an odd number
        of replacements (§1.8)."""
        return draw_threshold(replacements, self.options.draw_reserve)

    def late_phase(self, remaining: int, replacements: int) -> bool:
        """The raw-tile phase: R <= G(k) (§2.7; option ``raw_phase_tiles``, 0 = never)."""
        return in_raw_tile_phase(remaining, replacements, self.options.raw_phase_tiles)

    # ------------------------------------------------------------------ winning

    def could_win(self, counts: list[int], n_melds: int) -> bool:
        """Four sets and a pair with the 得 tiles standing for anything (exact, cached)."""
        return is_winning_shape(counts, n_melds, self._face())

    def waiting_tiles(self, counts: list[int], n_melds: int) -> frozenset[int]:
        """Every face that completes the hand. A 得 completes any ready hand, so a hand that a
        drawn 得 does not complete waits for nothing; otherwise each face is tried."""
        wild = self._face()
        face = wild.face
        counts[face] += 1
        ready = is_winning_shape(counts, n_melds, wild)
        counts[face] -= 1
        if not ready:
            return frozenset()
        waits = {face}
        for t in range(NUM_KINDS):
            if t != face and counts[t] < 4:
                counts[t] += 1
                if is_winning_shape(counts, n_melds, wild):
                    waits.add(t)
                counts[t] -= 1
        return frozenset(waits)

    def check_win(self, hand: Hand, context: WinContext) -> WinCheck | None:
        """The winner's score (§4); None for no winning shape or a 得 taken from a discard."""
        score = check_win(hand, context, self._face(), self.options)
        if score is None:
            return None
        return WinCheck(True, score.total, {"winner": score.to_dict()})

    def may_declare(self, check: WinCheck) -> bool:
        """Every winning shape may be declared: Huangyan has no minimum and no false win."""
        return check.legal

    def false_win_deltas(self, offender: int, stake: int) -> list[int]:
        """Never asked (no false win in Huangyan)."""
        return [0, 0, 0, 0]

    # ------------------------------------------------------------------ settlement

    def note_offer(self, table: TableView, seat: int, tile: int) -> OfferNote | None:
        """In the raw-tile phase, the raw/known facts of the offered tile and of the offerer's
        hand just before it left (§2.8-2.9); None outside the phase (no gunner then)."""
        if not table.late:
            return None
        known = set()
        for pond in table.ponds:
            known.update(pond)
        counts = table.concealed[seat]
        all_raw = not any(counts[t] and t in known for t in range(NUM_KINDS))
        return OfferNote(tile not in known, all_raw, tuple(counts), len(table.melds[seat]))

    def gunner(self, discarder: int | None, tile: int | None, note: Any) -> int | None:
        """The discarder if the gunner test (option ``gunner_test``) finds him guilty."""
        if discarder is None or tile is None or not isinstance(note, OfferNote):
            return None
        counts = list(note.counts)
        could_be_ready = False
        for t in range(NUM_KINDS):
            if counts[t]:
                counts[t] -= 1
                could_be_ready = could_be_ready or bool(self.waiting_tiles(counts, note.melds))
                counts[t] += 1
        counts[tile] -= 1
        ready = bool(self.waiting_tiles(counts, note.melds))
        guilty = is_gunner(
            self.options.gunner_test,
            raw_phase=True,
            tile_raw=note.tile_raw,
            all_raw=note.all_raw,
            could_be_ready=could_be_ready,
            ready=ready,
        )
        return discarder if guilty else None

    def settle_win(
        self, table: TableView, situation: WinSituation, check: WinCheck, note: Any
    ) -> WinSettlement:
        """Hu and bullet ledgers (§5.4-5.6): each loser's own count, the gunner, bullets with
        the dealer count and thrown stakes. The hu ledger is multiplied by the stake."""
        wild = self._face()
        losers = {}
        for seat in range(4):
            if seat != situation.winner:
                tiles = tuple(t for t in range(NUM_KINDS) for _ in range(table.concealed[seat][t]))
                hand = Hand(tuple(table.melds[seat]), tiles)
                losers[seat] = score_loser(
                    hand, wild, seat_wind=table.seat_wind(seat), options=self.options
                ).total
        gunner = self.gunner(situation.discarder, table.last_tile, note) is not None
        counted = self.settle_counted(check, replace(situation, losers=losers, gunner=gunner))
        return WinSettlement(
            counted.deltas, counted.ledgers, {"wild": tile_name(wild.face), **counted.detail}
        )

    def observation_extension(self, table: TableView) -> HuangyanObservation:
        """The raw-tile phase, the dealer count and the thrown bullets, for every observation."""
        return HuangyanObservation.of(table)

    def keeps_deal(self, dealer: int, winner: int | None) -> bool:
        """The dealer deals again when he wins (连庄, §3.1)."""
        return winner == dealer

    # ------------------------------------------------------------------ counted wins (score sheets)

    losers_count = True
    """Every loser counts his own hand (§5.1-5.4)."""
    gunner_pays_all = True
    """A gunner pays everything owed in the hand (§5.6)."""
    win_flags = ("kong",)
    """杠上花 / robbing a kong; Huangyan has no last-tile or fourth-tile item."""

    def fan_table(self) -> list[dict[str, Any]]:
        """None: a Huangyan total is hu × 2^fan rounded, not a sum to pick from."""
        return []

    def score_written(self, text: str, context: WinContext) -> WinCheck:
        """The winner's count of the written hand with this hand's 得 (no prevailing wind)."""
        wild = self._face()
        if context.last_tile or context.fourth_tile or context.extra_flowers:
            raise SituationError("Huangyan has no last-tile, fourth-tile or flower situation")
        hand = parse_huangyan_hand(text, wild, allowed_counts=(14,))
        score = score_winner(
            hand, wild, seat_wind=context.seat_wind, self_drawn=context.self_drawn,
            kong=context.kong, options=self.options,
        )
        return WinCheck(True, score.total, {"winner": score.to_dict()})

    def check_counted(self, points: int, flowers: int) -> WinCheck:
        """A winner's total is a positive multiple of 10, at most the limit (辣子)."""
        if flowers:
            raise SituationError("Huangyan has no flowers")
        _total(points, "the winner's total", self.options.limit, positive=True)
        return WinCheck(True, points, {"winner": {"total": points}})

    def count_loser(self, text: str, seat_wind: int) -> int:
        """The loser's own total I (§5.1-5.3) of his 13 written tiles."""
        return score_loser(text, self._face(), seat_wind=seat_wind, options=self.options).total

    def settle_counted(self, check: WinCheck, situation: WinSituation) -> WinSettlement:
        """Hu and bullet ledgers (§5.4-5.6) from the totals; the hu ledger × stake."""
        losers, discarder, stake = situation.losers, situation.discarder, situation.stake
        for seat, total in losers.items():
            _total(total, f"seat {seat}'s own total", self.options.limit, positive=False)
        if situation.gunner and discarder is None:
            raise SituationError("a self-drawn win has no gunner (§2.9)")
        settlement = settle_hand(
            situation.winner,
            check.points,
            losers,
            dealer=situation.dealer,
            self_drawn=discarder is None,
            gunner=discarder if situation.gunner else None,
            dealer_count=situation.dealer_count,
            thrown={s: n for s, n in enumerate(situation.thrown) if n},
            options=self.options,
        )
        hu = settlement.hu
        return WinSettlement(
            (hu[0] * stake, hu[1] * stake, hu[2] * stake, hu[3] * stake),
            {"bullets": settlement.bullets},
            {"losers": {str(s): t for s, t in sorted(losers.items())}, **settlement.to_dict()},
        )


def _total(value: object, what: str, limit: int, *, positive: bool) -> None:
    """A Huangyan total: a multiple of 10 (rounded up, §4.4), at most ``limit`` when set."""
    if isinstance(value, bool) or not isinstance(value, int) or value < (10 if positive else 0):
        least = "10" if positive else "0"
        raise SituationError(f"{what} must be a whole number of at least {least}, not {value!r}")
    if value % 10:
        raise SituationError(f"{what} is rounded up to a multiple of 10: {value} is not")
    if limit and value > limit:
        raise SituationError(f"{what} is at most the limit (辣子) {limit}, not {value}")
