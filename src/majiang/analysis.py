"""Hand analysis: shanten, useful tiles, waits with their Guobiao scores, and discard advice.

>>> from majiang.analysis import analyze, shanten
>>> result = analyze("345s1122234789p")
>>> result.shanten, [(w.name, w.unseen, w.meets_minimum) for w in result.waits]
(0, [('1p', 2, False), ('2p', 1, True), ('5p', 4, False)])
>>> shanten([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 10, 11])  # 123456789m1123s: ready
0

A 13-tile hand gets its shanten, the useful tiles (kinds whose draw lowers the shanten) and, when
ready, every wait scored as won on a discard and as self-drawn. A 14-tile hand (the last concealed
tile is the one just drawn) gets every discard ranked by the shanten it leaves, then by how many
useful tiles remain unseen. "Unseen" is ``4 - copies in the hand (melds included) - copies in
``visible``, never below 0; ``visible`` lists tiles seen outside the hand (discards, the other
players' melds).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .api import make_context
from .errors import InvalidHandError
from .hand import Hand
from .notation import format_hand, parse_hand, parse_tiles
from .rules.guobiao.options import GuobiaoOptions
from .rules.guobiao.scoring import Score, score_hand
from .shanten import (
    SHAPES,
    TILE_KEYS,
    hand_key,
    shanten,
    shanten_by_shape,
    shanten_by_shape_of_key,
    shanten_of_key,
    useful_of_key,
)
from .shapes import winning_tiles
from .tiles import NUM_KINDS, tile_name, unseen_copies

MIN_FANS = 8


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class UsefulTile:
    """A kind whose draw lowers the shanten, and how many copies are unseen."""

    tile: int
    unseen: int

    @property
    def name(self) -> str:
        """The tile in notation: ``"5m"``."""
        return tile_name(self.tile)

    def to_dict(self) -> dict[str, Any]:
        """``{"tile": "5m", "unseen": 3}``."""
        return {"tile": self.name, "unseen": self.unseen}


@dataclass(frozen=True, slots=True)
class Wait:
    """A winning tile of a ready hand, its unseen copies and its score both ways.

    ``discard`` and ``self_drawn`` are None for a dead wait: all four copies are in the hand.
    """

    tile: int
    unseen: int
    discard: Score | None
    self_drawn: Score | None

    @property
    def name(self) -> str:
        """The tile in notation."""
        return tile_name(self.tile)

    @property
    def best_total(self) -> int | None:
        """The higher of the two totals (flowers included), None for a dead wait."""
        totals = [s.total for s in (self.discard, self.self_drawn) if s is not None]
        return max(totals) if totals else None

    @property
    def meets_minimum(self) -> bool:
        """Whether the win reaches 8 fans (flowers excluded) on a discard or self-drawn."""
        return any(s is not None and s.meets_minimum for s in (self.discard, self.self_drawn))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (see ``docs/analysis.md``)."""
        return {
            "tile": self.name,
            "unseen": self.unseen,
            "discard": self.discard.to_dict() if self.discard else None,
            "self_drawn": self.self_drawn.to_dict() if self.self_drawn else None,
            "meets_minimum": self.meets_minimum,
        }


class _Counts:
    """Counts shared by a discard option and an analysis (both have ``useful`` and ``waits``)."""

    __slots__ = ()
    useful: tuple[UsefulTile, ...]
    waits: tuple[Wait, ...]

    @property
    def useful_unseen(self) -> int:
        """Unseen copies of all the useful tiles."""
        return sum(u.unseen for u in self.useful)

    @property
    def winning_unseen(self) -> int:
        """Unseen copies of the waits that reach 8 fans (0 unless the hand is, or the discard
        leaves it, ready)."""
        return _winning_unseen(self.waits)


