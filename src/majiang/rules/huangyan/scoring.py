"""Scoring Huangyan hands: the winner (rules/huangyan.md §4) and each loser's own count (§5.1-5.3).

The winner's hand is read every way it can be: each 得 in the concealed part takes every identity
(all 34; one used as the wild face itself is *restored*), the concealed tiles are split into sets
and a pair every way, and the winning tile is placed in every group that can hold it (which
decides 嵌 and whether a pung completed by a discard is exposed, A7). The reading with the largest
``(hu + base) × 2^fan`` counts (§4.1). Losers count by identity only: no wild, no decomposition.

Entry points: :func:`score_winner` (a parsed hand), :func:`score_huangyan` (notation and friendly
arguments), :func:`check_win` (for a rule set: None when the hand cannot win), :func:`score_loser`,
:func:`is_winning_shape` (the cheap test before scoring).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any

from ...errors import InvalidHandError, NotationError, NotWinningError, SituationError
from ...hand import Hand, MeldKind, WinContext
from ...notation import format_tiles, parse_tiles
from ...shanten import wild_regular_shanten
from ...shapes import SUIT_KEY_STEPS, Reading, readings_of_keys, suit_key
from ...tiles import NUM_KINDS, WHITE, WINDS, tile_name
from .notation import check_tiles, format_huangyan_hand, format_meld, parse_huangyan_hand
from .options import DEFAULT_OPTIONS, HuangyanOptions
from .wild import WILD_TILES, Wild

# Group kinds; the first five index the hu tables.
PAIR, PUNG, CONCEALED_PUNG, KONG, CONCEALED_KONG, CHOW = range(6)

WINNER_SEAT_WIND = (2, 8, 16, 32, 64)
"""§4.2, the seat-wind column (winner only): pair, exposed pung, concealed pung, exposed kong,
concealed kong."""
HARD = (2, 4, 8, 16, 32)
"""Hard tiles (other winds, live dragons, 1 and 9); a pair scores 2 only for a live dragon (and,
for a loser, his seat wind)."""
SOFT = (0, 2, 4, 8, 16)
"""Soft tiles (2-8, and a dead dragon face)."""

SELF_DRAW_HU = 2
CLOSED_WAIT_HU = 2
HALF_FLUSH_FAN = 1
RESTORED_FAN = 1
LAZI = 300
"""The seed's 辣子; the ``limit`` option may lower it or switch it off (0)."""

_KIND_ZH = ("对子", "明刻", "暗刻", "明杠", "暗杠", "顺子")
_KIND_EN = ("pair", "exposed pung", "concealed pung", "exposed kong", "concealed kong", "chow")

# Where the winning tile sits: (group kind, identity or chow start, bonus name), or None for a
# self-drawn 得 used as a wild (no wait bonus).
Placement = tuple[int, int, str] | None


