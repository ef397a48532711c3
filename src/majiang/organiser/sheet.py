"""A score sheet: the hands of four people at a real table, recorded as they are played.

The sheet is its settings and its entries; everything else is computed from them, in order, by
the rule set: each win is scored (from the written tiles) or checked (a count said at the table)
and settled by the rule set's own payment rules (:class:`~majiang.rules.base.CountedWins`), and
the deal moves as the engine's :class:`~majiang.engine.match.Match` moves it. So a correction or
a deletion anywhere recomputes every later hand (a Huangyan dealer streak may change its seat
winds and bullets), and one that would leave a later entry impossible is refused as a whole.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from ..engine.match import HandSpec, Match
from ..engine.state import HandResult
from ..errors import MajiangError
from ..hand import WinContext
from ..rules.base import CountedWins, RuleSet, WinCheck, WinSituation
from ..rules.registry import make_rules, rules_options
from ..tiles import NUM_KINDS, WIND_LETTERS, tile_from_name
from .entries import Entry, EntryError

Seats = tuple[int, int, int, int]
MAX_NAME = 40
MAX_HANDS = 64
MAX_ROUNDS = 8
MAX_STAKE = 1000
MAX_ENTRIES = 400
"""A sheet holds at most this many entries (a long Huangyan game with false wins fits)."""


@dataclass(frozen=True, slots=True)
class GameSettings:
    """A game's fixed facts: rule set and options, the four names (seats 0-3 in turn order),
    stake, length (``hands``, or ``rounds`` of the deal; neither: 16 hands) and the seat
    that deals first."""

    rules: str
    names: tuple[str, str, str, str]
    options: Mapping[str, Any] = field(default_factory=dict)
    stake: int = 1
    hands: int | None = None
    rounds: int | None = None
    first_dealer: int = 0

    def rule_set(self) -> RuleSet:
        """The rule set with the game's options."""
        return make_rules(self.rules, dict(self.options))

    def to_json(self) -> dict[str, Any]:
        """The settings as stored."""
        return {
            "rules": self.rules,
            "names": list(self.names),
            "options": dict(self.options),
            "stake": self.stake,
            "hands": self.hands,
            "rounds": self.rounds,
            "first_dealer": self.first_dealer,
        }


def game_settings(
    rules: str,
    names: Sequence[str],
    *,
    options: Mapping[str, Any] | None = None,
    stake: int = 1,
    hands: int | None = None,
    rounds: int | None = None,
    first_dealer: int = 0,
) -> GameSettings:
    """Checked settings (MajiangError for a bad name, count or option); the rule set's
    options are completed with their defaults."""
    if not isinstance(names, Sequence) or isinstance(names, str) or len(names) != 4:
        raise EntryError("a game has four players: give four names")
    cleaned: list[str] = []
    for seat, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise EntryError(f"seat {seat}'s name is empty")
        if len(name.strip()) > MAX_NAME:
            raise EntryError(f"seat {seat}'s name is too long (at most {MAX_NAME} characters)")
        if name.strip().casefold() in (n.casefold() for n in cleaned):
            raise EntryError(f"{name.strip()} is entered twice: each seat needs its own name")
        cleaned.append(name.strip())
    _whole(stake, "the stake", 1, MAX_STAKE)
    _whole(first_dealer, "the first dealer", 0, 3)
    if hands is not None and rounds is not None:
        raise EntryError("a game lasts a number of hands or of rounds, not both")
    if hands is not None:
        _whole(hands, "the number of hands", 1, MAX_HANDS)
    if rounds is not None:
        _whole(rounds, "the number of rounds", 1, MAX_ROUNDS)
    rule_set = make_rules(rules, dict(options or {}))
    if not _counts_wins(rule_set):
        raise EntryError(f"the {rules} rules cannot be kept on a score sheet")
    return GameSettings(
        rule_set.name,
        (cleaned[0], cleaned[1], cleaned[2], cleaned[3]),
        rules_options(rule_set),
        stake,
        hands,
        rounds,
        first_dealer,
    )