@dataclass(frozen=True, slots=True)
class DiscardOption(_Counts):
    """One discard of a 14-tile hand: the shanten it leaves and the tiles that then help."""

    tile: int
    shanten: int
    useful: tuple[UsefulTile, ...]
    waits: tuple[Wait, ...] = ()
    """When the discard leaves the hand ready: its waits, scored."""

    @property
    def name(self) -> str:
        """The discarded tile in notation."""
        return tile_name(self.tile)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (see ``docs/analysis.md``)."""
        out: dict[str, Any] = {
            "tile": self.name,
            "shanten": self.shanten,
            "useful": [u.to_dict() for u in self.useful],
            "useful_kinds": len(self.useful),
            "useful_unseen": self.useful_unseen,
        }
        if self.shanten == 0:
            out["waits"] = [w.to_dict() for w in self.waits]
            out["winning_unseen"] = self.winning_unseen
        return out


def _winning_unseen(waits: Iterable[Wait]) -> int:
    return sum(w.unseen for w in waits if w.meets_minimum)


@dataclass(frozen=True)
class Analysis(_Counts):
    """Everything :func:`analyze` finds about one hand."""

    hand: Hand
    tiles: int
    """13 or 14."""
    shanten: int
    """0 ready, -1 complete; for 14 tiles, the best after one discard (or -1)."""
    by_shape: dict[str, int]
    """Shanten of each shape the melds allow."""
    useful: tuple[UsefulTile, ...] = ()
    """13 tiles: the kinds whose draw lowers the shanten."""
    waits: tuple[Wait, ...] = ()
    """13 tiles, ready: every winning tile, scored."""
    discards: tuple[DiscardOption, ...] = ()
    """14 tiles: every distinct discard, best first."""
    win: Wait | None = None
    """14 tiles, complete: the last tile as the winning tile, scored both ways."""
    visible: tuple[int, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of ``majiang analyze --json`` (fields in ``docs/analysis.md``)."""
        out: dict[str, Any] = {
            "hand": format_hand(self.hand),
            "tiles": self.tiles,
            "shanten": self.shanten,
            "shanten_by_shape": dict(self.by_shape),
        }
        if self.tiles == 13:
            out["useful"] = [u.to_dict() for u in self.useful]
            out["useful_kinds"] = len(self.useful)
            out["useful_unseen"] = self.useful_unseen
            out["waits"] = [w.to_dict() for w in self.waits]
            out["winning_unseen"] = self.winning_unseen
        else:
            out["complete"] = self.win is not None
            out["win"] = self.win.to_dict() if self.win else None
            out["discards"] = [d.to_dict() for d in self.discards]
        return out


# --------------------------------------------------------------------------- building blocks


def _as_hand(hand: str | Hand) -> Hand:
    if isinstance(hand, Hand):
        if hand.tile_count not in (13, 14):
            raise InvalidHandError(
                f"{hand.tile_count} tiles (a declared set counts 3), expected 13 or 14"
            )
        return hand
    return parse_hand(hand, allowed_counts=(13, 14))


def _as_tiles(visible: str | Iterable[int]) -> list[int]:
    if isinstance(visible, str):
        return parse_tiles(visible)
    tiles = list(visible)
    for t in tiles:
        if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < NUM_KINDS:
            raise InvalidHandError(f"not a visible tile: {t!r} (tiles are ints 0-33)")
    return tiles


def unseen_counts(hand: Hand, visible: str | Iterable[int] = ()) -> list[int]:
    """Unseen copies of each of the 34 kinds: 4 - held (melds included) - visible, at least 0."""
    held = hand.kind_counts()
    for t in _as_tiles(visible):
        held[t] += 1
    return unseen_copies(held)


def _useful(key: int, n_tiles: int, melds: int, counts: list[int]) -> list[int]:
    """Kinds whose draw lowers the shanten of the (13-tile) key, in tile order."""
    if n_tiles + 3 * melds != 13:
        raise InvalidHandError(
            f"useful tiles need a 13-tile hand, not {n_tiles + 3 * melds} (a meld counts 3)"
        )
    return useful_of_key(key, n_tiles, melds, counts)


