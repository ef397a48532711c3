"""The Guobiao scorer: every reading of a hand, its fans, the accounting principles, the best total.

``score_hand`` is the one entry point. For each reading (regular decompositions with the melds
fixed, seven pairs, thirteen orphans, honours-and-knitted, knitted straight) it detects every fan
whose definition holds, drops the ones implied by a counted fan (the non-repeat table in
``exclusions``), applies the chow and pung combination limits (non-separation, non-identical,
account once), and keeps the reading with the highest total (take the highest).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations

from ...errors import InvalidHandError, NotWinningError, SituationError
from ...hand import Hand, Meld, MeldKind, WinContext
from ...shapes import (
    Reading,
    has_other_regular_wait,
    honors_knitted_set,
    is_regular_complete,
    is_seven_pairs,
    is_thirteen_orphans,
    knitted_straight_rest,
    regular_readings,
    regular_waits,
    seven_pairs_wait,
)
from ...tiles import (
    GREEN_TILES,
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

_DEFAULT_CONTEXT = WinContext()
MIN_FANS = 8
"""The 8-fan minimum (八番起和), flowers excluded."""
MAX_FLOWERS = 8

Fans = dict[FanId, int]
Note = tuple[FanId, int, "FanId | None", str, str]
"""An implied fan not counted: (fan, how many, excluded by, principle, detail)."""
Candidate = tuple[Fans, "list[Note] | None", "Callable[[], ReadingView]"]
"""A scored reading: its fans, the notes on what was not counted, and how to describe it."""


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
        concealed[t] += 1
    concealed[win] += 1
    flowers = len(hand.flowers) + context.extra_flowers
    scorer = _HandScorer(hand.melds, concealed, win, flowers, context, options, explain)
    best = scorer.best()
    if best is None:
        raise NotWinningError(f"not a winning hand: {hand} forms none of the five winning shapes")
    fans, notes, view = best
    base_total = _with_flowers(fans, flowers)
    return Score(
        fans=_fan_counts(fans),
        total=base_total + flowers,
        flowers=flowers,
        meets_minimum=base_total >= MIN_FANS,
        describe_reading=view,
        excluded=_exclusions(notes) if notes else (),
        alternatives=tuple(scorer.alternatives),
    )


def counted_fans(
    melds: tuple[Meld, ...],
    concealed: list[int],
    win: int,
    flowers: int,
    context: WinContext,
    options: GuobiaoOptions,
) -> tuple[Fans, int] | None:
    """The counted fans (flowers included) and the total without flowers, as ``score_hand``
    finds them but without building the result (the batch's hot path); None if not winning.

    ``concealed`` counts the concealed kinds, the winning tile included; ``flowers`` is their
    number. Raises :class:`~majiang.errors.MajiangError` as ``score_hand`` does (the wording
    may differ: callers that show errors go through ``score_hand``).
    """
    best = _HandScorer(melds, concealed, win, flowers, context, options, False).best()
    if best is None:
        return None
    fans = best[0]
    return fans, _with_flowers(fans, flowers)


def ranked(fans: Fans) -> list[FanId]:
    """Fan ids in the order of the result: highest points first, then the table's order."""
    keys = [_RANK[f] for f in fans]
    keys.sort()
    return [key & 255 for key in keys]


def fan_record(fan: FanInfo, count: int) -> dict[str, object]:
    """One counted fan in the JSON form."""
    return {"name": fan.zh, "en": fan.en, "points": fan.points, "count": count}


def _with_flowers(fans: Fans, flowers: int) -> int:
    """Add the flowers to the fans; return the total without them."""
    base_total = 0
    for f, n in fans.items():
        base_total += POINTS[f] * n
    if flowers:
        fans[F.FLOWER_TILES] = flowers
    return base_total


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


def _fan_counts(fans: Fans) -> tuple[FanCount, ...]:
    """Counted fans, highest first (FanCount objects are shared: they are immutable)."""
    out = []
    for f in ranked(fans):
        n = fans[f]
        shared = _FAN_COUNTS[f]
        counted = shared[n] if n < len(shared) else None
        if counted is None:
            counted = FanCount(FANS[f], n)
            if n < len(shared):
                shared[n] = counted
        out.append(counted)
    return tuple(out)


_RANK = [(100 - POINTS[f]) << 8 | f if f else 0 for f in range(len(POINTS))]
"""Sort key of each fan id: highest points first, then the table's order."""
_FAN_COUNTS: list[list[FanCount | None]] = [[None] * 9 for _ in range(len(POINTS))]
"""Shared FanCount objects by fan id and count (counts above 8 are built each time)."""


def _check_situation(
    melds: tuple[Meld, ...], win: int, context: WinContext, concealed: list[int], total: list[int]
) -> bool:
    """Reject contradictory situations; return the effective 和绝张 flag."""
    most = 0
    for n in total:
        if n > most:
            most = n
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
    visible = sum(
        m.tile <= win <= m.tile + 2 if m.kind is MeldKind.CHOW else 3 * (m.tile == win)
        for m in melds
        if m.is_exposed
    )
    return visible == 3


# --------------------------------------------------------------------------- chow combinations


def _pair_fan(a: int, b: int) -> FanId | None:
    """The one-fan relation between two chows (lowest tiles), if any."""
    if a == b:
        return F.PURE_DOUBLE_CHOW
    sa, sb = a // 9, b // 9
    if sa != sb:
        return F.MIXED_DOUBLE_CHOW if a % 9 == b % 9 else None
    d = abs(a - b)
    if d == 3:
        return F.SHORT_STRAIGHT
    if d == 6:
        return F.TWO_TERMINAL_CHOWS
    return None


def _three_chow_fan(a: int, b: int, c: int) -> FanId | None:
    """The three-chow fan of three chows sorted by lowest tile, if any."""
    sa, sb, sc = a // 9, b // 9, c // 9
    if sa == sb == sc:
        if a == b == c:
            return F.PURE_TRIPLE_CHOW
        if a % 9 == 0 and b == a + 3 and c == a + 6:
            return F.PURE_STRAIGHT
        if (b - a == c - b == 1) or (b - a == c - b == 2):
            return F.PURE_SHIFTED_CHOWS
        return None
    if sa != sb and sb != sc and sa != sc:
        ranks = sorted((a % 9, b % 9, c % 9))
        if ranks[0] == ranks[2]:
            return F.MIXED_TRIPLE_CHOW
        if ranks == [0, 3, 6]:
            return F.MIXED_STRAIGHT
        if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[0] + 2:
            return F.MIXED_SHIFTED_CHOWS
    return None


def _four_chow_fan(chows: list[int], pair: int) -> FanId | None:
    """The four-chow fan of four sorted chows, if any."""
    a, b, c, d = chows
    if a // 9 == d // 9:
        if a == d:
            return F.QUADRUPLE_CHOW
        step = b - a
        if step in (1, 2) and c - b == step and d - c == step:
            return F.FOUR_PURE_SHIFTED_CHOWS
        if a == b and c == d and a % 9 == 0 and c == a + 6 and pair == a + 4:
            return F.PURE_TERMINAL_CHOWS
        return None
    # 三色双龙会: 123+789 in two suits and a pair of 5 in the third.
    if pair < 27 and pair % 9 == 4:
        suits = {x // 9 for x in chows}
        if len(suits) == 2 and pair // 9 not in suits:
            ranks = sorted(x % 9 for x in chows)
            if ranks == [0, 0, 6, 6] and all(
                (x - 6 if x % 9 == 6 else x + 6) in chows for x in chows
            ):
                return F.THREE_SUITED_TERMINAL_CHOWS
    return None


def _chow_fans(chows: list[int], pair: int, fans: Fans, notes: list[Note] | None) -> None:
    """Add the chow-combination fans of a reading (§5.5)."""
    n = len(chows)
    if n < 2:
        return
    chows = sorted(chows)
    if n == 4:
        four = _four_chow_fan(chows, pair)
        if four is not None:
            fans[four] = 1
            if notes is not None:
                triples = combinations(range(4), 3)
                inside = [_three_chow_fan(*(chows[i] for i in t)) for t in triples]
                inside += [_pair_fan(chows[i], chows[j]) for i, j in combinations(range(4), 2)]
                for f in sorted({f for f in inside if f is not None}):
                    notes.append((f, 1, four, NON_SEPARATION, "formed by its own chows"))
            return
    if n >= 3:
        best: tuple[int, FanId, FanId | None, tuple[int, ...]] | None = None
        triple: tuple[int, ...]
        for triple in combinations(range(n), 3):
            fan = _three_chow_fan(*(chows[i] for i in triple))
            if fan is None:
                continue
            extra = None
            if n == 4:
                (rest,) = (i for i in range(4) if i not in triple)
                found = [_pair_fan(chows[rest], chows[i]) for i in triple]
                found_fans = sorted(f for f in found if f is not None)
                extra = found_fans[0] if found_fans else None
            value = POINTS[fan] + (1 if extra else 0)
            if best is None or value > best[0]:
                best = (value, fan, extra, triple)
        if best is not None:
            _, fan, extra, triple = best
            fans[fan] = 1
            if extra is not None:
                fans[extra] = fans.get(extra, 0) + 1
            if notes is not None:
                pairs = [_pair_fan(chows[i], chows[j]) for i, j in combinations(triple, 2)]
                for pair_fan in pairs:
                    if pair_fan is not None:
                        notes.append(
                            (pair_fan, 1, fan, NON_SEPARATION, "pair inside the three chows")
                        )
                if n == 4:
                    notes.append(
                        (fan, 0, fan, ACCOUNT_ONCE, "the fourth chow combines at most once")
                    )
            return
    # Only pair fans: count the edges of a spanning forest, preferring lower fan ids.
    edges = []
    for i, j in combinations(range(n), 2):
        edge = _pair_fan(chows[i], chows[j])
        if edge is not None:
            edges.append((edge, i, j))
    if not edges:
        return
    edges.sort()
    parent = list(range(n))

    def root(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for f, i, j in edges:
        ri, rj = root(i), root(j)
        if ri == rj:
            if notes is not None:
                notes.append((f, 1, None, ACCOUNT_ONCE, "both chows already combined"))
            continue
        parent[ri] = rj
        fans[f] = fans.get(f, 0) + 1


# --------------------------------------------------------------------------- one hand


class _HandScorer:
    """Scores every reading of one hand; facts shared by all readings are computed once."""

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
        self.ctx = context
        self.opt = options
        self.explain = explain
        self.alternatives: list[Alternative] = []
        self.win = win
        self.concealed = concealed
        total = list(concealed)
        for m in melds:
            if m.kind is MeldKind.CHOW:
                total[m.tile] += 1
                total[m.tile + 1] += 1
                total[m.tile + 2] += 1
            else:
                total[m.tile] += 4 if m.kind is MeldKind.KONG else 3
        self.total = total
        fourth_tile = _check_situation(melds, win, context, concealed, total)
        self.exposed_melds = sum(1 for m in melds if m.is_exposed)
        self.situational = self._situational(fourth_tile)
        self._unique_wait: bool | None = None

    # ---- facts about the whole hand

    def _situational(self, fourth_tile: bool) -> Fans:
        ctx = self.ctx
        fans: Fans = {}
        if ctx.self_drawn:
            fans[F.SELF_DRAWN] = 1
            if ctx.last_tile:
                fans[F.LAST_TILE_DRAW] = 1
            if ctx.kong:
                fans[F.OUT_WITH_REPLACEMENT_TILE] = 1
        else:
            if ctx.last_tile:
                fans[F.LAST_TILE_CLAIM] = 1
            if ctx.kong:
                fans[F.ROBBING_THE_KONG] = 1
        if fourth_tile:
            fans[F.LAST_TILE] = 1
        return fans

    def _tile_fans(self, seven_pairs: bool) -> Fans:
        """Fans decided by which tiles the hand holds (flushes, ranges, voided suits, 四归一)."""
        total = self.total
        fans: Fans = {}
        present = 0
        hog = False
        for t in range(NUM_KINDS):
            n = total[t]
            if n:
                present |= 1 << t
                hog = hog or n == 4
        suits = sum(1 for mask in _SUIT_MASKS if present & mask)
        if not present & ~_GREEN_MASK:
            fans[F.ALL_GREEN] = 1
        if not present & _HONOR_MASK:
            fans[F.NO_HONORS] = 1
            if suits == 1:
                fans[F.FULL_FLUSH] = 1
            if not present & ~_UPPER_MASK:
                fans[F.UPPER_TILES] = 1
            if not present & ~_MIDDLE_MASK:
                fans[F.MIDDLE_TILES] = 1
            if not present & ~_LOWER_MASK:
                fans[F.LOWER_TILES] = 1
            if not present & ~_UPPER_FOUR_MASK:
                fans[F.UPPER_FOUR] = 1
            if not present & ~_LOWER_FOUR_MASK:
                fans[F.LOWER_FOUR] = 1
            if not present & ~_TERMINAL_MASK:
                fans[F.ALL_TERMINALS] = 1
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
        elif suits == 3 and present & _WIND_MASK and present & _DRAGON_MASK:
            fans[F.ALL_TYPES] = 1
        if hog:
            kongs = {m.tile for m in self.melds if m.kind is MeldKind.KONG}
            hogs = sum(1 for t in range(NUM_KINDS) if total[t] == 4 and t not in kongs)
            if hogs:
                fans[F.TILE_HOG] = hogs
        if seven_pairs:
            if self.opt.no_tile_hog_in_green_terminal_pairs and (
                F.ALL_GREEN in fans or F.ALL_TERMINALS in fans
            ):
                fans.pop(F.TILE_HOG, None)
            if self.opt.strict_1998_seven_pairs:
                for f in _SET_DEFINED_TILE_FANS:
                    fans.pop(f, None)
        return fans

    def unique_wait(self) -> bool:
        """Whether the 13 tiles before the win waited on the winning kind alone (§5.7).

        The wait set is that of the regular shape, plus seven pairs when nothing is declared;
        kinds count even when all four copies are held.
        """
        if self._unique_wait is None:
            before = list(self.concealed)
            win = self.win
            before[win] -= 1
            pair_wait = None if self.melds else seven_pairs_wait(before)
            if (pair_wait is not None and pair_wait != win) or has_other_regular_wait(before, win):
                self._unique_wait = False
            else:
                before[win] += 1
                self._unique_wait = pair_wait == win or is_regular_complete(before)
        return self._unique_wait

    # ---- readings

    def best(self) -> Candidate | None:
        """The highest-scoring reading: (fans, notes, view), or None if no shape fits."""
        candidates: list[Candidate] = []
        melds = self.melds
        tile_fans: Fans | None = None
        for reading in regular_readings(self.concealed):
            if tile_fans is None:
                tile_fans = self._tile_fans(False)
            candidates.append(self._regular(reading, melds, tile_fans))
        c = self.concealed
        kinds = 0
        for n in c:
            if n:
                kinds += 1
        if not melds:
            if kinds <= 7 and is_seven_pairs(c):
                candidates.append(self._seven_pairs())
            if kinds == 13 and is_thirteen_orphans(c):
                candidates.append(self._special(F.THIRTEEN_ORPHANS, "thirteen orphans"))
            knitted = honors_knitted_set(c) if kinds == 14 else None
            if knitted is not None:
                honors = sum(1 for t in range(27, 34) if c[t])
                if honors == 7:
                    candidates.append(
                        self._special(F.GREATER_HONORS_AND_KNITTED, "honours and knitted")
                    )
                else:
                    extra = F.KNITTED_STRAIGHT if sum(c[t] for t in knitted) == 9 else None
                    candidates.append(
                        self._special(F.LESSER_HONORS_AND_KNITTED, "honours and knitted", extra)
                    )
        if len(melds) <= 1 and kinds >= 9:
            found = knitted_straight_rest(c)
            if found is not None:
                knitted, rest = found
                for reading in regular_readings(rest):
                    candidates.append(self._knitted_straight(knitted, reading))
        if not candidates:
            return None
        if len(candidates) == 1 and not self.explain:
            return candidates[0]
        totals = [sum(POINTS[f] * n for f, n in fans.items()) for fans, _, _ in candidates]
        # Ties change only the names: prefer 一色三同顺 / 三同刻 readings, as the reference does.
        best_index = max(
            range(len(candidates)),
            key=lambda i: (
                totals[i],
                F.PURE_TRIPLE_CHOW in candidates[i][0] or F.TRIPLE_PUNG in candidates[i][0],
                -i,
            ),
        )
        if self.explain:
            self.alternatives = [
                Alternative(candidates[i][2](), totals[i], _fan_counts(candidates[i][0]))
                for i in range(len(candidates))
                if i != best_index
            ]
        return candidates[best_index]

    def _finish(self, fans: Fans, notes: list[Note] | None) -> Fans:
        """Apply the non-repeat table, then 无番和 if nothing is left."""
        opt = self.opt
        for fan in ranked(fans):
            if fan not in fans:
                continue
            implied = IMPLIES.get(fan)
            if implied:
                for other in implied:
                    if other in fans:
                        if (
                            other == F.CONCEALED_HAND
                            and opt.special_shapes_add_concealed_hand
                            and (fan in _SPECIAL_SHAPES)
                        ):
                            continue
                        n = fans.pop(other)
                        if notes is not None:
                            notes.append((other, n, fan, NON_REPEAT, ""))
            if fan == F.NINE_GATES and F.PUNG_OF_TERMINALS_OR_HONORS in fans:
                drop = fans[F.PUNG_OF_TERMINALS_OR_HONORS] if opt.nine_gates_no_terminal_pung else 1
                _drop(fans, F.PUNG_OF_TERMINALS_OR_HONORS, drop, fan, notes)
            if fan == F.ALL_TERMINALS and opt.all_terminals_excludes_triple_pung:
                _drop(fans, F.TRIPLE_PUNG, fans.get(F.TRIPLE_PUNG, 0), fan, notes)
        if not fans:
            fans[F.CHICKEN_HAND] = 1
        return fans

    def _special(self, fan: FanId, shape: str, extra: FanId | None = None) -> Candidate:
        notes: list[Note] | None = [] if self.explain else None
        fans: Fans = {fan: 1, **self.situational}
        if extra is not None:
            fans[extra] = 1
        if fan == F.THIRTEEN_ORPHANS:
            fans[F.ALL_TYPES] = 1
        if fan == F.GREATER_HONORS_AND_KNITTED:
            fans[F.LESSER_HONORS_AND_KNITTED] = 1
        if fan != F.THIRTEEN_ORPHANS and F.ALL_TYPES in self._tile_fans(False):
            fans[F.ALL_TYPES] = 1
        self._concealment(fans)
        if self.unique_wait():
            fans[F.SINGLE_WAIT] = 1
        return self._finish(fans, notes), notes, lambda: ReadingView(shape, (), None)

    def _concealment(self, fans: Fans) -> None:
        if self.exposed_melds == 0:
            fans[F.FULLY_CONCEALED_HAND if self.ctx.self_drawn else F.CONCEALED_HAND] = 1

    def _seven_pairs(self) -> Candidate:
        notes: list[Note] | None = [] if self.explain else None
        fans: Fans = {F.SEVEN_PAIRS: 1, **self._tile_fans(True), **self.situational}
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
        return (
            self._finish(fans, notes),
            notes,
            lambda: ReadingView("seven pairs", (), " ".join(tile_name(t) * 2 for t in pairs)),
        )

    def _regular(self, reading: Reading, melds: tuple[Meld, ...], tile_fans: Fans) -> Candidate:
        notes: list[Note] | None = [] if self.explain else None
        fans: Fans = {**tile_fans, **self.situational}
        pair, conc_chows, conc_pungs = reading
        chows = [m.tile for m in melds if m.kind is MeldKind.CHOW]
        chows.extend(conc_chows)
        self._set_fans(reading, melds, chows, fans, notes)
        self._concealment(fans)
        if self.exposed_melds == 4 and not self.ctx.self_drawn:
            fans[F.MELDED_HAND] = 1
        nine_gates = self._is_nine_gates()
        if nine_gates:
            fans[F.NINE_GATES] = 1
        # The structure fans.
        if len(chows) == 4 and pair < 27:
            fans[F.ALL_CHOWS] = 1
        outside = pair in TERMINALS_AND_HONORS
        fives = pair < 27 and pair % 9 == 4
        if outside or fives:
            for c in chows:
                rank = c % 9
                outside = outside and rank in (0, 6)
                fives = fives and 2 <= rank <= 4
            for t in conc_pungs:
                outside = outside and t in TERMINALS_AND_HONORS
                fives = fives and t < 27 and t % 9 == 4
            for m in melds:
                if m.kind is not MeldKind.CHOW:
                    outside = outside and m.tile in TERMINALS_AND_HONORS
                    fives = fives and m.tile < 27 and m.tile % 9 == 4
            if outside:
                fans[F.OUTSIDE_HAND] = 1
            if fives:
                fans[F.ALL_FIVES] = 1
        self._wait_fans(reading, fans)
        return self._finish(fans, notes), notes, lambda: _regular_view(reading, melds, "regular")

    def _is_nine_gates(self) -> bool:
        if self.melds:
            return False
        before = list(self.concealed)
        before[self.win] -= 1
        base = self.win - self.win % 9
        if self.win >= 27:
            return False
        return before[base : base + 9] == [3, 1, 1, 1, 1, 1, 1, 1, 3]

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
            rest[t] -= 1
        if not rest[win]:
            return  # the winning tile only completes the knitted nine
        rest[win] -= 1
        if regular_waits(rest) == [win]:
            self._wait_fans(reading, fans, knitted, unique=True)

    def _wait_fans(
        self,
        reading: Reading,
        fans: Fans,
        knitted: frozenset[int] | None = None,
        unique: bool | None = None,
    ) -> None:
        """边张 / 坎张 / 单钓将 for a unique wait, placed in this reading (one at most)."""
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
        if not (self.unique_wait() if unique is None else unique):
            return
        if edge:
            fans[F.EDGE_WAIT] = 1
        elif closed:
            fans[F.CLOSED_WAIT] = 1
        else:
            fans[F.SINGLE_WAIT] = 1

    def _set_fans(
        self,
        reading: Reading,
        melds: tuple[Meld, ...],
        chows: list[int],
        fans: Fans,
        notes: list[Note] | None,
    ) -> None:
        """Pung, kong and chow fans of a regular (or knitted-straight) reading."""
        ctx = self.ctx
        win = self.win
        pair, conc_chows, conc_pungs = reading
        pungs: list[int] = []
        concealed_pungs = 0
        melded_kongs = concealed_kongs = 0
        for m in melds:
            if m.kind is MeldKind.CHOW:
                continue
            pungs.append(m.tile)
            if m.kind is MeldKind.KONG:
                if m.is_concealed_kong:
                    concealed_kongs += 1
                    concealed_pungs += 1
                else:
                    melded_kongs += 1
        for t in conc_pungs:
            pungs.append(t)
            if (
                t == win
                and not ctx.self_drawn
                and not any(c <= win <= c + 2 and c // 9 == win // 9 for c in conc_chows)
            ):
                continue  # completed by the winning discard: an exposed pung
            concealed_pungs += 1
        if pungs:
            self._pung_fans(pungs, pair, fans, notes)
        # Kong series.
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
        ctx = self.ctx
        seat = 27 + ctx.seat_wind
        prevalent = 27 + ctx.prevalent_wind
        if len(pungs) == 4:
            fans[F.ALL_PUNGS] = 1
        winds = [t for t in pungs if 27 <= t <= 30]
        dragons = [t for t in pungs if t >= 31]
        big_winds = len(winds) >= 3
        if len(winds) == 4:
            fans[F.BIG_FOUR_WINDS] = 1
            fans[F.BIG_THREE_WINDS] = 1
        elif len(winds) == 3:
            fans[F.LITTLE_FOUR_WINDS if 27 <= pair <= 30 else F.BIG_THREE_WINDS] = 1
            if 27 <= pair <= 30:
                fans[F.BIG_THREE_WINDS] = 1
        if len(dragons) == 3:
            fans[F.BIG_THREE_DRAGONS] = 1
            fans[F.TWO_DRAGON_PUNGS] = 1
        elif len(dragons) == 2:
            if pair >= 31:
                fans[F.LITTLE_THREE_DRAGONS] = 1
            fans[F.TWO_DRAGON_PUNGS] = 1
        if dragons:
            fans[F.DRAGON_PUNG] = len(dragons)
        terminal_pungs = 0
        for t in pungs:
            if t in TERMINALS:
                terminal_pungs += 1
            elif 27 <= t <= 30:
                if t == prevalent:
                    fans[F.PREVALENT_WIND] = 1
                if t == seat:
                    fans[F.SEAT_WIND] = 1
                if big_winds or t in (prevalent, seat):
                    if notes is not None:
                        if len(winds) == 4:
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
        suited = sorted(t for t in pungs if t < 27)
        if len(suited) >= 2:
            by_rank: dict[int, int] = {}
            for t in suited:
                by_rank[t % 9] = by_rank.get(t % 9, 0) + 1
            doubles = 0
            for n in by_rank.values():
                if n == 3:
                    fans[F.TRIPLE_PUNG] = 1
                    doubles += 1  # the implied Double Pung, dropped by the table
                elif n == 2:
                    doubles += 1
            if doubles:
                fans[F.DOUBLE_PUNG] = doubles
            tiles = set(suited)
            for t in suited:
                if t % 9 <= 6 and t + 1 in tiles and t + 2 in tiles:
                    if t % 9 <= 5 and t + 3 in tiles:
                        fans[F.FOUR_PURE_SHIFTED_PUNGS] = 1
                    fans[F.PURE_SHIFTED_PUNGS] = 1
            if len(suited) >= 3 and len({t // 9 for t in suited}) == 3:
                for a, b, c in combinations(suited, 3):
                    if a // 9 != b // 9 != c // 9 != a // 9:
                        ranks = sorted((a % 9, b % 9, c % 9))
                        if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[0] + 2:
                            fans[F.MIXED_SHIFTED_PUNGS] = 1
            if (
                len(suited) == 4
                and pair < 27
                and all(t % 9 in (1, 3, 5, 7) for t in suited)
                and pair % 9 in (1, 3, 5, 7)
            ):
                fans[F.ALL_EVEN_PUNGS] = 1

    def _knitted_straight(self, knitted: frozenset[int], reading: Reading) -> Candidate:
        notes: list[Note] | None = [] if self.explain else None
        melds = self.melds
        fans: Fans = {F.KNITTED_STRAIGHT: 1, **self.situational}
        tile_fans = self._tile_fans(False)
        for f in (F.ALL_TYPES, F.NO_HONORS, F.TILE_HOG):
            if f in tile_fans:
                fans[f] = tile_fans[f]
        pair, conc_chows, _ = reading
        chows = [m.tile for m in melds if m.kind is MeldKind.CHOW]
        chows.extend(conc_chows)
        self._set_fans(reading, melds, [], fans, notes)
        self._concealment(fans)
        if len(chows) == 1 and pair < 27:
            fans[F.ALL_CHOWS] = 1
        self._knitted_wait_fans(knitted, reading, fans)
        sets = ("".join(tile_name(t) for t in sorted(knitted)),)
        return (
            self._finish(fans, notes),
            notes,
            lambda: _regular_view(reading, melds, "knitted straight", sets),
        )


def _mask(tiles: object) -> int:
    return sum(1 << t for t in tiles)  # type: ignore[attr-defined]


_SUIT_MASKS = tuple(_mask(range(base, base + 9)) for base in (0, 9, 18))
_HONOR_MASK = _mask(range(27, 34))
_WIND_MASK = _mask(range(27, 31))
_DRAGON_MASK = _mask(range(31, 34))
_GREEN_MASK = _mask(GREEN_TILES)
_REVERSIBLE_MASK = _mask(REVERSIBLE_TILES)
_TERMINAL_MASK = _mask(TERMINALS)
_ORPHAN_MASK = _mask(TERMINALS_AND_HONORS)
_UPPER_MASK = _mask(t for t in range(27) if t % 9 >= 6)
_MIDDLE_MASK = _mask(t for t in range(27) if 3 <= t % 9 <= 5)
_LOWER_MASK = _mask(t for t in range(27) if t % 9 <= 2)
_UPPER_FOUR_MASK = _mask(t for t in range(27) if t % 9 >= 5)
_LOWER_FOUR_MASK = _mask(t for t in range(27) if t % 9 <= 3)

_SPECIAL_SHAPES = frozenset(
    {
        F.SEVEN_PAIRS,
        F.SEVEN_SHIFTED_PAIRS,
        F.THIRTEEN_ORPHANS,
        F.LESSER_HONORS_AND_KNITTED,
        F.GREATER_HONORS_AND_KNITTED,
    }
)
_SET_DEFINED_TILE_FANS = (
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
    sets.extend(format_tiles([c, c + 1, c + 2]) for c in reading.chows)
    sets.extend(format_tiles([t] * 3) for t in reading.pungs)
    pair = format_tiles([reading.pair] * 2)
    return ReadingView(shape, tuple(sets), pair)


__all__ = [
    "MIN_FANS",
    "Alternative",
    "Exclusion",
    "FanCount",
    "ReadingView",
    "Score",
    "counted_fans",
    "fan_record",
    "ranked",
    "score_hand",
]
_ = NON_IDENTICAL