@dataclass(frozen=True, slots=True)
class Line:
    """One entry as the rule set settled it, with the running totals after it."""

    index: int
    entry: Entry
    hand: HandSpec
    kind: str
    """``win``, ``draw`` or ``false_win`` (a win under the minimum in a game that plays 错和)."""
    winner: int | None
    discarder: int | None
    points: int
    deltas: Seats
    bullets: Seats
    thrown: Seats
    totals: Seats
    bullet_totals: Seats
    detail: dict[str, Any] = field(default_factory=dict)
    message: str = ""

    @property
    def ends_hand(self) -> bool:
        """A win or a draw ends the hand; play goes on after a false win."""
        return self.kind != "false_win"

    @property
    def self_drawn(self) -> bool:
        """A win with no discarder."""
        return self.kind == "win" and self.discarder is None

    def to_json(self) -> dict[str, Any]:
        """The line for clients and exports."""
        return {
            "index": self.index,
            "entry": self.entry.to_json(),
            "hand": hand_json(self.hand),
            "kind": self.kind,
            "winner": self.winner,
            "discarder": self.discarder,
            "self_drawn": self.self_drawn,
            "points": self.points,
            "deltas": list(self.deltas),
            "bullets": list(self.bullets),
            "thrown": list(self.thrown),
            "totals": list(self.totals),
            "bullet_totals": list(self.bullet_totals),
            "detail": self.detail,
            "message": self.message,
        }


def hand_json(spec: HandSpec) -> dict[str, Any]:
    """A hand's place in the game (its seed is no business of a paper table)."""
    return {
        "number": spec.number,
        "dealer": spec.dealer,
        "prevalent_wind": spec.prevalent_wind,
        "dealer_count": spec.dealer_count,
        "thrown": list(spec.thrown),
    }


@dataclass(frozen=True, slots=True)
class SheetState:
    """Every line, the totals, and the hand to enter next (None once the game is over)."""

    settings: GameSettings
    lines: tuple[Line, ...]
    totals: Seats
    bullets: Seats
    next_hand: HandSpec | None
    hands_played: int

    @property
    def finished(self) -> bool:
        """Every hand of the game is recorded."""
        return self.next_hand is None

    def seat_winds(self, spec: HandSpec) -> list[int]:
        """Seat winds 0-3 (E S W N) of seats 0-3 in a hand."""
        return [(seat - spec.dealer) % 4 for seat in range(4)]


def compute(settings: GameSettings, entries: Sequence[Entry]) -> SheetState:
    """Settle every entry in order; :class:`EntryError` (with the entry's index) for the
    first that cannot stand."""
    if len(entries) > MAX_ENTRIES:
        raise EntryError(f"a sheet holds at most {MAX_ENTRIES} entries")
    rules = settings.rule_set()
    match = Match(rules, 0, hands=settings.hands, rounds=settings.rounds, stake=settings.stake)
    # a table of people picks its first dealer itself: seat ``first_dealer`` deals hand 1
    match.first_dealer = match.dealer = settings.first_dealer
    specs: Iterator[HandSpec] = match.specs()
    spec = next(specs, None)
    totals, bullets = [0, 0, 0, 0], [0, 0, 0, 0]
    in_hand: list[Line] = []
    lines: list[Line] = []
    played = 0
    for index, entry in enumerate(entries):
        if spec is None:
            raise EntryError(
                f"entry {index + 1}: the game is over after {played} hands; nothing more can "
                "be entered", index
            )
        try:
            line = _settle(rules, settings, spec, entry, index, first=not in_hand, totals=totals,
                           bullet_totals=bullets)
        except MajiangError as error:
            raise EntryError(f"hand {spec.number}: {error}", index) from None
        lines.append(line)
        in_hand.append(line)
        if line.ends_hand:
            played += 1
            deltas = [sum(x.deltas[s] for x in in_hand) for s in range(4)]
            match.record(
                HandResult(
                    line.winner,
                    line.discarder,
                    line.self_drawn,
                    line.points,
                    (deltas[0], deltas[1], deltas[2], deltas[3]),
                    line.detail,
                    None,
                    {"bullets": line.bullets} if any(line.bullets) else {},
                    {"thrown": line.thrown} if any(line.thrown) else {},
                )
            )
            in_hand = []
            spec = next(specs, None)
    return SheetState(settings, tuple(lines), _four(totals), _four(bullets), spec, played)