def useful_tiles(tiles: Sequence[int], melds: int = 0) -> list[int]:
    """Kinds whose draw lowers the shanten of a 13-tile hand (concealed ``tiles`` + ``melds``).

    A kind whose four copies are all among ``tiles`` cannot be drawn and is never listed; a kind
    whose copies are elsewhere (melds, discards) is, and :func:`unseen_counts` says how many
    are left.
    """
    counts = [0] * NUM_KINDS
    for t in tiles:
        if isinstance(t, int) and 0 <= t < NUM_KINDS:
            counts[t] += 1
    return _useful(hand_key(tiles), len(tiles), melds, counts)


def _context_args(seat_wind: str | int, prevalent_wind: str | int) -> dict[str, Any]:
    make_context(seat_wind=seat_wind, prevalent_wind=prevalent_wind)  # validates the winds
    return {"seat_wind": seat_wind, "prevalent_wind": prevalent_wind}


def _score_wait(
    hand: Hand,
    concealed: tuple[int, ...],
    tile: int,
    unseen: list[int],
    visible_counts: list[int],
    winds: dict[str, Any],
    options: GuobiaoOptions,
) -> Wait:
    held = hand.kind_counts()
    if held[tile] >= 4:
        return Wait(tile, 0, None, None)
    won = Hand.of(hand.melds, concealed, tile, hand.flowers)
    # 和绝张: the winning tile is the last copy when the other three are all visible.
    in_melds = held[tile] - concealed.count(tile)
    last = concealed.count(tile) == 0 and in_melds + visible_counts[tile] >= 3
    scores = [
        score_hand(won, make_context(self_drawn=self_drawn, fourth_tile=last, **winds), options)
        for self_drawn in (False, True)
    ]
    return Wait(tile, unseen[tile], scores[0], scores[1])