def round_up_10(value: int) -> int:
    """132 -> 140, 140 -> 140, 0 -> 0 (§4.4)."""
    return -(-value // 10) * 10


def cap(total: int, options: HuangyanOptions) -> int:
    """The limit (辣子) applied to a rounded total; ``limit`` 0 is no limit."""
    return min(total, options.limit) if options.limit else total


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class HuItem:
    """One source of hu: a group of the reading or a bonus; ``tiles`` is how it is read."""

    zh: str
    en: str
    tiles: str
    hu: int

    def __str__(self) -> str:
        tiles = f" {self.tiles}" if self.tiles else ""
        return f"{self.zh} {self.en}{tiles}: {self.hu} hu"


@dataclass(frozen=True, slots=True)
class FanItem:
    """One doubling item; ``fan`` is its fan in all (``count`` times the fan of one)."""

    zh: str
    en: str
    fan: int
    count: int = 1

    def __str__(self) -> str:
        times = f" ×{self.count}" if self.count > 1 else ""
        return f"{self.zh} {self.en}{times}: +{self.fan} fan"


def _items_json(items: tuple[HuItem, ...], fans: tuple[FanItem, ...]) -> dict[str, object]:
    """The JSON form of hu items and fan items (``items`` and ``fans``)."""
    return {
        "items": [{"zh": i.zh, "en": i.en, "tiles": i.tiles, "hu": i.hu} for i in items],
        "fans": [{"zh": f.zh, "en": f.en, "fan": f.fan, "count": f.count} for f in fans],
    }


def _set_fans(seat_fans: int, dragon_fans: int) -> list[FanItem]:
    """The fan items of pungs and kongs of the seat wind and of a live dragon (§4.3, §5.2)."""
    fans: list[FanItem] = []
    if seat_fans:
        fans.append(FanItem("门风刻杠", "seat-wind pung/kong", seat_fans, seat_fans))
    if dragon_fans:
        fans.append(FanItem("字牌刻杠", "dragon pung/kong", dragon_fans, dragon_fans))
    return fans


def _group_class(wild: Wild, seat: int, ident: int) -> tuple[str, str]:
    """(Chinese prefix, English words) of a group's class: seat wind, dragon, dead face, hard
    or soft."""
    if ident == seat:
        return "门风", "of the seat wind"
    if wild.is_live_dragon(ident):
        return "字牌", "of a dragon"
    if wild.is_dead(ident):
        return "", "of the dead face"
    return ("", "(hard)") if wild.is_hard(ident) else ("", "(soft)")


@dataclass(frozen=True, slots=True)
class Alternative:
    """Another reading of the winner's tiles (only with ``explain``)."""

    reading: str
    hu: int
    fan: int
    raw: int
    total: int


@dataclass(frozen=True, slots=True)
class HuangyanScore:
    """The winner's score. ``total`` is what each loser pays him in hu (§4.5)."""

    total: int
    raw: int
    """``(hu + base) × 2^fan`` of the chosen reading, before rounding and the limit."""
    hu: int
    fan: int
    items: tuple[HuItem, ...]
    fans: tuple[FanItem, ...]
    reading: str
    """The chosen reading: sets as declared, then concealed groups, 得 tiles as ``3p*(as 8p)``."""
    wild: Wild
    wilds: int
    """得 tiles in the hand (a self-drawn winning 得 included)."""
    restored: int
    limit: bool
    """辣子: the limit was reached (or three 得)."""
    three_wilds: bool
    self_drawn: bool
    win_tile: int
    base: int
    alternatives: tuple[Alternative, ...] = field(default=())

    def explain(self) -> str:
        """Every item of the count, one per line, and the arithmetic."""
        win = f"win {tile_name(self.win_tile)} ({'self-drawn' if self.self_drawn else 'discard'})"
        lines = [self.wild.describe(), f"reading: {self.reading}; {win}"]
        lines += [f"  {item}" for item in self.items]
        lines.append(f"hu = {self.hu}")
        lines += [f"  {fan}" for fan in self.fans]
        lines.append(f"fan = {self.fan}")
        rounded = round_up_10(self.raw)
        arithmetic = f"({self.hu} + {self.base}) × 2^{self.fan} = {self.raw} → {rounded}"
        if self.three_wilds:
            arithmetic += f"; three 得 (三得到辣): {self.total}"
        elif self.total != rounded:
            arithmetic += f" → {self.total} (辣子)"
        elif self.limit:
            arithmetic += " (辣子)"
        lines.append(f"total = {arithmetic}")
        for alt in self.alternatives:
            lines.append(
                f"  other reading: {alt.reading}: hu {alt.hu}, fan {alt.fan}, "
                f"{alt.raw} → {alt.total}"
            )
        return "\n".join(lines)

    def to_dict(self) -> dict[str, object]:
        """JSON form: total, hu, fan, items, fans, reading."""
        return {
            "total": self.total,
            "raw": self.raw,
            "hu": self.hu,
            "fan": self.fan,
            "reading": self.reading,
            **_items_json(self.items, self.fans),
            "wild": tile_name(self.wild.face),
            "limit": self.limit,
            "three_wilds": self.three_wilds,
        }


@dataclass(frozen=True, slots=True)
class LoserScore:
    """A loser's own count (§5.1-5.3): hu items, fans and the total ``I``."""

    total: int
    hu: int
    fan: int
    items: tuple[HuItem, ...]
    fans: tuple[FanItem, ...]
    limit: bool

    def to_dict(self) -> dict[str, object]:
        """JSON form: total, hu, fan, items, fans, limit."""
        return {
            "total": self.total,
            "hu": self.hu,
            "fan": self.fan,
            **_items_json(self.items, self.fans),
            "limit": self.limit,
        }

    def explain(self) -> str:
        """Every item of the count and the arithmetic."""
        lines = [f"  {item}" for item in self.items] or ["  nothing scores"]
        lines.append(f"hu = {self.hu}")
        lines += [f"  {fan}" for fan in self.fans]
        raw = self.hu * 2**self.fan
        lines.append(
            f"total = {self.hu} × 2^{self.fan} = {raw} → {self.total}"
            + (" (辣子)" if self.limit else "")
        )
        return "\n".join(lines)


# --------------------------------------------------------------------------- shapes with 得


def is_winning_shape(counts: list[int] | tuple[int, ...], n_melds: int, wild: Wild) -> bool:
    """Whether concealed tiles (34-slot *face* counts, the winning tile included) plus ``n_melds``
    declared sets make four sets and a pair, the 得 tiles standing for anything (§2.6).

    Exact and cheap (the cached block values of :func:`majiang.shanten.wild_regular_shanten`):
    the engine's ``could_win``.
    """
    if sum(counts) + 3 * n_melds != 14:
        return False
    if max(counts) > 4:
        t = max(range(NUM_KINDS), key=counts.__getitem__)
        raise InvalidHandError(f"{counts[t]} tiles of {tile_name(t)}: there are four of each")
    face = wild.face
    ids = list(counts)  # by identity: the 得 taken out, the white dragons (stand-ins) as F
    ids[face] = 0
    ids[face], ids[WHITE] = ids[WHITE], 0
    return wild_regular_shanten(ids, counts[face], n_melds) < 0


# --------------------------------------------------------------------------- the winner


@dataclass(slots=True)
class _Candidate:
    raw: int
    hu: int
    fan: int
    assign: tuple[int, ...]
    reading: Reading
    placement: Placement


@dataclass(eq=False)
class _Winner:
    """One winning hand: the fixed part (declared sets, situation) and the search."""

    hand: Hand
    wild: Wild
    seat: int
    self_drawn: bool
    kong: bool
    options: HuangyanOptions

    def __post_init__(self) -> None:
        hand, wild, seat = self.hand, self.wild, self.seat
        assert hand.win_tile is not None
        self.win_tile = hand.win_tile
        self.win_is_wild = wild.is_wild(hand.win_tile)
        self.natural = [0] * NUM_KINDS
        self.k = 0
        for t in hand.concealed_with_win:
            if wild.is_wild(t):
                self.k += 1
            else:
                self.natural[wild.identity(t)] += 1
        self.meld_hu = 0
        self.meld_seat = 0
        self.meld_dragon = 0
        self.meld_chows = False
        # The flush tests look at tiles, not groups (§4.3): a wild 得 is ignored whatever it
        # stands for, so the suits and honours of the natural tiles and the declared sets are
        # fixed; only a restored 得 (a tile of face F) adds its own face's class.
        self.suits: set[int] = set()
        self.honours = False
        for ident in range(NUM_KINDS):
            if self.natural[ident]:
                self.note_suit(ident)
        for meld in hand.melds:
            kind = self.meld_kind(meld.kind, meld.source)
            ident = wild.identity(meld.tile)
            self.meld_hu += self.value(kind, ident)
            if kind == CHOW:
                self.meld_chows = True
            else:
                self.meld_seat += ident == seat
                self.meld_dragon += wild.is_live_dragon(ident)
            self.note_suit(ident)

    @staticmethod
    def meld_kind(kind: MeldKind, source: int) -> int:
        if kind is MeldKind.CHOW:
            return CHOW
        if kind is MeldKind.PUNG:
            return PUNG
        return CONCEALED_KONG if source == 0 else KONG

    def note_suit(self, ident: int) -> None:
        if ident < 27:
            self.suits.add(ident // 9)
        elif self.wild.is_honour(ident):
            self.honours = True

    def flush_fan(self, restored: int) -> tuple[str, int]:
        """(name, fan) of the flush of a reading with ``restored`` 得 used as ``F``, or
        ``("", 0)``: the natural tiles and the declared sets decide, wild 得 tiles and the dead
        face are ignored, a restored 得 counts as a tile of face ``F`` (§4.3, A3)."""
        suits = self.suits
        honours = self.honours
        if restored:
            face = self.wild.face
            if face < 27:
                suits = suits | {face // 9}
            elif self.wild.is_honour(face):
                honours = True
        if len(suits) != 1:
            return "", 0
        if honours:
            return "混一色", HALF_FLUSH_FAN
        return "清一色", self.options.full_flush_fan

    def value(self, kind: int, ident: int) -> int:
        """§4.2 hu of one group of the winner."""
        if kind == CHOW:
            return 0
        if ident == self.seat:
            return WINNER_SEAT_WIND[kind]
        if kind == PAIR:
            return 2 if self.wild.is_live_dragon(ident) else 0
        return HARD[kind] if self.wild.is_hard(ident) else SOFT[kind]

    # ------------------------------------------------------------------ search

    @property
    def restored_only(self) -> bool:
        """``wild_self_draw_only`` on a discard win: every 得 must be its own face."""
        return self.options.wild_self_draw_only and not self.self_drawn

    def candidates(self) -> Iterator[_Candidate]:
        """Every (assignment of the 得, reading, placement of the winning tile) worth keeping:
        for each assignment and reading, the placement with the most hu."""
        face = self.wild.face
        identities = (face,) if self.restored_only else range(NUM_KINDS)
        natural = self.natural
        natural_keys = [suit_key(natural, 0), suit_key(natural, 9), suit_key(natural, 18), 0]
        for assign in combinations_with_replacement(identities, self.k):
            counts = list(natural)
            keys = list(natural_keys)
            for t in assign:
                counts[t] += 1
                keys[t // 9] += SUIT_KEY_STEPS[t]  # honours (t // 9 == 3) have no key
            for reading in readings_of_keys(counts, keys[0], keys[1], keys[2]):
                yield self.evaluate(assign, reading, face)

    def evaluate(self, assign: tuple[int, ...], reading: Reading, face: int) -> _Candidate:
        options = self.options
        wild = self.wild
        pair, chows, pungs = reading
        hu = self.meld_hu + self.value(PAIR, pair)
        seat_fans = self.meld_seat
        dragon_fans = self.meld_dragon
        for p in pungs:
            hu += self.value(CONCEALED_PUNG, p)
            seat_fans += p == self.seat
            dragon_fans += wild.is_live_dragon(p)
        delta, placement = self.place(assign, reading, face)
        hu += delta
        if self.self_drawn:
            hu += SELF_DRAW_HU
            if self.kong:
                hu += options.kong_bloom_bonus
        if not chows and not self.meld_chows:
            hu += options.all_pungs_bonus
        restored = assign.count(face)
        fan = seat_fans + dragon_fans + self.flush_fan(restored)[1]
        if not self.k:
            fan += options.no_wild_fan
        elif restored:
            fan += RESTORED_FAN if options.restored_fan_per_hand else RESTORED_FAN * restored
        raw = (hu + options.base_reward) * 2**fan
        return _Candidate(raw, hu, fan, assign, reading, placement)

    def place(self, assign: tuple[int, ...], reading: Reading, face: int) -> tuple[int, Placement]:
        """The best group for the winning tile: (hu it adds, placement)."""
        if self.win_is_wild:
            # A self-drawn 得: as a wild it earns no wait bonus; restored it is a natural F.
            if face not in assign:
                return 0, None
            wins = [face]
            best: tuple[int, Placement] = (0, None)
        else:
            wins = [self.wild.identity(self.win_tile)]
            best = (-(10**9), None)
        pair, chows, pungs = reading
        opts = self.options
        for w in wins:
            for c in sorted(set(chows)):
                if c <= w <= c + 2:
                    if w == c + 1:
                        option: tuple[int, Placement] = (CLOSED_WAIT_HU, (CHOW, c, "嵌"))
                    elif (w == c + 2 and c % 9 == 0) or (w == c and c % 9 == 6):
                        option = (opts.edge_wait_bonus, (CHOW, c, "边"))
                    else:
                        option = (0, (CHOW, c, ""))
                    if option[0] > best[0]:
                        best = option
            if w in pungs:
                if self.self_drawn or opts.discard_pung_concealed:
                    option = (0, (CONCEALED_PUNG, w, ""))
                else:  # A7: completed by a discard, the pung scores as exposed
                    option = (
                        self.value(PUNG, w) - self.value(CONCEALED_PUNG, w),
                        (PUNG, w, "A7"),
                    )
                if option[0] > best[0]:
                    best = option
            if pair == w:
                option = (opts.single_wait_bonus, (PAIR, w, "单吊"))
                if option[0] > best[0]:
                    best = option
        return best

    # ------------------------------------------------------------------ description

    def describe(self, cand: _Candidate) -> tuple[str, list[HuItem], list[FanItem]]:
        """The reading as text, its hu items and its fan items."""
        wild = self.wild
        face = wild.face
        pair, chows, pungs = cand.reading
        natural = list(self.natural)
        wild_pool = [0] * NUM_KINDS
        for t in cand.assign:
            wild_pool[t] += 1

        def token(ident: int) -> str:
            if natural[ident]:
                natural[ident] -= 1
                return tile_name(wild.physical(ident))
            wild_pool[ident] -= 1
            star = f"{tile_name(face)}*"
            return star if ident == face else f"{star}(as {tile_name(ident)})"

        groups: list[tuple[int, int]] = [(CONCEALED_PUNG, p) for p in pungs]
        groups += [(CHOW, c) for c in chows]
        groups.append((PAIR, pair))
        placement = cand.placement
        if placement is not None:  # the winning tile's group is filled first
            key = (CONCEALED_PUNG if placement[0] == PUNG else placement[0], placement[1])
            groups.remove(key)
            groups.insert(0, key)
            if self.win_is_wild:
                wild_pool[face] -= 1  # the winning 得, restored
            else:
                natural[wild.identity(self.win_tile)] -= 1
        texts: list[str] = []
        for index, (kind, ident) in enumerate(groups):
            if kind == CHOW:
                slots = [ident, ident + 1, ident + 2]
            else:
                slots = [ident] * (2 if kind == PAIR else 3)
            shown: list[tuple[int, str]] = []
            if index == 0 and placement is not None:
                w = face if self.win_is_wild else wild.identity(self.win_tile)
                slots.remove(w)
                shown.append((w, tile_name(self.win_tile) + ("*" if self.win_is_wild else "")))
            shown += [(s, token(s)) for s in slots]
            shown.sort(key=lambda pair_: pair_[0])
            texts.append(_join([text for _, text in shown]))

        items: list[HuItem] = []
        seat_fans = dragon_fans = 0
        for meld in self.hand.melds:
            kind = self.meld_kind(meld.kind, meld.source)
            ident = wild.identity(meld.tile)
            items.append(self.group_item(kind, ident, format_meld(meld, wild)))
            if kind != CHOW:
                seat_fans += ident == self.seat
                dragon_fans += wild.is_live_dragon(ident)
        shown_order = sorted(range(len(groups)), key=lambda i: (groups[i][0] == PAIR,
                                                                 groups[i][0] == CHOW, i))
        for index in shown_order:
            kind, ident = groups[index]
            if index == 0 and placement is not None and placement[0] == PUNG:
                kind = PUNG
            item = self.group_item(kind, ident, texts[index])
            if index == 0 and placement is not None and placement[0] == PUNG:
                item = HuItem(item.zh, item.en + ", completed by the discard (A7)", item.tiles,
                              item.hu)
            items.append(item)
            if kind in (PUNG, CONCEALED_PUNG):
                seat_fans += ident == self.seat
                dragon_fans += wild.is_live_dragon(ident)
        opts = self.options
        win_name = tile_name(self.win_tile)
        if placement is not None and placement[2] == "嵌":
            items.append(HuItem("嵌档", "closed wait", f"{win_name} in the middle", CLOSED_WAIT_HU))
        if placement is not None and placement[2] == "边" and opts.edge_wait_bonus:
            items.append(HuItem("边张", "edge wait", win_name, opts.edge_wait_bonus))
        if placement is not None and placement[2] == "单吊" and opts.single_wait_bonus:
            items.append(HuItem("单吊", "single wait", win_name, opts.single_wait_bonus))
        if self.self_drawn:
            items.append(HuItem("自摸", "self-drawn", "", SELF_DRAW_HU))
            if self.kong and opts.kong_bloom_bonus:
                items.append(HuItem("杠上花", "win on a kong replacement", "",
                                    opts.kong_bloom_bonus))
        if not chows and not self.meld_chows and opts.all_pungs_bonus:
            items.append(HuItem("对对和", "all pungs", "", opts.all_pungs_bonus))

        fans = _set_fans(seat_fans, dragon_fans)
        restored = cand.assign.count(face)
        flush, flush_fan = self.flush_fan(restored)
        if flush_fan:
            english = "half flush" if flush == "混一色" else "full flush"
            fans.append(FanItem(flush, english, flush_fan))
        if not self.k:
            if opts.no_wild_fan:
                fans.append(FanItem("无得", "no 得", opts.no_wild_fan))
        elif restored:
            count = 1 if opts.restored_fan_per_hand else restored
            fans.append(FanItem("得还原", "restored 得", RESTORED_FAN * count, count))
        reading_text = " ".join(
            [format_meld(m, wild) for m in self.hand.melds] + [texts[i] for i in shown_order]
        )
        return reading_text, items, fans

    def group_item(self, kind: int, ident: int, tiles: str) -> HuItem:
        """A group as a hu item with its class (seat wind, hard, soft, dead face)."""
        wild = self.wild
        hu = self.value(kind, ident)
        if kind == CHOW:
            return HuItem("顺子", "chow", tiles, 0)
        cls = _group_class(wild, self.seat, ident)
        return HuItem(cls[0] + _KIND_ZH[kind], f"{_KIND_EN[kind]} {cls[1]}", tiles, hu)


def _join(tokens: list[str]) -> str:
    """One group's tiles: runs of plain faces in the notation (``PP``, ``123m``), 得 apart."""
    parts: list[str] = []
    run: list[int] = []
    for tok in tokens:
        if "*" in tok:
            if run:
                parts.append(format_tiles(run))
                run = []
            parts.append(tok)
        else:
            run.extend(parse_tiles(tok))
    if run:
        parts.append(format_tiles(run))
    return " ".join(parts)


MAX_ALTERNATIVES = 5


def score_winner(
    hand: Hand,
    wild: Wild | str | int,
    *,
    seat_wind: int = 0,
    self_drawn: bool = False,
    kong: bool = False,
    options: HuangyanOptions = DEFAULT_OPTIONS,
    explain: bool = False,
) -> HuangyanScore:
    """Score a complete hand (14 tiles, winning tile last) for its winner, seat wind 0-3.

    ``kong``: with a self-draw, the winning tile was a kong replacement (杠上花); on a discard, it
    was robbed from an added kong (抢杠, scored as a discard win). Raises ``NotWinningError``,
    ``SituationError`` (a 得 won on a discard, robbing when the option forbids it) or
    ``InvalidHandError``.
    """
    w = _wild(wild, options)
    _check_winner(hand, w, seat_wind, self_drawn, kong, options)
    counts = [0] * NUM_KINDS
    for t in hand.concealed_with_win:
        counts[t] += 1
    if not is_winning_shape(counts, len(hand.melds), w):
        raise NotWinningError(
            f"not a winning hand: {_text(hand, w)} is not four sets and a pair "
            f"with {tile_name(w.face)} wild"
        )
    winner = _Winner(hand, w, WINDS[seat_wind], self_drawn, kong, options)
    best: _Candidate | None = None
    kept: list[_Candidate] = []
    for cand in winner.candidates():
        if best is None or (cand.raw, cand.hu) > (best.raw, best.hu):
            best = cand
        if explain:
            kept.append(cand)
    if best is None:
        if winner.restored_only:
            raise NotWinningError(
                f"not a winning hand on a discard: {_text(hand, w)} needs a 得 standing for "
                f"another tile, and wild_self_draw_only allows that only self-drawn"
            )
        raise NotWinningError(f"not a winning hand: {_text(hand, w)}")  # pragma: no cover
    reading, items, fans = winner.describe(best)
    total = cap(round_up_10(best.raw), options)
    three = winner.k == WILD_TILES
    if three:  # A11: 三得到辣; with no limit, at least the seed's 300
        total = options.limit or max(total, LAZI)
    alternatives: list[Alternative] = []
    if explain:
        seen = {reading}
        kept.sort(key=lambda c: (-c.raw, -c.hu))
        for cand in kept:
            text = winner.describe(cand)[0]
            if text in seen:
                continue
            seen.add(text)
            alt_total = cap(round_up_10(cand.raw), options)
            alternatives.append(Alternative(text, cand.hu, cand.fan, cand.raw, alt_total))
            if len(alternatives) == MAX_ALTERNATIVES:
                break
    return HuangyanScore(
        total=total,
        raw=best.raw,
        hu=best.hu,
        fan=best.fan,
        items=tuple(items),
        fans=tuple(fans),
        reading=reading,
        wild=w,
        wilds=winner.k,
        restored=best.assign.count(w.face),
        limit=three or (options.limit > 0 and total >= options.limit),
        three_wilds=three,
        self_drawn=self_drawn,
        win_tile=winner.win_tile,
        base=options.base_reward,
        alternatives=tuple(alternatives),
    )


def _wild(wild: Wild | str | int, options: HuangyanOptions) -> Wild:
    """The wild face with the dead-face rule the options ask for (A3)."""
    return Wild(Wild.of(wild).face, options.live_dragon_face)


def _text(hand: Hand, wild: Wild) -> str:
    return format_huangyan_hand(hand, wild)


def _win_problem(
    hand: Hand, wild: Wild, self_drawn: bool, kong: bool, options: HuangyanOptions
) -> str | None:
    """Why this win is not allowed by the rules, or None."""
    assert hand.win_tile is not None
    if not self_drawn and wild.is_wild(hand.win_tile):
        return (
            f"a discarded 得 ({tile_name(hand.win_tile)}) is dead and cannot be won on (A20)"
        )
    if kong and not self_drawn and not options.rob_kong:
        return "robbing a kong is switched off (rob_kong)"
    return None


def _check_winner(
    hand: Hand, wild: Wild, seat_wind: int, self_drawn: bool, kong: bool,
    options: HuangyanOptions,
) -> None:
    if not isinstance(hand, Hand):
        raise NotationError(f"a hand must be a Hand, not {type(hand).__name__}")
    if hand.win_tile is None or hand.tile_count != 14:
        raise InvalidHandError(
            f"a winning hand has 14 tiles with the winning tile last, this one has "
            f"{hand.tile_count}"
        )
    _check_seat(seat_wind)
    for name, value in (("self_drawn", self_drawn), ("kong", kong)):
        if not isinstance(value, bool):
            raise SituationError(f"{name} must be true or false, not {value!r}")
    check_tiles(hand, wild)
    problem = _win_problem(hand, wild, self_drawn, kong, options)
    if problem:
        raise SituationError(problem)


def _check_seat(seat_wind: int) -> None:
    if isinstance(seat_wind, bool) or not isinstance(seat_wind, int) or not 0 <= seat_wind <= 3:
        raise SituationError(f"seat wind must be 0-3 (E S W N), not {seat_wind!r}")


def _seat(value: str | int) -> int:
    if isinstance(value, str) and len(value) == 1 and value in "ESWN":
        return "ESWN".index(value)
    _check_seat(value)  # type: ignore[arg-type]
    return int(value)


def score_huangyan(
    hand: str | Hand,
    *,
    wild: Wild | str | int,
    self_drawn: bool = False,
    seat_wind: str | int = "E",
    kong: bool = False,
    options: HuangyanOptions | Mapping[str, Any] | None = None,
    explain: bool = False,
) -> HuangyanScore:
    """Score a Huangyan winning hand written in the project notation (see ``notation``).

    ``wild`` is the wild face (``"7p"``, ``"P"`` or 0-33); ``seat_wind`` a letter or 0-3;
    ``options`` a :class:`HuangyanOptions` or a mapping of option names to values.
    """
    opts = _options(options)
    w = _wild(wild, opts)
    parsed = hand if isinstance(hand, Hand) else parse_huangyan_hand(
        hand, w, allowed_counts=(14,)
    )
    return score_winner(
        parsed, w, seat_wind=_seat(seat_wind), self_drawn=self_drawn, kong=kong,
        options=opts, explain=explain,
    )


def _options(options: HuangyanOptions | Mapping[str, Any] | None) -> HuangyanOptions:
    if isinstance(options, HuangyanOptions):
        return options
    return HuangyanOptions.from_mapping(options)


def check_win(
    hand: Hand,
    context: WinContext,
    wild: Wild | str | int,
    options: HuangyanOptions = DEFAULT_OPTIONS,
) -> HuangyanScore | None:
    """For a rule set: the winner's score, or None if the hand may not win.

    Uses ``context.self_drawn``, ``context.seat_wind`` and ``context.kong``; there is no
    prevailing wind (A22) and no flowers. None for a shape that does not win, a 得 taken from a
    discard (A20), or robbing a kong when ``rob_kong`` is off.
    """
    w = _wild(wild, options)
    if hand.win_tile is None or hand.tile_count != 14:
        return None
    if _win_problem(hand, w, context.self_drawn, context.kong, options):
        return None
    try:
        return score_winner(
            hand, w, seat_wind=context.seat_wind, self_drawn=context.self_drawn,
            kong=context.kong, options=options,
        )
    except NotWinningError:
        return None


# --------------------------------------------------------------------------- losers


def score_loser(
    hand: Hand | str,
    wild: Wild | str | int,
    *,
    seat_wind: str | int = 0,
    options: HuangyanOptions = DEFAULT_OPTIONS,
) -> LoserScore:
    """A loser's own total ``I`` (§5.1-5.3) for a 13-tile hand.

    Declared sets score by the loser table; concealed tiles are counted by identity (a stand-in
    and a 得 are both ``F``; a 得 never substitutes): ``n // 3`` concealed pungs of an identity
    held ``n`` times, and a pair when ``n % 3 == 2`` that scores only for the seat wind or a live
    dragon. Fans: each pung/kong of the seat wind or a live dragon.
    """
    w = _wild(wild, options)
    parsed = hand if isinstance(hand, Hand) else parse_huangyan_hand(
        hand, w, allowed_counts=(13,)
    )
    if not isinstance(parsed, Hand):
        raise NotationError(f"a hand must be a string or a Hand, not {type(hand).__name__}")
    if parsed.tile_count != 13:
        raise InvalidHandError(f"a loser's hand has 13 tiles, this one has {parsed.tile_count}")
    check_tiles(parsed, w)
    seat = WINDS[_seat(seat_wind)]
    items: list[HuItem] = []
    seat_fans = dragon_fans = 0

    def group(kind: int, ident: int, tiles: str) -> None:
        nonlocal seat_fans, dragon_fans
        if kind == CHOW:
            return
        hu = HARD[kind] if w.is_hard(ident) else SOFT[kind]
        if kind == PAIR:
            hu = 2 if ident == seat or w.is_live_dragon(ident) else 0
            if not hu:
                return
        else:
            seat_fans += ident == seat
            dragon_fans += w.is_live_dragon(ident)
        cls = _group_class(w, seat, ident)
        items.append(HuItem(cls[0] + _KIND_ZH[kind], f"{_KIND_EN[kind]} {cls[1]}", tiles, hu))

    for meld in parsed.melds:
        group(_Winner.meld_kind(meld.kind, meld.source), w.identity(meld.tile),
              format_meld(meld, w))
    ids = [0] * NUM_KINDS
    faces: dict[int, list[int]] = {}
    for t in parsed.concealed_with_win:
        ident = w.identity(t)
        ids[ident] += 1
        faces.setdefault(ident, []).append(t)
    for ident, n in enumerate(ids):
        shown = format_tiles(sorted(faces.get(ident, [])))
        for _ in range(n // 3):
            group(CONCEALED_PUNG, ident, shown)
        if n % 3 == 2:
            group(PAIR, ident, shown)
    hu = sum(i.hu for i in items)
    fan = seat_fans + dragon_fans
    fans = _set_fans(seat_fans, dragon_fans)
    rounded = round_up_10(hu * 2**fan)
    total = cap(rounded, options)
    return LoserScore(
        total=total,
        hu=hu,
        fan=fan,
        items=tuple(items),
        fans=tuple(fans),
        limit=options.limit > 0 and total >= options.limit,
    )


__all__ = [
    "LAZI",
    "Alternative",
    "FanItem",
    "HuItem",
    "HuangyanScore",
    "LoserScore",
    "check_win",
    "is_winning_shape",
    "round_up_10",
    "score_huangyan",
    "score_loser",
    "score_winner",
]