def _settle(
    rules: RuleSet,
    settings: GameSettings,
    spec: HandSpec,
    entry: Entry,
    index: int,
    *,
    first: bool,
    totals: list[int],
    bullet_totals: list[int],
) -> Line:
    """One entry under the hand it belongs to; adds its payments to the running totals."""
    names = settings.names

    def who(seat: int) -> str:
        return f"seat {seat} ({names[seat]}, {WIND_LETTERS[(seat - spec.dealer) % 4]})"

    thrown = _thrown(rules, spec, entry, first, who)
    kind, winner, discarder, points = entry.kind, entry.winner, entry.discarder, 0
    deltas: Seats = (0, 0, 0, 0)
    extra: Seats = (0, 0, 0, 0)
    detail: dict[str, Any] = {}
    message = ""
    if kind == "false_win":
        assert entry.seat is not None
        if not rules.may_declare(WinCheck(False, 0)):
            raise EntryError("this game does not play false wins (错和): it has no penalty")
        winner, deltas = entry.seat, _four(rules.false_win_deltas(entry.seat, settings.stake))
        message = f"false win (错和) by {who(entry.seat)}"
    elif kind == "win":
        assert winner is not None
        bound, check = _check(rules, spec, entry, who)
        points, detail = check.points, dict(check.detail)
        detail["counted_by"] = entry.counted_by
        if not check.legal:
            reason = str(check.detail.get("reason", "under the rule set's minimum"))
            if not rules.may_declare(check):
                raise EntryError(
                    f"{reason}: not a win, and this game does not play false wins (错和)"
                )
            kind, discarder = "false_win", None
            deltas = _four(rules.false_win_deltas(winner, settings.stake))
            message = f"{reason}: recorded as a false win (错和) by {who(winner)}"
        else:
            counted = cast(CountedWins, bound)
            situation = WinSituation(
                winner,
                discarder,
                spec.dealer,
                spec.dealer_count,
                settings.stake,
                thrown,
                losers=_losers(counted, spec, entry, who),
                gunner=_gunner(counted, entry),
            )
            settlement = counted.settle_counted(check, situation)
            deltas, extra = settlement.deltas, settlement.ledger("bullets")
            detail.update(settlement.detail)
    for seat in range(4):
        totals[seat] += deltas[seat]
        bullet_totals[seat] += extra[seat]
    return Line(
        index, entry, spec, kind, winner, discarder, points, deltas, extra, thrown,
        _four(totals), _four(bullet_totals), detail, message,
    )


def _thrown(rules: RuleSet, spec: HandSpec, entry: Entry, first: bool, who: Any) -> Seats:
    """The thrown bullets in force for the hand: those of the dealership, plus this entry's."""
    if not entry.throw:
        return spec.thrown
    if not rules.throw_limit:
        raise EntryError("this game has no thrown bullets (抛弹)")
    if not first:
        raise EntryError("bullets are thrown before a hand: give them on its first entry")
    if entry.throw > rules.throw_limit:
        raise EntryError(
            f"a dealer throws at most {rules.throw_limit} bullets before a hand (throw_limit), "
            f"not {entry.throw}"
        )
    if not entry.accepted:
        raise EntryError("say which seats accepted the thrown bullets")
    stakes = list(spec.thrown)
    for seat in entry.accepted:
        if seat == spec.dealer:
            raise EntryError(f"the dealer, {who(seat)}, cannot accept his own bullets")
        stakes[seat] += entry.throw
    return _four(stakes)


