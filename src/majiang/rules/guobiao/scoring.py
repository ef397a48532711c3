"""The Guobiao scorer: every reading of a hand, its fans, the accounting principles, the best total.

``score_hand`` is the one entry point. For each reading (regular decompositions with the melds
fixed, seven pairs, thirteen orphans, honours-and-knitted, knitted straight) it detects every fan
whose definition holds, drops the ones implied by a counted fan (the non-repeat table in
``exclusions``), applies the chow and pung combination limits (non-separation, non-identical,
account once), and keeps the reading with the highest total (take the highest).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Final, final

from ...errors import InvalidHandError, NotWinningError, SituationError
from ...hand import Hand, Meld, MeldKind, WinContext
from ...shapes import (
    Reading,
    honors_knitted_set,
    is_regular_complete,
    is_seven_pairs,
    is_thirteen_orphans,
    knitted_straight_rest,
    readings_of_keys,
    regular_readings,
    regular_waits,
    seven_pairs_wait,
    waits_of_keys,
)
from ...tiles import (
    GREEN_TILES,
    KNITTED_SETS,
    NUM_KINDS,
    REVERSIBLE_TILES,
    TERMINALS,
    TERMINALS_AND_HONORS,
    tile_name,
)
from .exclusions import (
    ACCOUNT_ONCE,
    IMPLIES,
    NON_IDENTICAL,
    NON_REPEAT,
    NON_SEPARATION,
)
from .fans import FANS, POINTS, F, FanId, FanInfo
from .options import DEFAULT_OPTIONS, GuobiaoOptions
from .payments import WinPayments, win_payments

_DEFAULT_CONTEXT: Final = WinContext()
MIN_FANS: Final = 8
"""The 8-fan minimum (八番起和), flowers excluded."""
MAX_FLOWERS: Final = 8


@final
class Fans:
    """How many times each fan counts in one reading: a small map from fan id to a positive
    count, held as a list by id (cheap when compiled) and the ids present, in the order added.
    """

    def __init__(self, counts: list[int] | None = None, ids: list[FanId] | None = None) -> None:
        self.counts = [0] * len(POINTS) if counts is None else counts
        self.ids: list[FanId] = [] if ids is None else ids

    def __contains__(self, fan: FanId) -> bool:
        return self.counts[fan] != 0

    def __getitem__(self, fan: FanId) -> int:
        """The count of ``fan``, 0 if it does not count."""
        return self.counts[fan]

    def __setitem__(self, fan: FanId, count: int) -> None:
        """Count ``fan`` ``count`` times (a positive count)."""
        if not self.counts[fan]:
            self.ids.append(fan)
        self.counts[fan] = count

    def __delitem__(self, fan: FanId) -> None:
        if self.counts[fan]:
            self.counts[fan] = 0
            ids = self.ids
            for i in range(len(ids)):
                if ids[i] == fan:
                    del ids[i]
                    break

    def pop(self, fan: FanId) -> int:
        """Stop counting ``fan``; return its count (0 if it did not count)."""
        count = self.counts[fan]
        if count:
            del self[fan]
        return count

    def update(self, other: Fans) -> None:
        """Take the counts of ``other``'s fans."""
        for fan in other.ids:
            self[fan] = other.counts[fan]

    def add(self, fans: list[FanId]) -> None:
        """Count each of ``fans`` once."""
        for fan in fans:
            self[fan] = 1

    def copy(self) -> Fans:
        """An independent copy."""
        return Fans(self.counts.copy(), self.ids.copy())

Note = tuple[FanId, int, "FanId | None", str, str]
"""An implied fan not counted: (fan, how many, excluded by, principle, detail)."""


@dataclass(frozen=True, slots=True)
class FanCount:
    """One counted fan and how many times it counts."""

    fan: FanInfo
    count: int

    @property
    def points(self) -> int:
        """Points of the fan once."""
        return self.fan.points

    @property
    def total(self) -> int:
        """Points times count."""
        return self.fan.points * self.count


@dataclass(frozen=True, slots=True)
class Exclusion:
    """A fan whose definition held but that was not counted, and why."""

    fan: FanInfo
    count: int
    by: FanInfo | None
    principle: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class ReadingView:
    """How the scored reading splits the hand: its shape, sets (notation) and pair."""

    shape: str
    sets: tuple[str, ...]
    pair: str | None

    def __str__(self) -> str:
        parts = list(self.sets)
        if self.pair is not None:
            parts.append(self.pair)
        return f"{self.shape}: {' '.join(parts)}"


@dataclass(frozen=True, slots=True)
class Alternative:
    """Another reading of the same tiles, its fans and total (flowers excluded)."""

    reading: ReadingView
    total: int
    fans: tuple[FanCount, ...]


@dataclass(slots=True)
class Score:
    """The result of scoring one winning hand (a record: treat it as read-only)."""

    fans: tuple[FanCount, ...]
    total: int
    """All counted fans, flowers included (the 基本分 of the payment formula)."""
    flowers: int
    meets_minimum: bool
    """Whether the fans without flowers reach 8."""
    excluded: tuple[Exclusion, ...] = ()
    """Implied fans that were not counted, and why (only with ``explain``)."""
    alternatives: tuple[Alternative, ...] = ()
    """The other readings of the same tiles (only with ``explain``)."""
    describe_reading: Callable[[], ReadingView] = field(
        default=lambda: ReadingView("unknown", (), None), repr=False, compare=False
    )

    @property
    def reading(self) -> ReadingView:
        """How the scored reading splits the hand (described on demand)."""
        return self.describe_reading()

    @property
    def total_without_flowers(self) -> int:
        """The total that the 8-fan minimum is measured on."""
        return self.total - self.flowers

    def payments(self, self_drawn: bool, stake: int = 1) -> WinPayments:
        """What the losers pay for this hand (the seed's formula, §4.1)."""
        return win_payments(self.total, self_drawn, stake)

    def to_dict(self) -> dict[str, object]:
        """The batch/JSON form: total, fans, meets_minimum."""
        return {
            "total": self.total,
            "fans": [fan_record(fc.fan, fc.count) for fc in self.fans],
            "meets_minimum": self.meets_minimum,
        }


# --------------------------------------------------------------------------- the entry point


