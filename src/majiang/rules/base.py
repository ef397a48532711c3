"""The interface every rule set implements; the table asks, it never tests which rules it plays.

A rule set supplies what differs between variants: the tiles, which tiles are flowers or wild,
which claims are allowed, where the wall ends, whether and how much a hand wins, and the
settlement between players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..hand import Hand, Meld, WinContext


@dataclass(frozen=True, slots=True)
class WinCheck:
    """What the rule set says about a declared win.

    ``legal`` is False for a shape that wins but is worth too little (a false win where the rules
    allow declaring it). ``points`` is the rule set's total; ``detail`` is for display and records.
    """

    legal: bool
    points: int
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class WinSettlement:
    """The payments of a win: the main ledger, the rule set's extra ledgers by name
    (Huangyan's ``bullets``; none in Guobiao) and JSON detail for records. Each ledger sums
    to zero."""

    deltas: tuple[int, int, int, int]
    ledgers: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)
    detail: dict[str, Any] = field(default_factory=dict)

    def ledger(self, name: str) -> tuple[int, int, int, int]:
        """The extra ledger ``name`` (zeros where the settlement has none)."""
        return self.ledgers.get(name, (0, 0, 0, 0))


@dataclass(frozen=True, slots=True)
class WinSituation:
    """What a win's payments depend on besides the hand: the table builds it, the rule set
    adds what it finds (``losers`` each loser's own count, empty unless
    :attr:`CountedWins.losers_count`; ``gunner`` the discarder pays the whole hand).
    ``discarder`` None = self-drawn; ``thrown`` the thrown bullets in force."""

    winner: int
    discarder: int | None
    dealer: int
    dealer_count: int
    stake: int
    thrown: tuple[int, int, int, int] = (0, 0, 0, 0)
    losers: Mapping[int, int] = field(default_factory=dict)
    gunner: bool = False


class TableView(Protocol):
    """What a rule set may read from the table when it settles a hand."""

    dealer: int
    dealer_count: int
    thrown: list[int]
    stake: int
    concealed: list[list[int]]
    melds: list[list[Meld]]
    ponds: list[list[int]]
    last_tile: int | None
    """The tile last drawn, discarded or added to a kong."""
    late: bool
    """The rule set's late phase has begun."""

    def seat_wind(self, seat: int) -> int:
        """0-3 (East-North) of a seat."""
        ...


class RuleSet(Protocol):
    """What the table needs to know about a variant of mahjong.

    A rule set may also have the optional fast paths of :class:`KeyedWaits`, decisions
    before the deal as its ``opening_phase`` attribute (an :class:`OpeningPhase`, or None),
    its own part of every observation (:class:`ExtendsObservations`) and the hooks of
    :class:`SeveralWins`; the table uses them when they are there.
    """

    name: str
    options: Any
    indicator_tiles: int
    """Tiles turned face up from the head of the wall after the deal, out of play (Huangyan's
    得 indicator: 1; Guobiao: 0)."""
    wild_face: int | None
    """The face whose tiles are wild in this hand (None: no wild tiles)."""
    kong_after_claim: bool
    """Whether a player may declare a concealed or added kong in the turn he claimed a set."""
    robbing: bool
    """Whether an added kong may be robbed."""
    skipped_pung_restriction: bool
    """A seat that passes a pung may not pung that identity again until it takes a tile."""
    skipped_win_restriction: bool
    """A seat that passes a win may not win on a discard until it draws."""
    throw_limit: int
    """The most bullets a dealer may throw before a hand (0: none), for the front ends (the RL
    action space, score sheets); the throw itself is the rule set's ``opening_phase``."""

    def begin_hand(self, indicators: Sequence[int]) -> RuleSet:
        """The rules of one hand, once the indicator tiles are known (wild tiles bound)."""
        ...

    def wall_tiles(self) -> list[int]:
        """Every tile of the set, flowers included, one entry per physical tile."""
        ...

    def is_flower(self, tile: int) -> bool:
        """Whether a drawn tile is set aside and replaced."""
        ...

    def identity(self, tile: int) -> int:
        """What a natural concealed tile counts as in a set (a stand-in counts as its face)."""
        ...

    def physical(self, identity: int) -> int:
        """The face of the natural tile that carries ``identity`` in a set."""
        ...

    def natural(self, tile: int) -> bool:
        """Whether a tile of this face is natural: it may be claimed and used in declared sets
        (a wild tile may not; a discarded wild is dead)."""
        ...

    def chow_allowed(self, discarder: int, claimer: int) -> bool:
        """Whether ``claimer`` may chow a discard of ``discarder`` (seats 0-3 in turn order)."""
        ...

    def reserve(self, replacements: int) -> int:
        """Tiles that stay in the wall when it counts as exhausted, after ``replacements``
        replacement draws (Guobiao: 0; Huangyan: the 7 stacks T(k))."""
        ...

    def late_phase(self, remaining: int, replacements: int) -> bool:
        """Whether the wall has entered the rule set's late phase (Huangyan's raw-tile phase)."""
        ...

    def could_win(self, counts: list[int], n_melds: int) -> bool:
        """A cheap test that concealed ``counts`` (34 slots, the winning tile included) plus
        ``n_melds`` declared sets may form a winning shape; ``check_win`` decides."""
        ...

    def waiting_tiles(self, counts: list[int], n_melds: int) -> frozenset[int]:
        """Every face that may complete a waiting hand (concealed ``counts`` + ``n_melds`` sets);
        the table remembers it until the hand changes, so claims cost a set look-up."""
        ...

    def check_win(self, hand: Hand, context: WinContext) -> WinCheck | None:
        """None if the tiles form no winning shape; otherwise legality and points."""
        ...

    def may_declare(self, check: WinCheck) -> bool:
        """Whether a Win action is offered for this check (a legal win, or a false win when the
        room allows declaring one)."""
        ...

    def note_offer(self, table: TableView, seat: int, tile: int) -> Any:
        """Facts about a tile offered to the others (a discard or a kong tile), taken just
        before it leaves ``seat``'s hand, that the settlement may need (Huangyan's gunner)."""
        ...

    def settle_win(
        self, table: TableView, situation: WinSituation, check: WinCheck, note: Any
    ) -> WinSettlement:
        """The payments of a win; ``note`` from :meth:`note_offer` for the winning tile when it
        was offered."""
        ...

    def false_win_deltas(self, offender: int, stake: int) -> list[int]:
        """Score changes for a false win (错和)."""
        ...

    def keeps_deal(self, dealer: int, winner: int | None) -> bool:
        """Whether the dealer deals again after a hand that ``winner`` won (None: a draw)."""
        ...


class SeveralWins(Protocol):
    """An optional part of a rule set: who wins on one offered tile, and whether the hand goes
    on after a win (Sichuan's 一炮多响 and 血战到底). Without it the table plays as Guobiao and
    Huangyan do: the first claimant in turn order from the discarder wins (截和), and the first
    win ends the hand (:func:`first_claimant`, :func:`first_win_ends`)."""

    def winners_of(self, discarder: int, claimants: Sequence[int]) -> Sequence[int]:
        """Which of ``claimants`` (the seats that declared a legal win on ``discarder``'s tile,
        in turn order from him) win it, in the order they are settled: one at least."""
        ...

    def after_win(self, table: TableView, out: Sequence[int], winner: int) -> int | None:
        """Whether the hand goes on once ``winner`` (the last of the wins on one tile) has won:
        the seat that draws next (one not ``out``), or None to end the hand. ``out`` holds
        every seat that has won so far, in order; a seat that is out never acts again."""
        ...


def first_claimant(discarder: int, claimants: Sequence[int]) -> Sequence[int]:
    """The default of :meth:`SeveralWins.winners_of`: the first claimant wins (截和)."""
    return claimants[:1]


def first_win_ends(table: TableView, out: Sequence[int], winner: int) -> int | None:
    """The default of :meth:`SeveralWins.after_win`: the first win ends the hand."""
    return None


class ObservationExtension(Protocol):
    """A rule set's own part of an observation (``Observation.extension``): a small immutable
    record that the rule set defines and builds (:class:`ExtendsObservations`). The engine and
    the front ends read it by these names only; the record may hold more for its rule set's
    own bots. An observation without one reads as ``late`` False, ``dealer_count`` 1 and no
    ``thrown`` stakes."""

    @property
    def late(self) -> bool:
        """The rule set's late phase is on (``TableView.late``)."""
        ...

    @property
    def dealer_count(self) -> int:
        """The dealer's hands in a row, this one included."""
        ...

    @property
    def thrown(self) -> tuple[int, ...]:
        """Each seat's stake in force from the decisions before the deal (``TableView.thrown``)."""
        ...

    def to_json(self) -> dict[str, Any]:
        """Its JSON fields, merged into the observation's (servers, records, terminals)."""
        ...


class ExtendsObservations(Protocol):
    """An optional part of a rule set: its own facts on every observation, seats' and
    spectators' alike (Huangyan's raw-tile phase, dealer count and thrown bullets). A rule set
    without it pays nothing: its observations' ``extension`` is None."""

    def observation_extension(self, table: TableView) -> ObservationExtension:
        """The public record of the table now; asked again only once an event has changed the
        table (observations share it meanwhile)."""
        ...


OpeningAction = dict[str, Any]
"""An action in its JSON form (``{"type": "pass"}``, ``{"type": "throw_bullets", "count": 2}``):
the rules layer names the engine's actions this way."""


class OpeningView(Protocol):
    """What a rule set's opening phase may read and change on the table before the deal."""

    dealer: int
    dealer_count: int
    thrown: list[int]
    """Each seat's thrown bullets in force (Huangyan's); an opening may add to them."""
    events: list[dict[str, Any]]
    """The hand's events: an opening appends its own (``{"type": ..., "seat": ..., ...}``)."""


class OpeningPhase(Protocol):
    """An optional part of a rule set: decisions before the deal (Huangyan's thrown bullets;
    Sichuan's choice of a void suit would be another). The table asks it round by round for the
    seats that decide and their actions; when each has answered, for the next round; when no
    seat is left, the tiles are dealt. The table is in the ``BULLETS`` phase meanwhile."""

    def next_options(
        self, table: OpeningView, rounds: list[dict[int, OpeningAction]]
    ) -> dict[int, list[OpeningAction]]:
        """The next round's seats (0-3), each with the actions it may take (at least one),
        after the ``rounds`` answered so far (each seat's answer; none at the start). The last
        round's answers take effect here (on ``table.thrown``, with their events); an empty
        mapping ends the opening."""
        ...

    def why_refused(
        self, table: OpeningView, rounds: list[dict[int, OpeningAction]], seat: int,
        action: OpeningAction,
    ) -> str:
        """Why ``seat``, one of the round's seats, may not take ``action`` now."""
        ...


class KeyedWaits(Protocol):
    """An optional fast path of a rule set: waiting tiles from a hand key.

    The table keeps each seat's hand key (``majiang.shanten.hand_key`` of its concealed tiles: keys
    add, so one addition per tile taken or given up) and, when the rule set has this method, asks
    it instead of :meth:`RuleSet.waiting_tiles`, which saves the rule set a pass over the counts.
    """

    def waiting_tiles_of_key(self, key: int, counts: list[int], n_melds: int) -> frozenset[int]:
        """Exactly :meth:`RuleSet.waiting_tiles` of ``counts``, whose hand key is ``key``."""
        ...


class CountedWins(Protocol):
    """An optional part of a rule set: wins counted at a real table, for score sheets.

    People at a table write the winning hand down, or only say its count; the rule set scores the
    first, checks the second and settles either with the same payment rules as the engine's
    :meth:`RuleSet.settle_win`. A rule set whose hands bind something (Huangyan's wild face) is
    asked after :meth:`RuleSet.begin_hand`.
    """

    losers_count: bool
    """Whether each loser's own count enters the settlement (Huangyan) or only the winner's."""
    gunner_pays_all: bool
    """Whether a discarder may be found to pay the whole hand (Huangyan's gunner)."""
    win_flags: tuple[str, ...]
    """The :class:`~majiang.hand.WinContext` flags the scorer reads (``last_tile``, ``kong``,
    ``fourth_tile``)."""

    def fan_table(self) -> list[dict[str, Any]]:
        """The fans a person may pick to count a win (``id``, ``zh``, ``en``, ``points``); empty
        when the count is no sum of fans. Flowers are counted apart."""
        ...

    def score_written(self, text: str, context: WinContext) -> WinCheck:
        """Score a winning hand written in the rule set's notation (the winning tile last);
        raise :class:`~majiang.errors.MajiangError` saying why it does not win."""
        ...

    def check_counted(self, points: int, flowers: int) -> WinCheck:
        """A win whose count people give (``points`` without flowers); ``legal`` False when it
        is under the minimum (``detail["reason"]`` says so); MajiangError for an impossible
        count."""
        ...

    def count_loser(self, text: str, seat_wind: int) -> int:
        """A loser's own count of his written hand (rule sets where :attr:`losers_count`)."""
        ...

    def settle_counted(self, check: WinCheck, situation: WinSituation) -> WinSettlement:
        """The payments of a win in ``situation``. :meth:`RuleSet.settle_win` settles through
        it."""
        ...