def _check(rules: RuleSet, spec: HandSpec, entry: Entry, who: Any) -> tuple[RuleSet, WinCheck]:
    """The rule set bound for this hand and its check of the win as counted."""
    assert entry.winner is not None
    bound = rules
    if rules.indicator_tiles:
        if entry.wild is not None:
            bound = rules.begin_hand([_face(entry.wild)])
        elif entry.tiles is not None or any(isinstance(v, str) for _, v in entry.losers):
            raise EntryError("give this hand's wild (得) indicator to count written tiles")
    elif entry.wild is not None:
        raise EntryError("this rule set turns up no wild indicator")
    counted = cast(CountedWins, bound)
    for flag in sorted(entry.flags):
        if flag not in counted.win_flags:
            raise EntryError(f"{flag.replace('_', ' ')} is no situation of these rules")
    if entry.flowers and not any(rules.is_flower(t) for t in set(rules.wall_tiles())):
        raise EntryError("these rules play no flowers")
    if entry.tiles is not None:
        context = WinContext(
            self_drawn=entry.discarder is None,
            seat_wind=(entry.winner - spec.dealer) % 4,
            prevalent_wind=spec.prevalent_wind,
            last_tile="last_tile" in entry.flags,
            kong="kong" in entry.flags,
            fourth_tile="fourth_tile" in entry.flags,
            extra_flowers=entry.flowers,
        )
        return bound, counted.score_written(entry.tiles, context)
    if entry.flags:
        raise EntryError("situation flags change the count of written tiles only: "
                         "count them in the fans or points")
    if entry.fans:
        table = {int(f["id"]): f for f in counted.fan_table()}
        if not table:
            raise EntryError("these rules count no list of fans: give the tiles or the total")
        picked = []
        total = 0
        for fan, count in entry.fans:
            info = table.get(fan)
            if info is None:
                raise EntryError(f"there is no fan {fan} to pick")
            total += int(info["points"]) * count
            picked.append({"name": info["zh"], "en": info["en"], "points": info["points"],
                           "count": count})
        check = counted.check_counted(total, entry.flowers)
        return bound, WinCheck(check.legal, check.points, {**check.detail, "fans": picked})
    assert entry.points is not None
    return bound, counted.check_counted(entry.points, entry.flowers)


def _losers(counted: CountedWins, spec: HandSpec, entry: Entry, who: Any) -> dict[int, int]:
    """Each loser's own count where the rules settle with it."""
    given = dict(entry.losers)
    if not counted.losers_count:
        if given:
            raise EntryError("in these rules only the winner's hand is counted")
        return {}
    missing = [s for s in range(4) if s != entry.winner and s not in given]
    if missing:
        raise EntryError("give each loser's own count (missing: "
                         + ", ".join(who(s) for s in missing) + ")")
    out = {}
    for seat, value in given.items():
        if isinstance(value, str):
            out[seat] = counted.count_loser(value, (seat - spec.dealer) % 4)
        else:
            out[seat] = value
    return out


def _gunner(counted: CountedWins, entry: Entry) -> bool:
    if entry.gunner and not counted.gunner_pays_all:
        raise EntryError("these rules have no gunner: the discarder pays his own share")
    return entry.gunner


def _face(text: str) -> int:
    try:
        face = tile_from_name(text)
    except (KeyError, ValueError):
        face = -1
    if not 0 <= face < NUM_KINDS:
        raise EntryError(f"the wild (得) indicator must be one tile such as 5s, E or P, not "
                         f"{text!r}")
    return face


def _counts_wins(rules: RuleSet) -> bool:
    return all(hasattr(rules, name) for name in ("settle_counted", "check_counted",
                                                  "score_written", "fan_table"))


def _whole(value: Any, what: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EntryError(f"{what} must be a whole number from {low} to {high}, not {value!r}")


def _four(values: Sequence[int]) -> Seats:
    return (values[0], values[1], values[2], values[3])


def rule_facts(rules: RuleSet) -> dict[str, Any]:
    """What a score sheet offers for this rule set with these options: the fans to pick, the
    flags, flowers, the wild indicator, losers' counts, the gunner, false wins, thrown bullets."""
    counted = cast(CountedWins, rules)
    return {
        "rules": rules.name,
        "fans": counted.fan_table(),
        "win_flags": list(counted.win_flags),
        "flowers": any(rules.is_flower(t) for t in set(rules.wall_tiles())),
        "indicator_tiles": rules.indicator_tiles,
        "losers_count": counted.losers_count,
        "gunner": counted.gunner_pays_all,
        "false_wins": rules.may_declare(WinCheck(False, 0)),
        "throw_limit": rules.throw_limit,
    }


__all__ = [
    "MAX_ENTRIES",
    "GameSettings",
    "Line",
    "SheetState",
    "compute",
    "game_settings",
    "hand_json",
    "rule_facts",
]