def score_hand(
    hand: Hand,
    context: WinContext = _DEFAULT_CONTEXT,
    options: GuobiaoOptions = DEFAULT_OPTIONS,
    *,
    explain: bool = False,
) -> Score:
    """Score a complete 14-tile hand; raise :class:`~majiang.errors.MajiangError` if it isn't."""
    win = hand.win_tile
    if win is None or hand.tile_count != 14:
        raise InvalidHandError(
            f"a winning hand has 14 tiles with the winning tile last, this one has "
            f"{hand.tile_count}"
        )
    concealed = [0] * NUM_KINDS
    for t in hand.concealed:
        concealed[t] = concealed[t] + 1
    concealed[win] = concealed[win] + 1
    flowers = len(hand.flowers) + context.extra_flowers
    if flowers and not options.flowers:
        raise SituationError(
            f"{flowers} flower(s) in a game without flowers (the option flowers is off)"
        )
    scorer = HandScorer(hand.melds, concealed, win, flowers, context, options, explain)
    best = scorer.best()
    if best is None:
        raise NotWinningError(f"not a winning hand: {hand} forms none of the five winning shapes")
    base_total = best.total
    best.add_flowers(flowers)
    notes = best.notes
    return Score(
        fans=_fan_counts(best.fans, best.order),
        total=base_total + flowers,
        flowers=flowers,
        meets_minimum=base_total >= MIN_FANS,
        describe_reading=best.view.describe,
        excluded=_exclusions(notes) if notes else (),
        alternatives=tuple(scorer.alternatives),
    )


def ranked(fans: Iterable[FanId]) -> list[FanId]:
    """Fan ids in the order of the result: highest points first, then the table's order."""
    return _ranked(list(fans))


def _ranked(fans: list[FanId]) -> list[FanId]:
    """``ranked`` of a list."""
    order = [_PLACE[f] for f in fans]
    order.sort()
    for i in range(len(order)):
        order[i] = _BY_PLACE[order[i]]
    return order


def fan_record(fan: FanInfo, count: int) -> dict[str, object]:
    """One counted fan in the JSON form."""
    return {"name": fan.zh, "en": fan.en, "points": fan.points, "count": count}


def _exclusions(notes: list[Note]) -> tuple[Exclusion, ...]:
    """Notes merged: the same fan excluded twice for the same reason is one line with a count."""
    merged: dict[tuple[FanId, FanId | None, str, str], int] = {}
    for fan, n, by, principle, detail in notes:
        key = (fan, by, principle, detail)
        merged[key] = merged.get(key, 0) + n
    return tuple(
        Exclusion(FANS[fan], n, FANS[by] if by else None, principle, detail)
        for (fan, by, principle, detail), n in merged.items()
    )


def _fan_counts(fans: Fans, order: list[FanId]) -> tuple[FanCount, ...]:
    """Counted fans in the given order (FanCount objects are shared: they are immutable)."""
    out = []
    for f in order:
        n = fans[f]
        shared = _FAN_COUNTS[f]
        counted = shared[n] if n < len(shared) else None
        if counted is None:
            counted = FanCount(FANS[f], n)
            if n < len(shared):
                shared[n] = counted
        out.append(counted)
    return tuple(out)


_BY_PLACE: Final = sorted(range(1, len(POINTS)), key=lambda f: (-POINTS[f], f))
"""Fan ids in the order of results: highest points first, then the table's order."""
_PLACE: Final = [_BY_PLACE.index(f) if f else 0 for f in range(len(POINTS))]
"""Each fan id's place in ``_BY_PLACE`` (small ints: they sort without allocating)."""
_FAN_COUNTS: Final[list[list[FanCount | None]]] = [[None] * 9 for _ in range(len(POINTS))]
"""Shared FanCount objects by fan id and count (counts above 8 are built each time)."""


def _check_situation(
    melds: tuple[Meld, ...],
    win: int,
    context: WinContext,
    concealed: list[int],
    total: list[int],
    most: int,
) -> bool:
    """Reject contradictory situations (``most``: the most copies of one kind); return the
    effective 和绝张 flag."""
    if most > 4:
        raise InvalidHandError(f"{most} copies of {tile_name(total.index(most))} (at most 4)")
    held = concealed[win] - 1
    in_melds = total[win] - concealed[win]
    if context.kong and context.self_drawn and not any(m.kind is MeldKind.KONG for m in melds):
        raise SituationError("a win on a kong's replacement tile needs a declared kong in the hand")
    if context.kong and not context.self_drawn:
        if held or in_melds:
            raise SituationError(
                f"robbing a kong of {tile_name(win)} while holding another {tile_name(win)}"
            )
        if context.last_tile:
            raise SituationError("a kong cannot be robbed on the final discard (no kong then)")
    if context.fourth_tile and held:
        raise SituationError(
            f"4th tile ({tile_name(win)}) while another copy is in the concealed hand"
        )
    if context.initial_hand and (not context.self_drawn or melds):
        raise SituationError("a win on the initial fourteen tiles is self-drawn with no melds")
    if context.fourth_tile or in_melds < 3:
        return context.fourth_tile
    visible = 0
    for m in melds:
        if not m.is_exposed:
            continue
        if m.kind is MeldKind.CHOW:
            if m.tile <= win <= m.tile + 2:
                visible += 1
        elif m.tile == win:
            visible += 3
    return visible == 3


# --------------------------------------------------------------------------- chow combinations


def _pair_fan(a: int, b: int) -> FanId:
    """The one-fan relation between two chows (lowest tiles), 0 if none."""
    if a == b:
        return F.PURE_DOUBLE_CHOW
    if a // 9 != b // 9:
        return F.MIXED_DOUBLE_CHOW if a % 9 == b % 9 else 0
    d = a - b if a > b else b - a
    if d == 3:
        return F.SHORT_STRAIGHT
    if d == 6:
        return F.TWO_TERMINAL_CHOWS
    return 0


def _three_chow_fan(a: int, b: int, c: int) -> FanId:
    """The three-chow fan of three chows sorted by lowest tile, 0 if none."""
    sa, sb, sc = a // 9, b // 9, c // 9
    if sa == sb == sc:
        if a == b == c:
            return F.PURE_TRIPLE_CHOW
        if a % 9 == 0 and b == a + 3 and c == a + 6:
            return F.PURE_STRAIGHT
        if (b - a == c - b == 1) or (b - a == c - b == 2):
            return F.PURE_SHIFTED_CHOWS
        return 0
    if sa != sb and sb != sc and sa != sc:
        low, middle, high = _sorted3(a % 9, b % 9, c % 9)
        if low == high:
            return F.MIXED_TRIPLE_CHOW
        if low == 0 and middle == 3 and high == 6:
            return F.MIXED_STRAIGHT
        if middle == low + 1 and high == low + 2:
            return F.MIXED_SHIFTED_CHOWS
    return 0