def _kind_counts(tiles: Iterable[int]) -> list[int]:
    """Copies of each of the 34 kinds among ``tiles``."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def _options(options: GuobiaoOptions | Mapping[str, Any] | None) -> GuobiaoOptions:
    if isinstance(options, GuobiaoOptions):
        return options
    return GuobiaoOptions.from_mapping(dict(options) if options else None)


# --------------------------------------------------------------------------- the analyses


def waits(
    hand: str | Hand,
    visible: str | Iterable[int] = (),
    *,
    seat_wind: str | int = "E",
    prevalent_wind: str | int = "E",
    options: GuobiaoOptions | Mapping[str, Any] | None = None,
) -> list[Wait]:
    """Every winning tile of a ready 13-tile hand, scored on a discard and self-drawn.

    Empty if the hand is not ready. A wait whose :attr:`Wait.meets_minimum` is false cannot be
    declared (it stays below 8 fans either way).
    """
    parsed = _as_hand(hand)
    if parsed.tile_count != 13:
        raise InvalidHandError(f"waits need a 13-tile hand, not {parsed.tile_count}")
    seen = _as_tiles(visible)
    return _waits(parsed, parsed.concealed_with_win, seen,
                  _context_args(seat_wind, prevalent_wind), _options(options))


def _waits(
    hand: Hand,
    concealed: tuple[int, ...],
    visible: list[int],
    winds: dict[str, Any],
    options: GuobiaoOptions,
) -> list[Wait]:
    counts = _kind_counts(concealed)
    stripped = Hand.of(hand.melds, concealed, None, hand.flowers)
    unseen = unseen_counts(stripped, visible)
    visible_counts = _kind_counts(visible)
    return [
        _score_wait(stripped, concealed, t, unseen, visible_counts, winds, options)
        for t in winning_tiles(counts, len(hand.melds))
    ]


def discard_options(
    hand: str | Hand,
    visible: str | Iterable[int] = (),
    *,
    seat_wind: str | int = "E",
    prevalent_wind: str | int = "E",
    options: GuobiaoOptions | Mapping[str, Any] | None = None,
) -> list[DiscardOption]:
    """Each distinct discard of a 14-tile hand, best first.

    Ranked by the shanten left (fewest first), then by unseen copies of the useful tiles (most
    first), then by the number of useful kinds, then by tile order. Discards that leave the hand
    ready carry their waits, scored.
    """
    parsed = _as_hand(hand)
    if parsed.tile_count != 14:
        raise InvalidHandError(f"discard advice needs a 14-tile hand, not {parsed.tile_count}")
    return _discards(parsed, _as_tiles(visible), _context_args(seat_wind, prevalent_wind),
                     _options(options))


def _discards(
    hand: Hand, visible: list[int], winds: dict[str, Any], options: GuobiaoOptions
) -> list[DiscardOption]:
    tiles = hand.concealed_with_win
    melds = len(hand.melds)
    n = len(tiles) - 1
    key14 = hand_key(tiles)
    unseen = unseen_counts(hand, visible)
    counts = _kind_counts(tiles)
    result = []
    for d in sorted(set(tiles)):
        key = key14 - TILE_KEYS[d]
        counts[d] -= 1
        left = shanten_of_key(key, n, melds)
        useful = tuple(UsefulTile(t, unseen[t]) for t in _useful(key, n, melds, counts))
        counts[d] += 1
        ready: tuple[Wait, ...] = ()
        if left == 0:
            rest = list(tiles)
            rest.remove(d)
            ready = tuple(_waits(hand, tuple(sorted(rest)), [*visible, d], winds, options))
        result.append(DiscardOption(d, left, useful, ready))
    result.sort(key=lambda o: (o.shanten, -o.useful_unseen, -len(o.useful), o.tile))
    return result


def analyze(
    hand: str | Hand,
    visible: str | Iterable[int] = (),
    *,
    seat_wind: str | int = "E",
    prevalent_wind: str | int = "E",
    options: GuobiaoOptions | Mapping[str, Any] | None = None,
) -> Analysis:
    """Analyse a 13- or 14-tile hand (notation of ``rules/guobiao.md`` §1.2, or a :class:`Hand`).

    13 tiles: shanten, useful tiles and, when ready, the scored waits. 14 tiles (the last
    concealed tile just drawn): shanten, the ranked discards and, when complete, the score of the
    win. ``visible`` (notation or tile ints) only changes the unseen counts. Raises
    :class:`~majiang.errors.MajiangError` for bad input.
    """
    parsed = _as_hand(hand)
    seen = _as_tiles(visible)
    winds = _context_args(seat_wind, prevalent_wind)
    opts = _options(options)
    tiles = parsed.concealed_with_win
    melds = len(parsed.melds)
    key = hand_key(tiles)
    by_shape = shanten_by_shape_of_key(key, len(tiles), melds)
    best = min(by_shape.values())
    if parsed.tile_count == 13:
        counts = _kind_counts(tiles)
        unseen = unseen_counts(parsed, seen)
        useful = tuple(
            UsefulTile(t, unseen[t]) for t in _useful(key, len(tiles), melds, counts)
        )
        ready = tuple(_waits(parsed, tiles, seen, winds, opts)) if best == 0 else ()
        return Analysis(parsed, 13, best, by_shape, useful=useful, waits=ready,
                        visible=tuple(seen))
    win = None
    if best == -1:
        last = tiles[-1]  # the winning tile (a Hand built without one: its last concealed tile)
        rest = tiles[:-1]
        win = _score_wait(
            Hand.of(parsed.melds, rest, None, parsed.flowers),
            rest,
            last,
            unseen_counts(parsed, seen),
            _kind_counts(seen),
            winds,
            opts,
        )
    discards = tuple(_discards(parsed, seen, winds, opts))
    return Analysis(parsed, 14, best, by_shape, discards=discards, win=win, visible=tuple(seen))


__all__ = [
    "SHAPES",
    "Analysis",
    "DiscardOption",
    "UsefulTile",
    "Wait",
    "analyze",
    "discard_options",
    "shanten",
    "shanten_by_shape",
    "unseen_counts",
    "useful_tiles",
    "waits",
]
