"""Guobiao as a rule set for the engine: 144 tiles, chows from the left, 8 fans to win."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from operator import mul
from typing import Any

from ...errors import MajiangError, SituationError
from ...hand import Hand, WinContext
from ...notation import parse_hand
from ...shanten import TILE_KEYS
from ...shanten import waiting_tiles_of_key as waits_of_key
from ...shapes import is_complete
from ..base import TableView, WinCheck, WinSettlement, WinSituation
from .fans import FANS, F
from .options import GuobiaoOptions
from .payments import botzone_penalty_deltas, false_win_deltas, seat_deltas
from .scoring import MIN_FANS, Score, score_hand

FLOWERS = list(range(34, 42))
_WALL = tuple([t for t in range(34) for _ in range(4)] + FLOWERS)


class GuobiaoRules:
    """The Guobiao rule set (rules/guobiao.md §2-4)."""

    name = "gb"
    indicator_tiles = 0
    wild_face: int | None = None
    kong_after_claim = False
    robbing = True
    skipped_pung_restriction = False
    skipped_win_restriction = False
    throw_limit = 0

    def __init__(self, options: GuobiaoOptions | dict[str, Any] | None = None) -> None:
        if not isinstance(options, GuobiaoOptions):
            options = GuobiaoOptions.from_mapping(options)
        self.options = options

    def begin_hand(self, indicators: Sequence[int]) -> GuobiaoRules:
        """Guobiao turns up no indicator: the same rules for every hand."""
        return self

    def wall_tiles(self) -> list[int]:
        """136 suited and honour tiles and the 8 flowers (without them when the option
        ``flowers`` is off)."""
        return list(_WALL if self.options.flowers else _WALL[:136])

    @property
    def wall_layout(self) -> str:
        """The tables' wall layout, by its name in ``engine.wall.LAYOUTS`` (a rule set may give a
        ``engine.wall.Wall`` subclass of its own instead): Botzone's scoring plays its judge's
        four-part wall, other games the two-ended wall of §2.3."""
        return "four_part" if self.options.botzone_scoring else "two_ended"

    def is_flower(self, tile: int) -> bool:
        """Flowers are tiles 34-41."""
        return tile >= 34

    def identity(self, tile: int) -> int:
        """Every tile is what it shows."""
        return tile

    def physical(self, identity: int) -> int:
        """Every tile is what it shows."""
        return identity

    def natural(self, tile: int) -> bool:
        """No tile is wild."""
        return True

    def reserve(self, replacements: int) -> int:
        """The wall is played to its last tile."""
        return 0

    def late_phase(self, remaining: int, replacements: int) -> bool:
        """Guobiao has no late phase."""
        return False

    def chow_allowed(self, discarder: int, claimer: int) -> bool:
        """Only the discarder's next player (下家) may chow."""
        return claimer == (discarder + 1) % 4

    def could_win(self, counts: list[int], n_melds: int) -> bool:
        """One of the five shapes (exact, and cheap: per-suit cached look-ups)."""
        return is_complete(counts, n_melds)

    def waiting_tiles(self, counts: list[int], n_melds: int) -> frozenset[int]:
        """The winning tiles of a ready hand (any shape); empty if it is not ready."""
        return self.waiting_tiles_of_key(sum(map(mul, counts, TILE_KEYS)), counts, n_melds)

    waiting_tiles_of_key = staticmethod(waits_of_key)
    """:meth:`waiting_tiles` of a hand whose key (``majiang.shanten.hand_key``) the table keeps
    up to date: :func:`majiang.shanten.waiting_tiles_of_key` itself (no pass over the counts,
    a quick ready test first, and no Python frame between the compiled table and it)."""

    def check_win(self, hand: Hand, context: WinContext) -> WinCheck | None:
        """Score the hand; None if it is no winning shape. Under Botzone's scoring the
        dealer's fourteenth tile is an ordinary draw, as Botzone's judge deals it (its wait
        fans count): no ``initial_hand``."""
        if context.initial_hand and self.options.botzone_scoring:
            context = replace(context, initial_hand=False)
        try:
            result = score_hand(hand, context, self.options)
        except MajiangError:
            return None
        return _check_of(result)

    def may_declare(self, check: WinCheck) -> bool:
        """A legal win always; a false win only in rooms that play 错和."""
        return check.legal or self.options.false_win

    def note_offer(self, table: TableView, seat: int, tile: int) -> None:
        """Guobiao's payments need nothing about the offered tile."""
        return None

    def settle_win(
        self, table: TableView, situation: WinSituation, check: WinCheck, note: Any
    ) -> WinSettlement:
        """The seed's payment formula with the table's stake (Botzone's judge pays the same, so
        ``botzone_scoring`` keeps it)."""
        return self.settle_counted(check, situation)

    def false_win_deltas(self, offender: int, stake: int) -> list[int]:
        """10 × stake (``false_win_penalty``; Botzone's 10 with ``botzone_scoring``) to each
        other player."""
        if self.options.botzone_scoring:
            return list(botzone_penalty_deltas(offender, stake))
        return list(false_win_deltas(offender, self.options.false_win_penalty, stake))

    def keeps_deal(self, dealer: int, winner: int | None) -> bool:
        """The deal passes after every hand, drawn ones included (§2.2)."""
        return False

    # ------------------------------------------------------------------ counted wins (score sheets)

    losers_count = False
    """Every loser pays by the winner's count alone."""
    gunner_pays_all = False
    """No discarder pays for the others."""
    win_flags = ("last_tile", "kong", "fourth_tile")
    """妙手回春/海底捞月, 杠上开花/抢杠和 and 和绝张 need a flag each."""

    def fan_table(self) -> list[dict[str, Any]]:
        """The 80 fans (flowers are counted apart), with 明暗杠 when the room scores it."""
        ids = list(range(1, F.FLOWER_TILES))
        if self.options.mixed_kong_pair_5:
            ids.append(F.CONCEALED_AND_MELDED_KONG)
        return [
            {"id": i, "zh": FANS[i].zh, "en": FANS[i].en, "points": FANS[i].points} for i in ids
        ]

    def score_written(self, text: str, context: WinContext) -> WinCheck:
        """The exact scorer on the written hand; NotWinningError names the shape it lacks."""
        return _check_of(score_hand(parse_hand(text, allowed_counts=(14,)), context, self.options))

    def check_counted(self, points: int, flowers: int) -> WinCheck:
        """Fans without flowers must reach 8; each flower adds one after."""
        _count(points, "the fan total", 0, 1000)
        _count(flowers, "the flowers", 0, 8)
        detail: dict[str, Any] = {"fans": [], "total": points + flowers, "flowers": flowers}
        if points < MIN_FANS:
            detail["reason"] = _under_minimum(points)
        return WinCheck(points >= MIN_FANS, points + flowers, detail)

    def count_loser(self, text: str, seat_wind: int) -> int:
        """Guobiao's losers do not count their hands."""
        raise SituationError("in Guobiao only the winner's hand is counted")

    def settle_counted(self, check: WinCheck, situation: WinSituation) -> WinSettlement:
        """§4.1: (8 + F) × stake from the discarder (every loser when self-drawn), 8 × stake
        from the others."""
        if situation.losers:
            raise SituationError("in Guobiao only the winner's hand is counted")
        if situation.gunner:
            raise SituationError("Guobiao has no gunner: the discarder pays (8 + F) alone")
        return WinSettlement(
            seat_deltas(situation.winner, situation.discarder, check.points, situation.stake)
        )


def _check_of(result: Score) -> WinCheck:
    """The rule set's view of a scored hand: legal when it meets the minimum."""
    fans = [
        {"name": fc.fan.zh, "en": fc.fan.en, "points": fc.points, "count": fc.count}
        for fc in result.fans
    ]
    detail: dict[str, Any] = {"fans": fans, "total": result.total, "flowers": result.flowers}
    if not result.meets_minimum:
        detail["reason"] = _under_minimum(result.total_without_flowers)
    return WinCheck(result.meets_minimum, result.total, detail)


def _under_minimum(points: int) -> str:
    return f"{points} fans without flowers is under the {MIN_FANS}-fan minimum"


def _count(value: object, what: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SituationError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