def _sorted3(a: int, b: int, c: int) -> tuple[int, int, int]:
    """Three ints in increasing order."""
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
        if a > b:
            a, b = b, a
    return a, b, c


def _four_chow_fan(chows: list[int], pair: int) -> FanId:
    """The four-chow fan of four sorted chows, 0 if none."""
    a, b, c, d = chows[0], chows[1], chows[2], chows[3]
    if a // 9 == d // 9:
        if a == d:
            return F.QUADRUPLE_CHOW
        step = b - a
        if (step == 1 or step == 2) and c - b == step and d - c == step:
            return F.FOUR_PURE_SHIFTED_CHOWS
        if a == b and c == d and a % 9 == 0 and c == a + 6 and pair == a + 4:
            return F.PURE_TERMINAL_CHOWS
        return 0
    # 三色双龙会: 123+789 in two suits and a pair of 5 in the third.
    if pair < 27 and pair % 9 == 4:
        suits = {x // 9 for x in chows}
        if len(suits) == 2 and pair // 9 not in suits:
            ranks = sorted(x % 9 for x in chows)
            if ranks == [0, 0, 6, 6] and all(
                (x - 6 if x % 9 == 6 else x + 6) in chows for x in chows
            ):
                return F.THREE_SUITED_TERMINAL_CHOWS
    return 0


def _chow_fans(chows: list[int], pair: int, fans: Fans, notes: list[Note] | None) -> None:
    """Add the chow-combination fans of a reading (§5.5)."""
    n = len(chows)
    if n < 2:
        return
    chows = sorted(chows)
    if n == 4:
        four = _four_chow_fan(chows, pair)
        if four:
            fans[four] = 1
            if notes is not None:
                inside = [
                    _three_chow_fan(chows[i], chows[j], chows[k])
                    for i, j, k in combinations(range(4), 3)
                ]
                inside += [_pair_fan(chows[i], chows[j]) for i, j in combinations(range(4), 2)]
                for f in sorted({f for f in inside if f}):
                    notes.append((f, 1, four, NON_SEPARATION, "formed by its own chows"))
            return
    if n >= 3:
        # The best three-chow fan, plus (with a fourth chow) that chow's best pair fan with one
        # of the three: the first such triple in index order wins ties.
        best_value = -1
        best_fan = best_extra = 0
        best_i = best_j = best_k = 0
        for i in range(n):
            for j in range(i + 1, n):
                for k in range(j + 1, n):
                    fan = _three_chow_fan(chows[i], chows[j], chows[k])
                    if not fan:
                        continue
                    extra = 0
                    if n == 4:
                        rest = chows[6 - i - j - k]  # the indices sum to 0 + 1 + 2 + 3
                        for other in (chows[i], chows[j], chows[k]):
                            found = _pair_fan(rest, other)
                            if found and (not extra or found < extra):
                                extra = found
                    value = POINTS[fan] + (1 if extra else 0)
                    if value > best_value:
                        best_value = value
                        best_fan, best_extra = fan, extra
                        best_i, best_j, best_k = i, j, k
        if best_fan:
            fans[best_fan] = 1
            if best_extra:
                fans[best_extra] = fans[best_extra] + 1
            if notes is not None:
                a, b, c = chows[best_i], chows[best_j], chows[best_k]
                for pair_fan in (_pair_fan(a, b), _pair_fan(a, c), _pair_fan(b, c)):
                    if pair_fan:
                        notes.append(
                            (pair_fan, 1, best_fan, NON_SEPARATION, "pair inside the three chows")
                        )
                if n == 4:
                    once = "the fourth chow combines at most once"
                    notes.append((best_fan, 0, best_fan, ACCOUNT_ONCE, once))
            return
    # Only pair fans: count the edges of a spanning forest, preferring lower fan ids (then
    # lower chow indices). Edges are packed as fan << 8 | i << 4 | j to sort as tuples would.
    edges: list[int] = []
    for i in range(n):
        for j in range(i + 1, n):
            edge = _pair_fan(chows[i], chows[j])
            if edge:
                edges.append(edge << 8 | i << 4 | j)
    if not edges:
        return
    edges.sort()
    parent = [0, 1, 2, 3]
    for packed in edges:
        f = packed >> 8
        ri = packed >> 4 & 15
        while parent[ri] != ri:
            ri = parent[ri]
        rj = packed & 15
        while parent[rj] != rj:
            rj = parent[rj]
        if ri == rj:
            if notes is not None:
                notes.append((f, 1, None, ACCOUNT_ONCE, "both chows already combined"))
            continue
        parent[ri] = rj
        fans[f] = fans[f] + 1


# --------------------------------------------------------------------------- one hand


@final
@dataclass(eq=False)
class _View:
    """How a scored reading splits the hand, described only when asked (``Score.reading``)."""

    shape: str
    reading: Reading | None = None
    melds: tuple[Meld, ...] = ()
    extra: tuple[str, ...] = ()
    pairs: list[int] | None = None

    def describe(self) -> ReadingView:
        """The reading as shape, sets (notation) and pair."""
        if self.reading is not None:
            return _regular_view(self.reading, self.melds, self.shape, self.extra)
        if self.pairs is not None:
            return ReadingView(self.shape, (), " ".join(tile_name(t) * 2 for t in self.pairs))
        return ReadingView(self.shape, (), None)


def preferred(candidates: list[_Candidate]) -> int:
    """The index of the reading to count: the highest total (take the highest); among readings
    of that total, which differ only in their names (D22), the reference calculator's choice so
    that fan lists match it:

    1. a special shape (thirteen orphans, honours and knitted, knitted straight) if it ties;
    2. when the hand also reads as seven pairs, the last regular reading of the tie (seven pairs
       itself when no regular reading reaches its total);
    3. otherwise the last regular reading of the tie that counts 一色三同顺 or 三同刻, else the
       first one.

    "First" and "last" are in the order of ``regular_order``, the order in which the reference
    meets regular readings.
    """
    best_total = -1
    for c in candidates:
        if c.total > best_total:
            best_total = c.total
    tied: list[int] = []
    seven_pairs = -1
    for i in range(len(candidates)):
        view = candidates[i].view
        if view.shape == "seven pairs":
            seven_pairs = i
        if candidates[i].total == best_total:
            if view.reading is None or view.shape == "knitted straight":
                if view.shape != "seven pairs":
                    return i
            else:
                tied.append(i)
    if not tied:
        return seven_pairs
    if len(tied) == 1:
        return tied[0]
    tied.sort(key=lambda i: regular_order(candidates[i].view))
    if seven_pairs >= 0:
        return tied[-1]
    for j in range(len(tied) - 1, -1, -1):
        fans = candidates[tied[j]].fans
        if F.PURE_TRIPLE_CHOW in fans or F.TRIPLE_PUNG in fans:
            return tied[j]
    return tied[0]


def regular_order(view: _View) -> int:
    """A regular reading's place in the order in which the reference meets readings: by its
    concealed sets sorted by lowest tile, a pung before a chow of the same tile, compared set by
    set (declared sets are the same in every reading). ``111p 234p 333p 456p`` (pair 44p) comes
    before ``123p 333p 444p 456p`` (pair 11p), ``678m 678m`` (99m) before ``789m 789m`` (66m).
    """
    assert view.reading is not None
    _, chows, pungs = view.reading
    codes = [2 * t for t in pungs]
    codes.extend([2 * t + 1 for t in chows])
    codes.sort()
    packed = 0
    for code in codes:
        packed = packed << 7 | code
    return packed << 7 * (4 - len(codes))


@final
class _Candidate:
    """A scored reading: its counted fans, by id and in the order of results, their total
    (flowers come last, added by ``add_flowers``), the notes on what was not counted (with
    ``explain``), and how to describe the reading."""

    def __init__(
        self, fans: Fans, order: list[FanId], total: int, notes: list[Note] | None, view: _View
    ) -> None:
        self.fans = fans
        self.order = order
        self.total = total
        self.notes = notes
        self.view = view

    def add_flowers(self, flowers: int) -> None:
        """Count the flowers (1 point each, the last fan of the order)."""
        if flowers:
            self.fans[F.FLOWER_TILES] = flowers
            self.order.append(F.FLOWER_TILES)


@final
class HandScorer:
    """Scores every reading of one hand; facts shared by all readings are computed once.

    ``concealed`` counts the concealed kinds, the winning tile included; ``flowers`` is their
    number. Raises :class:`~majiang.errors.MajiangError` as ``score_hand`` does (the wording
    may differ: callers that show errors go through ``score_hand``)."""

    def __init__(
        self,
        melds: tuple[Meld, ...],
        concealed: list[int],
        win: int,
        flowers: int,
        context: WinContext,
        options: GuobiaoOptions,
        explain: bool,
    ) -> None:
        if flowers > MAX_FLOWERS:
            raise SituationError(f"{flowers} flowers (there are only 8)")
        self.melds = melds
        self.flowers = flowers
        self.ctx = context
        self.opt = options
        self.explain = explain
        self.alternatives: list[Alternative] = []
        self.win = win
        self.concealed = concealed
        total = list(concealed)
        # The declared sets, the same for every reading.
        meld_chows: list[int] = []
        meld_pungs: list[int] = []
        exposed = melded_kongs = concealed_kongs = 0
        for m in melds:
            tile = m.tile
            if m.kind is MeldKind.CHOW:
                meld_chows.append(tile)
                total[tile] = total[tile] + 1
                total[tile + 1] = total[tile + 1] + 1
                total[tile + 2] = total[tile + 2] + 1
            else:
                meld_pungs.append(tile)
                if m.kind is MeldKind.KONG:
                    total[tile] = total[tile] + 4
                    if m.is_concealed_kong:
                        concealed_kongs += 1
                    else:
                        melded_kongs += 1
                else:
                    total[tile] = total[tile] + 3
            if m.is_exposed:
                exposed += 1
        self.meld_chows = meld_chows
        self.meld_pungs = meld_pungs
        self.melded_kongs = melded_kongs
        self.concealed_kongs = concealed_kongs
        self.exposed_melds = exposed
        # Which kinds the hand holds (bit t), in all and concealed; the most copies of one kind;
        # the packed suit keys of the concealed tiles (``shapes.suit_key``).
        present = hidden = 0
        most = kinds = 0
        keys = [0, 0, 0]
        for t in range(NUM_KINDS):
            n = total[t]
            if n:
                present |= 1 << t
                if n > most:
                    most = n
                held = concealed[t]
                if held:
                    hidden |= 1 << t
                    kinds += 1
                    if t < 27:
                        suit = t // 9
                        keys[suit] = keys[suit] + (held << 3 * (t - 9 * suit))
        self.total = total
        self.present = present
        self.hidden = hidden
        self.kinds = kinds
        self.most = most
        fourth_tile = _check_situation(melds, win, context, concealed, total, most)
        self.situational = self._situational(fourth_tile)
        self.keys = (keys[0], keys[1], keys[2])
        self.regular_complete = -1
        """Whether the concealed tiles read as a regular hand: 1 or 0, -1 not known yet."""
        self._unique_wait = -1
        """1 or 0 once known, else -1."""

    # ---- facts about the whole hand

    def _situational(self, fourth_tile: bool) -> list[FanId]:
        """The fans of the situation (each counts once)."""
        ctx = self.ctx
        fans: list[FanId] = []
        if ctx.self_drawn:
            fans.append(F.SELF_DRAWN)
            if ctx.last_tile:
                fans.append(F.LAST_TILE_DRAW)
            if ctx.kong:
                fans.append(F.OUT_WITH_REPLACEMENT_TILE)
        else:
            if ctx.last_tile:
                fans.append(F.LAST_TILE_CLAIM)
            if ctx.kong:
                fans.append(F.ROBBING_THE_KONG)
        if fourth_tile:
            fans.append(F.LAST_TILE)
        return fans

    def _tile_fans(self, fans: Fans, seven_pairs: bool = False) -> Fans:
        """Add the fans decided by which tiles the hand holds (flushes, ranges, voided suits,
        四归一) to ``fans``; return it."""
        present = self.present
        suits = 0
        for mask in _SUIT_MASKS:
            if present & mask:
                suits += 1
        if not present & ~_GREEN_MASK:
            fans[F.ALL_GREEN] = 1
        if not present & _HONOR_MASK:
            fans[F.NO_HONORS] = 1
            if suits == 1:
                fans[F.FULL_FLUSH] = 1
            for mask, fan in _RANGE_FANS:
                if not present & ~mask:
                    fans[fan] = 1
        elif not suits:
            fans[F.ALL_HONORS] = 1
        else:
            if suits == 1:
                fans[F.HALF_FLUSH] = 1
            if not present & ~_ORPHAN_MASK:
                fans[F.ALL_TERMINALS_AND_HONORS] = 1
        if not present & _ORPHAN_MASK:
            fans[F.ALL_SIMPLES] = 1
        if not present & ~_REVERSIBLE_MASK:
            fans[F.REVERSIBLE_TILES] = 1
        if suits == 2:
            fans[F.ONE_VOIDED_SUIT] = 1
        elif suits == 3 and self._all_types():
            fans[F.ALL_TYPES] = 1
        if self.most == 4:
            total = self.total
            hogs = 0
            for t in range(NUM_KINDS):
                if total[t] == 4:
                    hogs += 1
            for m in self.melds:
                if m.kind is MeldKind.KONG:
                    hogs -= 1  # a kong's four tiles are not a 四归一
            if hogs:
                fans[F.TILE_HOG] = hogs
        if seven_pairs:
            if self.opt.no_tile_hog_in_green_terminal_pairs and (
                F.ALL_GREEN in fans or F.ALL_TERMINALS in fans
            ):
                fans.pop(F.TILE_HOG)
            if self.opt.strict_1998_seven_pairs:
                for f in _SET_DEFINED_TILE_FANS:
                    fans.pop(f)
        return fans

    def _all_types(self) -> bool:
        """Whether the hand holds every suit, a wind and a dragon (五门齐)."""
        present = self.present
        return all(present & mask for mask in _SUIT_MASKS) and bool(
            present & _WIND_MASK and present & _DRAGON_MASK
        )

    def unique_wait(self) -> bool:
        """Whether the 13 tiles before the win waited on the winning kind alone (§5.7).

        The wait set is that of the regular shape, plus seven pairs when nothing is declared;
        kinds count even when all four copies are held.
        """
        if self._unique_wait < 0:
            self._unique_wait = 1 if self._waits_on_win_alone() else 0
        return self._unique_wait == 1

    def _waits_on_win_alone(self) -> bool:
        """``unique_wait`` computed: the concealed counts lose the winning tile for the test
        (the caller's list, put back before returning) and the win's suit key loses it too."""
        win = self.win
        before = self.concealed
        before[win] = before[win] - 1  # the 13 tiles before the win, put back below
        pair_wait = None if self.melds else seven_pairs_wait(before)
        key0, key1, key2 = self.keys
        if win < 27:
            removed = 1 << 3 * (win % 9)
            if win < 9:
                key0 -= removed
            elif win < 18:
                key1 -= removed
            else:
                key2 -= removed
        other = (pair_wait is not None and pair_wait != win) or bool(
            waits_of_keys(before, (key0, key1, key2), win, True)
        )
        before[win] = before[win] + 1
        return not other and (pair_wait == win or self._is_regular_complete())

    def _is_regular_complete(self) -> bool:
        """Whether the concealed tiles read as a regular hand (known once ``best`` has read
        them)."""
        if self.regular_complete < 0:
            self.regular_complete = 1 if is_regular_complete(self.concealed) else 0
        return self.regular_complete == 1

    # ---- readings

    def counted(self) -> tuple[Fans, list[FanId], int] | None:
        """The counted fans (flowers included), their ids in the order of results and their
        total without flowers, as ``score_hand`` finds them but without building the result
        (the batch's hot path); None if not winning."""
        best = self.best()
        if best is None:
            return None
        best.add_flowers(self.flowers)
        return best.fans, best.order, best.total

    def best(self) -> _Candidate | None:
        """The highest-scoring reading, or None if no shape fits."""
        candidates: list[_Candidate] = []
        melds = self.melds
        c = self.concealed
        key0, key1, key2 = self.keys
        readings = readings_of_keys(c, key0, key1, key2)
        self.regular_complete = 1 if readings else 0
        if readings:
            base = self._tile_fans(Fans())
            base.add(self.situational)
            for reading in readings:
                fans = base if len(readings) == 1 else base.copy()
                candidates.append(self._regular(reading, melds, fans))
        kinds = self.kinds
        if not melds:
            if kinds <= 7 and is_seven_pairs(c):
                candidates.append(self._seven_pairs())
            if kinds == 13 and not self.hidden & ~_ORPHAN_MASK and is_thirteen_orphans(c):
                candidates.append(self._special(F.THIRTEEN_ORPHANS, "thirteen orphans"))
            knitted = honors_knitted_set(c) if kinds == 14 else None
            if knitted is not None:
                honors = 0
                for t in range(27, 34):
                    if c[t]:
                        honors += 1
                if honors == 7:
                    candidates.append(
                        self._special(F.GREATER_HONORS_AND_KNITTED, "honours and knitted")
                    )
                else:
                    extra = 0
                    if sum(c[t] for t in knitted) == 9:
                        extra = F.KNITTED_STRAIGHT
                    candidates.append(
                        self._special(F.LESSER_HONORS_AND_KNITTED, "honours and knitted", extra)
                    )
        if len(melds) <= 1 and kinds >= 9 and self._holds_knitted_set():
            found = knitted_straight_rest(c)
            if found is not None:
                knitted, rest = found
                for reading in regular_readings(rest):
                    candidates.append(self._knitted_straight(knitted, reading))
        if not candidates:
            return None
        if len(candidates) == 1 and not self.explain:
            return candidates[0]
        best_index = preferred(candidates)
        if self.explain:
            self.alternatives = [
                Alternative(c.view.describe(), c.total, _fan_counts(c.fans, c.order))
                for i, c in enumerate(candidates)
                if i != best_index
            ]
        return candidates[best_index]

    def _holds_knitted_set(self) -> bool:
        """Whether the concealed tiles hold one of each tile of some knitted set."""
        hidden = self.hidden
        return any(hidden & mask == mask for mask in _KNITTED_TILE_MASKS)

    def _finish(self, fans: Fans, notes: list[Note] | None, view: _View) -> _Candidate:
        """Apply the non-repeat table, then 无番和 if nothing is left: the scored reading."""
        opt = self.opt
        order = _ranked(fans.ids)
        for fan in order:
            if fan not in fans:
                continue
            for other in _IMPLIED[fan]:
                if other in fans:
                    if (
                        other == F.CONCEALED_HAND
                        and fan in _SPECIAL_SHAPES
                        and opt.special_shapes_add_concealed_hand
                    ):
                        continue
                    n = fans.pop(other)
                    if notes is not None:
                        notes.append((other, n, fan, NON_REPEAT, ""))
            if fan == F.NINE_GATES and F.PUNG_OF_TERMINALS_OR_HONORS in fans:
                drop = fans[F.PUNG_OF_TERMINALS_OR_HONORS] if opt.nine_gates_no_terminal_pung else 1
                _drop(fans, F.PUNG_OF_TERMINALS_OR_HONORS, drop, fan, notes)
            if fan == F.ALL_TERMINALS and opt.all_terminals_excludes_triple_pung:
                _drop(fans, F.TRIPLE_PUNG, fans[F.TRIPLE_PUNG], fan, notes)
        if not fans.ids:
            fans[F.CHICKEN_HAND] = 1
            return _Candidate(fans, [F.CHICKEN_HAND], POINTS[F.CHICKEN_HAND], notes, view)
        counted: list[FanId] = []
        total = 0
        for fan in order:
            n = fans[fan]
            if n:
                counted.append(fan)
                total += POINTS[fan] * n
        return _Candidate(fans, counted, total, notes, view)

    def _special(self, fan: FanId, shape: str, extra: FanId = 0) -> _Candidate:
        """Thirteen orphans or honours and knitted (``extra``: a knitted straight inside)."""
        notes: list[Note] | None = [] if self.explain else None
        fans = Fans()
        fans[fan] = 1
        fans.add(self.situational)
        if extra:
            fans[extra] = 1
        if fan == F.THIRTEEN_ORPHANS:
            fans[F.ALL_TYPES] = 1
        if fan == F.GREATER_HONORS_AND_KNITTED:
            fans[F.LESSER_HONORS_AND_KNITTED] = 1
        if fan != F.THIRTEEN_ORPHANS and self._all_types():
            fans[F.ALL_TYPES] = 1
        self._concealment(fans)
        if self.unique_wait():
            fans[F.SINGLE_WAIT] = 1
        return self._finish(fans, notes, _View(shape))

    def _concealment(self, fans: Fans) -> None:
        """门前清 / 不求人 when nothing is exposed."""
        if self.exposed_melds == 0:
            fans[F.FULLY_CONCEALED_HAND if self.ctx.self_drawn else F.CONCEALED_HAND] = 1

    def _seven_pairs(self) -> _Candidate:
        """The seven-pairs reading."""
        notes: list[Note] | None = [] if self.explain else None
        fans = Fans()
        fans[F.SEVEN_PAIRS] = 1
        self._tile_fans(fans, True)
        fans.add(self.situational)
        pairs = [t for t in range(NUM_KINDS) for _ in range(self.concealed[t] // 2)]
        if (
            pairs[0] < 27
            and pairs[6] == pairs[0] + 6
            and len(set(pairs)) == 7
            and pairs[0] // 9 == pairs[6] // 9
        ):
            fans[F.SEVEN_SHIFTED_PAIRS] = 1
        self._concealment(fans)
        if self.unique_wait():
            fans[F.SINGLE_WAIT] = 1
        return self._finish(fans, notes, _View("seven pairs", pairs=pairs))

    def _regular(self, reading: Reading, melds: tuple[Meld, ...], fans: Fans) -> _Candidate:
        """One regular reading; ``fans`` holds the tile and situation fans, the reading's own."""
        notes: list[Note] | None = [] if self.explain else None
        pair, conc_chows, conc_pungs = reading
        chows = list(self.meld_chows)
        chows.extend(conc_chows)
        self._set_fans(reading, chows, fans, notes)
        self._concealment(fans)
        if self.exposed_melds == 4 and not self.ctx.self_drawn:
            fans[F.MELDED_HAND] = 1
        if self._is_nine_gates():
            fans[F.NINE_GATES] = 1
        # The structure fans.
        if len(chows) == 4 and pair < 27:
            fans[F.ALL_CHOWS] = 1
        outside = _ORPHAN_MASK >> pair & 1 == 1
        fives = pair < 27 and pair % 9 == 4
        if outside or fives:
            for c in chows:
                rank = c % 9
                outside = outside and (rank == 0 or rank == 6)
                fives = fives and 2 <= rank <= 4
            for t in conc_pungs:
                outside = outside and _ORPHAN_MASK >> t & 1 == 1
                fives = fives and t < 27 and t % 9 == 4
            for t in self.meld_pungs:
                outside = outside and _ORPHAN_MASK >> t & 1 == 1
                fives = fives and t < 27 and t % 9 == 4
            if outside:
                fans[F.OUTSIDE_HAND] = 1
            if fives:
                fans[F.ALL_FIVES] = 1
        self._wait_fans(reading, fans)
        return self._finish(fans, notes, _View("regular", reading, melds))

    def _is_nine_gates(self) -> bool:
        """Whether the 13 tiles before the win are 1112345678999 of one suit, concealed."""
        win = self.win
        if self.melds or win >= 27:
            return False
        base = win - win % 9
        c = self.concealed
        for t in range(base, base + 9):
            n = c[t] - 1 if t == win else c[t]
            if n != (3 if t == base or t == base + 8 else 1):
                return False
        return True

    def _knitted_wait_fans(self, knitted: frozenset[int], reading: Reading, fans: Fans) -> None:
        """Wait fans of the knitted-straight shape: judged on the tiles outside the knitted nine."""
        if self.ctx.initial_hand:
            return
        win = self.win
        if self.melds:
            if win not in knitted or self.concealed[win] == 3:
                fans[F.SINGLE_WAIT] = 1
            return
        rest = list(self.concealed)
        for t in knitted:
            rest[t] = rest[t] - 1
        if not rest[win]:
            return  # the winning tile only completes the knitted nine
        rest[win] = rest[win] - 1
        if regular_waits(rest) == [win]:
            self._wait_fans(reading, fans, knitted, 1)

    def _wait_fans(
        self,
        reading: Reading,
        fans: Fans,
        knitted: frozenset[int] | None = None,
        unique: int = -1,
    ) -> None:
        """边张 / 坎张 / 单钓将 for a unique wait, placed in this reading (one at most);
        ``unique`` is 1 when the caller knows the wait is unique, -1 to find out."""
        if self.ctx.initial_hand:
            return
        win = self.win
        pair, conc_chows, _ = reading
        edge = closed = False
        for c in conc_chows:
            if (c == win - 2 and c % 9 == 0) or (c == win and c % 9 == 6):
                edge = True
            elif c == win - 1:
                closed = True
        single = pair == win
        if not (edge or closed or single):
            return
        if knitted is not None and self.opt.knitted_straight_no_edge_closed:
            edge = closed = False
            if not single:
                return
        if unique < 0 and not self.unique_wait():
            return
        if edge:
            fans[F.EDGE_WAIT] = 1
        elif closed:
            fans[F.CLOSED_WAIT] = 1
        else:
            fans[F.SINGLE_WAIT] = 1

    def _set_fans(
        self, reading: Reading, chows: list[int], fans: Fans, notes: list[Note] | None
    ) -> None:
        """Pung, kong and chow fans of a regular (or knitted-straight) reading."""
        win = self.win
        pair, conc_chows, conc_pungs = reading
        pungs = list(self.meld_pungs)
        concealed_pungs = self.concealed_kongs
        for t in conc_pungs:
            pungs.append(t)
            if t == win and not self.ctx.self_drawn and not _in_chow(conc_chows, win):
                continue  # completed by the winning discard: an exposed pung
            concealed_pungs += 1
        if pungs:
            self._pung_fans(pungs, pair, fans, notes)
        # Kong series.
        melded_kongs, concealed_kongs = self.melded_kongs, self.concealed_kongs
        kongs = melded_kongs + concealed_kongs
        if kongs == 4:
            fans[F.FOUR_KONGS] = 1
            fans[F.THREE_KONGS] = 1
        elif kongs == 3:
            fans[F.THREE_KONGS] = 1
        elif kongs == 2:
            if melded_kongs == 2:
                fans[F.TWO_MELDED_KONGS] = 1
                fans[F.MELDED_KONG] = 1
            elif concealed_kongs == 2:
                fans[F.TWO_CONCEALED_KONGS] = 1
                fans[F.CONCEALED_KONG] = 1
            elif self.opt.mixed_kong_pair_5:
                fans[F.CONCEALED_AND_MELDED_KONG] = 1
            else:
                fans[F.MELDED_KONG] = 1
                fans[F.CONCEALED_KONG] = 1
        elif kongs == 1:
            fans[F.MELDED_KONG if melded_kongs else F.CONCEALED_KONG] = 1
        # Concealed-pung series.
        if concealed_pungs >= 2:
            fans[F.TWO_CONCEALED_PUNGS] = 1
            if concealed_pungs >= 3:
                fans[F.THREE_CONCEALED_PUNGS] = 1
                if concealed_pungs == 4:
                    fans[F.FOUR_CONCEALED_PUNGS] = 1
        _chow_fans(chows, pair, fans, notes)

    def _pung_fans(self, pungs: list[int], pair: int, fans: Fans, notes: list[Note] | None) -> None:
        """The fans of the reading's pungs and kongs (tiles in ``pungs``): honours, terminals,
        all pungs, and the suited combinations."""
        ctx = self.ctx
        seat = 27 + ctx.seat_wind
        prevalent = 27 + ctx.prevalent_wind
        if len(pungs) == 4:
            fans[F.ALL_PUNGS] = 1
        winds = dragons = 0
        for t in pungs:
            if t >= 31:
                dragons += 1
            elif t >= 27:
                winds += 1
        big_winds = winds >= 3
        if winds == 4:
            fans[F.BIG_FOUR_WINDS] = 1
            fans[F.BIG_THREE_WINDS] = 1
        elif winds == 3:
            fans[F.LITTLE_FOUR_WINDS if 27 <= pair <= 30 else F.BIG_THREE_WINDS] = 1
            if 27 <= pair <= 30:
                fans[F.BIG_THREE_WINDS] = 1
        if dragons == 3:
            fans[F.BIG_THREE_DRAGONS] = 1
            fans[F.TWO_DRAGON_PUNGS] = 1
        elif dragons == 2:
            if pair >= 31:
                fans[F.LITTLE_THREE_DRAGONS] = 1
            fans[F.TWO_DRAGON_PUNGS] = 1
        if dragons:
            fans[F.DRAGON_PUNG] = dragons
        terminal_pungs = 0
        for t in pungs:
            if _TERMINAL_MASK >> t & 1:
                terminal_pungs += 1
            elif 27 <= t <= 30:
                if t == prevalent:
                    fans[F.PREVALENT_WIND] = 1
                if t == seat:
                    fans[F.SEAT_WIND] = 1
                if big_winds or t in (prevalent, seat):
                    if notes is not None:
                        if winds == 4:
                            by = F.BIG_FOUR_WINDS
                        elif big_winds:
                            by = F.LITTLE_FOUR_WINDS if 27 <= pair <= 30 else F.BIG_THREE_WINDS
                        else:
                            by = F.PREVALENT_WIND if t == prevalent else F.SEAT_WIND
                        notes.append(
                            (F.PUNG_OF_TERMINALS_OR_HONORS, 1, by, NON_REPEAT, tile_name(t) * 3)
                        )
                else:
                    terminal_pungs += 1
            elif t >= 31 and notes is not None:
                notes.append(
                    (F.PUNG_OF_TERMINALS_OR_HONORS, 1, F.DRAGON_PUNG, NON_REPEAT, tile_name(t) * 3)
                )
        if terminal_pungs:
            fans[F.PUNG_OF_TERMINALS_OR_HONORS] = terminal_pungs
        suited: list[int] = []
        for t in pungs:
            if t < 27:
                suited.append(t)
        if len(suited) >= 2:
            _suited_pung_fans(sorted(suited), pair, fans)

    def _knitted_straight(self, knitted: frozenset[int], reading: Reading) -> _Candidate:
        """A knitted-straight reading: the knitted nine plus a regular reading of the rest."""
        notes: list[Note] | None = [] if self.explain else None
        melds = self.melds
        fans = Fans()
        fans[F.KNITTED_STRAIGHT] = 1
        fans.add(self.situational)
        tile_fans = self._tile_fans(Fans())
        for f in (F.ALL_TYPES, F.NO_HONORS, F.TILE_HOG):
            if f in tile_fans:
                fans[f] = tile_fans[f]
        pair, conc_chows, _ = reading
        chows = len(self.meld_chows) + len(conc_chows)
        self._set_fans(reading, [], fans, notes)
        self._concealment(fans)
        if chows == 1 and pair < 27:
            fans[F.ALL_CHOWS] = 1
        self._knitted_wait_fans(knitted, reading, fans)
        sets = ("".join(tile_name(t) for t in sorted(knitted)),)
        return self._finish(fans, notes, _View("knitted straight", reading, melds, sets))


def _in_chow(chows: tuple[int, ...], tile: int) -> bool:
    """Whether one of the chows (lowest tiles) holds the tile."""
    return any(c <= tile <= c + 2 and c // 9 == tile // 9 for c in chows)


def _suited_pung_fans(suited: list[int], pair: int, fans: Fans) -> None:
    """The fans of two or more suited pungs (sorted): same ranks, shifted, all even."""
    by_rank = [0] * 9
    held = 0
    for t in suited:
        rank = t % 9
        by_rank[rank] = by_rank[rank] + 1
        held |= 1 << t
    doubles = 0
    for n in by_rank:
        if n == 3:
            fans[F.TRIPLE_PUNG] = 1
            doubles += 1  # the implied Double Pung, dropped by the table
        elif n == 2:
            doubles += 1
    if doubles:
        fans[F.DOUBLE_PUNG] = doubles
    for t in suited:
        if t % 9 <= 6 and held >> (t + 1) & 1 and held >> (t + 2) & 1:
            if t % 9 <= 5 and held >> (t + 3) & 1:
                fans[F.FOUR_PURE_SHIFTED_PUNGS] = 1
            fans[F.PURE_SHIFTED_PUNGS] = 1
    n = len(suited)
    if n >= 3:
        for i in range(n):
            a = suited[i]
            for j in range(i + 1, n):
                b = suited[j]
                for k in range(j + 1, n):
                    c = suited[k]
                    if a // 9 != b // 9 != c // 9 != a // 9:
                        low, middle, high = _sorted3(a % 9, b % 9, c % 9)
                        if middle == low + 1 and high == low + 2:
                            fans[F.MIXED_SHIFTED_PUNGS] = 1
    if n == 4 and pair < 27 and pair % 9 in (1, 3, 5, 7):
        for t in suited:
            if t % 9 not in (1, 3, 5, 7):
                return
        fans[F.ALL_EVEN_PUNGS] = 1


def _mask(tiles: object) -> int:
    return sum(1 << t for t in tiles)  # type: ignore[attr-defined]


_SUIT_MASKS: Final = tuple(_mask(range(base, base + 9)) for base in (0, 9, 18))
_HONOR_MASK: Final = _mask(range(27, 34))
_WIND_MASK: Final = _mask(range(27, 31))
_DRAGON_MASK: Final = _mask(range(31, 34))
_GREEN_MASK: Final = _mask(GREEN_TILES)
_REVERSIBLE_MASK: Final = _mask(REVERSIBLE_TILES)
_TERMINAL_MASK: Final = _mask(TERMINALS)
_ORPHAN_MASK: Final = _mask(TERMINALS_AND_HONORS)
_RANGE_FANS: Final = (
    (_mask(t for t in range(27) if t % 9 >= 6), F.UPPER_TILES),
    (_mask(t for t in range(27) if 3 <= t % 9 <= 5), F.MIDDLE_TILES),
    (_mask(t for t in range(27) if t % 9 <= 2), F.LOWER_TILES),
    (_mask(t for t in range(27) if t % 9 >= 5), F.UPPER_FOUR),
    (_mask(t for t in range(27) if t % 9 <= 3), F.LOWER_FOUR),
    (_TERMINAL_MASK, F.ALL_TERMINALS),
)
"""The fan a hand without honours scores when every tile it holds is in the mask."""
_KNITTED_TILE_MASKS: Final = tuple(_mask(knitted) for knitted in KNITTED_SETS)
"""Bits of the nine tiles of each knitted set."""
_IMPLIED: Final = tuple(IMPLIES.get(f, ()) for f in range(len(POINTS)))
"""``IMPLIES`` as a tuple by fan id (empty where a fan implies nothing)."""

_SPECIAL_SHAPES: Final = frozenset(
    {
        F.SEVEN_PAIRS,
        F.SEVEN_SHIFTED_PAIRS,
        F.THIRTEEN_ORPHANS,
        F.LESSER_HONORS_AND_KNITTED,
        F.GREATER_HONORS_AND_KNITTED,
    }
)
_SET_DEFINED_TILE_FANS: Final = (
    F.ALL_GREEN,
    F.ALL_HONORS,
    F.ALL_TERMINALS,
    F.ALL_TERMINALS_AND_HONORS,
    F.UPPER_TILES,
    F.MIDDLE_TILES,
    F.LOWER_TILES,
    F.UPPER_FOUR,
    F.LOWER_FOUR,
)


def _drop(fans: Fans, fan: FanId, n: int, by: FanId, notes: list[Note] | None) -> None:
    if n <= 0 or fan not in fans:
        return
    left = fans[fan] - n
    if left > 0:
        fans[fan] = left
    else:
        del fans[fan]
    if notes is not None:
        notes.append((fan, n, by, NON_REPEAT, ""))


def _regular_view(
    reading: Reading, melds: tuple[Meld, ...], shape: str, extra: tuple[str, ...] = ()
) -> ReadingView:
    from ...notation import format_meld, format_tiles

    sets = [format_meld(m) for m in melds]
    sets.extend(extra)
    pair_tile, chows, pungs = reading
    sets.extend(format_tiles([c, c + 1, c + 2]) for c in chows)
    sets.extend(format_tiles([t] * 3) for t in pungs)
    pair = format_tiles([pair_tile] * 2)
    return ReadingView(shape, tuple(sets), pair)


__all__ = [
    "MIN_FANS",
    "Alternative",
    "Exclusion",
    "FanCount",
    "HandScorer",
    "ReadingView",
    "Score",
    "fan_record",
    "ranked",
    "score_hand",
]
_ = NON_IDENTICAL
