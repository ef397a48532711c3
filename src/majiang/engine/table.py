"""One hand of mahjong as a pure state machine: no I/O, no clock, no randomness but the seed.

The interface (modelled on OpenSpiel's state and PettingZoo's AEC loop):

* ``to_act()``: the seats that must decide now (the seat on turn, or every seat that may claim a
  discard or rob a kong until each has answered);
* ``legal_actions(seat)``: what that seat may do;
* ``apply(seat, action)``: validate, change the state, return the events; an illegal action
  raises :class:`IllegalAction` and changes nothing;
* ``observation(seat)``: everything that seat may know and nothing more.

Seats are 0-3 in turn order (each seat's next player is seat + 1). The rule set decides the
tiles, the claims, whether a hand wins and the payments; the table never asks which rules it plays.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, SupportsIndex
from weakref import WeakKeyDictionary

from ..errors import MajiangError
from ..hand import ADDED_KONG_OFFSET, CONCEALED_KONG, Meld, MeldKind, WinContext
from ..rules.base import RuleSet, WinCheck, WinSituation, first_claimant, first_win_ends
from ..shanten import TILE_KEYS
from ..tiles import tile_name
from .actions import (
    PUNG_ACTION,
    WIN_ACTION,
    Action,
    AddedKong,
    Chow,
    ConcealedKong,
    Discard,
    ExposedKong,
    Pass,
    Pung,
    Win,
    action_to_json,
)
from .legality import (
    check_win,
    claim_actions,
    claimable_for_sets,
    fourth_tile,
    kong_allowed_this_turn,
    may_win_on_offer,
    may_win_on_turn,
    offered_context,
    offers_win,
    self_drawn_context,
    turn_actions,
)
from .opening import Opening
from .reasons import Situation, why_illegal
from .state import (
    HIDDEN_KONG,
    HandResult,
    IllegalAction,
    Observation,
    Phase,
    PublicView,
    SeatWin,
)
from .wall import LAYOUTS, SingleEnd, TwoEnded, Wall, WallLayout, layout_named
from .wall_random import WallRandom

# Enum members as module constants: in Python 3.11 ``Phase.TURN`` is a lookup through the enum's
# metaclass costing about 0.2 µs, and the hot paths read phases and meld kinds several times a
# step.
# Final: compiled code reads these from C statics instead of the module's dict
_TURN: Final = Phase.TURN
_CLAIM: Final = Phase.CLAIM
_ROB: Final = Phase.ROB
_END: Final = Phase.END
_OPENING: Final = Phase.BULLETS  # the opening phase: decisions before the deal
_CHOW_MELD: Final = MeldKind.CHOW
_PUNG_MELD: Final = MeldKind.PUNG
_KONG_MELD: Final = MeldKind.KONG
_WIN: Final = Win


@dataclass(frozen=True, slots=True)
class _TileFacts:
    """A rule set's answers that depend only on a tile (or on two seats), for every tile: the
    table's hot paths read them here rather than call the rule set several times a step.
    Asked once per rule set object (and wild face) and shared by its tables."""

    natural: tuple[bool, ...]
    identity: tuple[int, ...]
    physical: tuple[int, ...]
    """``physical(identity)`` by identity."""
    flower: tuple[bool, ...]
    """``is_flower`` of every tile of the wall."""
    may_chow: tuple[tuple[bool, ...], ...]
    """``may_chow[discarder][claimer]``: ``chow_allowed``."""

    @staticmethod
    def of(rules: RuleSet) -> _TileFacts:
        """The facts of ``rules``, from the cache when it can hold them (weakly)."""
        try:
            facts = _TILE_FACTS.get(rules)
        except TypeError:  # a rule set that cannot be weakly referenced or hashed
            return _TileFacts.ask(rules)
        if facts is None:
            facts = _TILE_FACTS[rules] = _TileFacts.ask(rules)
        return facts

    @staticmethod
    def ask(rules: RuleSet) -> _TileFacts:
        """Ask ``rules`` about every tile."""
        return _TileFacts(
            tuple(rules.natural(t) for t in range(34)),
            tuple(rules.identity(t) for t in range(34)),
            tuple(rules.physical(t) for t in range(34)),
            tuple(rules.is_flower(t) for t in range(max(rules.wall_tiles()) + 1)),
            tuple(tuple(rules.chow_allowed(d, c) for c in range(4)) for d in range(4)),
        )


_TILE_FACTS: WeakKeyDictionary[Any, _TileFacts] = WeakKeyDictionary()


class Table:
    """One hand under a rule set; see the module docstring for the interface."""

    def __init__(
        self,
        rules: RuleSet,
        seed: int = 0,
        *,
        dealer: int = 0,
        prevalent_wind: int = 0,
        stake: int = 1,
        wall: Sequence[int] | None = None,
        every_seat_answers: bool = True,
        dealer_count: int = 1,
        thrown: Sequence[int] = (0, 0, 0, 0),
        single_end: bool = False,
        layout: str | WallLayout | None = None,
        dice: tuple[tuple[int, int], tuple[int, int]] | None = None,
        _laid_out: bool = False,
    ) -> None:
        """``_laid_out``: no wall and no deal, for :meth:`at_position` to lay the tiles out."""
        if dealer not in range(4) or prevalent_wind not in range(4):
            raise MajiangError("dealer and prevalent wind are 0-3")
        if stake < 1:
            raise MajiangError("the stake must be at least 1")
        if dealer_count < 1:
            raise MajiangError("the dealer count is at least 1")
        if len(thrown) != 4 or any(n < 0 for n in thrown) or thrown[dealer]:
            raise MajiangError("thrown bullets are 4 amounts of 0 or more, none for the dealer")
        self.base_rules = rules
        self.rules = rules
        """The rules of this hand: ``base_rules`` bound to the indicator after the deal."""
        self.seed = seed
        self.dealer = dealer
        self.prevalent_wind = prevalent_wind
        self.stake = stake
        self.dealer_count = dealer_count
        self.initial_thrown = tuple(thrown)
        self.thrown = list(thrown)
        """Thrown bullets each seat has accepted from the dealer (an opening phase adds to them)."""
        self.every_seat_answers = every_seat_answers
        """Open every claim window to all three other seats (each may at least pass), so that a
        window tells nobody that someone else may claim. Off is the fast mode for simulations,
        where bots are asked only when they may claim (and never look at the others' phase)."""
        self.explicit_wall = list(wall) if wall is not None else None
        if wall is not None and sorted(wall) != sorted(rules.wall_tiles()):
            raise MajiangError(
                f"an explicit wall must hold exactly the rule set's {len(rules.wall_tiles())} "
                f"tiles, not {len(wall)}"
            )
        if dice is not None and wall is None:
            raise MajiangError("dice break an explicit wall; a seeded wall rolls its own")
        layout_class = _layout(rules, layout, single_end)
        try:
            if _laid_out:  # at_position gives the wall its tiles
                self.wall: Wall = layout_class((), _UNUSED_RNG, order=())
            else:
                self.wall = layout_class(
                    rules.wall_tiles(), WallRandom(seed), order=wall, dice=dice
                )
        except ValueError as error:
            raise MajiangError(str(error)) from None
        self.explicit_dice = dice
        """The dice that broke the explicit wall (None: the wall was given broken)."""
        self.layout = layout_class.name
        """The name of the wall's layout (``engine.wall``; the rule set's ``wall_layout`` unless
        given), which says who draws where: two ends; one end (the deal, flower and kong
        replacements and live draws all take the next tile of the front); four parts, each
        player drawing from his own; or a rule set's own."""
        self.single_end = layout_class.single_end
        """No tail: every replacement is drawn like a live tile."""
        self.concealed: list[list[int]] = [[0] * 34 for _ in range(4)]
        self._sizes = [0, 0, 0, 0]
        """Each seat's concealed tile count, kept by ``_add``."""
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.ponds: list[list[int]] = [[] for _ in range(4)]
        self.deltas = [0, 0, 0, 0]
        self.indicators: list[int] = []
        self.replacements = 0
        """Replacement draws from the tail so far (k of Huangyan's wall thresholds)."""
        self._reserve = rules.reserve(0)
        """The rule set's reserve at the replacements drawn so far (asked once per change)."""
        self.late = False
        """The rule set's late phase (Huangyan's raw-tile phase) has begun."""
        self.offer_note: Any = None
        """The rule set's note on the tile last offered to the others (see ``note_offer``)."""
        self.cannot_win: set[int] = set()
        self.phase = _TURN
        self.current = dealer
        self.last_tile: int | None = None
        self.draw_source = "initial"
        self.final_discard = False
        self.responses: dict[int, Action] = {}
        self.options: dict[int, list[Action]] = {}
        self.checks: dict[int, WinCheck] = {}
        self.result: HandResult | None = None
        self.wins: list[SeatWin] = []
        """The wins so far, in order (more than one where the rule set plays on after a win)."""
        self.out: list[int] = []
        """The seats that have won, in order: they never act again."""
        self._others: tuple[tuple[int, ...], ...] = _OTHERS
        """The other seats still in of each seat, counter-clockwise from it."""
        self._next_seat: tuple[int, ...] = _NEXT_SEAT
        """The next seat still in after each seat."""
        self.history: list[tuple[int, Action]] = []
        """Every accepted action in order: with the seed (or wall), the whole hand."""
        self.event_marks: list[int] = []
        """Where each accepted action's events start in ``events``."""
        self.events: list[dict[str, Any]] = []
        self._legal_turn: list[Action] | None = None
        self._turn_check: WinCheck | None = None
        self._dealt_flowers: list[list[int]] = [[] for _ in range(4)]
        self.dealt: list[list[int]] = [[] for _ in range(4)]
        """Each seat's tiles of the deal in the order it took them (flowers aside, their
        replacements where they came; the dealer's 14th tile included)."""
        self._draw_may_win = True
        self._public_key = -1
        self._public: tuple[Any, ...] = ()
        self._visible = [0] * 34
        """Copies of each kind face up: in the ponds (tiles) and in the exposed melds (their
        identities; a concealed kong is face down), kept as tiles move. 和绝张 reads it, and
        observations carry it (``Observation.visible``)."""
        self._visible_tuple: tuple[int, ...] | None = None
        """``_visible`` as a tuple, for observations; None when it has changed since."""
        self._keys = [0, 0, 0, 0]
        """Each seat's hand key (``majiang.shanten.hand_key`` of its concealed tiles), kept up
        to date tile by tile: it names the hand for the waits' memo, and rule sets that have
        ``KeyedWaits`` read the waits from it."""
        self._waits: list[frozenset[int] | None] = [None, None, None, None]
        """Each seat's waiting tiles, forgotten whenever its hand changes."""
        self._wait_memos: list[tuple[int, frozenset[int]] | None] = [None, None, None, None]
        """Each seat's last waits found, with their hand (``key << 3 | melds``): a seat that
        discards the tile it drew has them again without asking the rule set."""
        self._keyed_waits: Callable[[int, list[int], int], frozenset[int]] | None = None
        self._extension_of: Callable[[Any], Any] | None = getattr(
            rules, "observation_extension", None
        )
        """The rule set's ``observation_extension`` (None: it has none)."""
        self._may_chow: tuple[tuple[bool, ...], ...] = ()
        self._natural: tuple[bool, ...] = ()
        self._identity: tuple[int, ...] = ()
        self._physical: tuple[int, ...] = ()
        self._flower: tuple[bool, ...] = ()
        if not rules.indicator_tiles:  # otherwise bound when the indicator is turned up
            self._bind_rules(rules)
        self._hands: list[tuple[int, ...] | None] = [None, None, None, None]
        """Each seat's sorted concealed tiles, forgotten whenever its hand changes."""
        self._seat_views: list[tuple[Any, ...] | None] = [None, None, None, None]
        """Each seat's public melds, flowers and pond, forgotten when one of them changes."""
        self._skipped_pungs: list[set[int]] = [set(), set(), set(), set()]
        self._passed_win: set[int] = set()
        self.opening = Opening.of(rules)
        """The rule set's decisions before the deal (the ``BULLETS`` phase), or None."""
        if _laid_out:
            return
        self._open_round(self.opening.next_round(self) if self.opening is not None else {})

    @classmethod
    def at_position(
        cls,
        rules: RuleSet,
        *,
        phase: Phase,
        current: int,
        tile: int,
        hands: Sequence[Sequence[int]],
        melds: Sequence[Sequence[Meld]],
        flowers: Sequence[Sequence[int]],
        ponds: Sequence[Sequence[int]],
        wall: Sequence[int],
        source: str = "wall",
        dealer: int = 0,
        prevalent_wind: int = 0,
        indicators: Sequence[int] = (),
        deltas: Sequence[int] = (0, 0, 0, 0),
        dealer_count: int = 1,
        thrown: Sequence[int] = (0, 0, 0, 0),
        late: bool = False,
        cannot_win: Sequence[int] = (),
        every_seat_answers: bool = False,
    ) -> Table:
        """A table at a position in the middle of a hand (a what-if: a search, a puzzle).

        ``rules`` are the rule set's (bound here to ``indicators``, as after the deal).
        ``hands`` are every seat's concealed tiles, ``melds`` (concealed kongs with their faces),
        ``flowers`` and ``ponds`` as they lie, ``wall`` the tiles left in draw order. ``TURN``:
        ``current`` is to act, ``tile`` the tile it took last and ``source`` how (``"wall"``,
        ``"claim"``, ``"initial"``, ``"kong"``, ``"flower"``). ``CLAIM``: ``current`` has just
        discarded ``tile`` (the last of its pond); ``ROB``: ``current`` is adding ``tile`` to
        its pung (in no hand). Replacement draws so far are counted from the kongs and flowers
        on the table; the passes that rule sets restrict after (a pung, a win) start afresh.
        The claim windows after the position open to every seat only with
        ``every_seat_answers`` (the position's own is always open to all three)."""
        if phase not in (_TURN, _CLAIM, _ROB):
            raise MajiangError(f"no table can be built in the {phase.value} phase")
        table = cls(
            rules, 0, dealer=dealer, prevalent_wind=prevalent_wind, dealer_count=dealer_count,
            thrown=tuple(thrown), every_seat_answers=every_seat_answers, _laid_out=True,
        )  # fmt: skip
        table._place(
            indicators, hands, melds, flowers, ponds, wall, deltas, thrown, late, cannot_win
        )
        if phase is _TURN:
            table._begin_turn(current, source, tile)
            table._draw_may_win = True  # a drawn tile outside the waits just fails the check
            return table
        table._begin_turn(current, "wall", tile)
        table._add(current, tile)  # the tile is back in the hand it leaves
        answers = table.every_seat_answers
        table.every_seat_answers = True  # the position's window is open to all three
        if phase is _CLAIM:
            table.ponds[current].pop()
            table._seen(tile, -1)
            table._discard(current, tile)
        else:
            table.offer_note = table.rules.note_offer(table, current, tile)
            table._add(current, tile, -1)
            table.last_tile = tile
            table._open_window(_ROB, current, tile)
        table.every_seat_answers = answers
        return table

    def _place(
        self,
        indicators: Sequence[int],
        hands: Sequence[Sequence[int]],
        melds: Sequence[Sequence[Meld]],
        flowers: Sequence[Sequence[int]],
        ponds: Sequence[Sequence[int]],
        wall: Sequence[int],
        deltas: Sequence[int],
        thrown: Sequence[int],
        late: bool,
        cannot_win: Sequence[int],
    ) -> None:
        """Lay the tiles of :meth:`at_position` out, every derived count rebuilt from them."""
        base = self.base_rules
        self.indicators = list(indicators)
        rules = base.begin_hand(indicators) if base.indicator_tiles and indicators else base
        self._bind_rules(rules)
        visible = [0] * 34
        for s in range(4):
            counts = [0] * 34
            for t in hands[s]:
                counts[t] += 1
            self.concealed[s] = counts
            self._sizes[s] = len(hands[s])
            self._keys[s] = sum(TILE_KEYS[t] * counts[t] for t in range(34))
            self.melds[s] = list(melds[s])
            self.flowers[s] = list(flowers[s])
            self.ponds[s] = list(ponds[s])
            for t in self.ponds[s]:
                visible[t] += 1
            for m in self.melds[s]:
                if not m.is_concealed_kong:
                    for t in m.tiles:
                        visible[t] += 1
        self._waits = [None] * 4
        self._wait_memos = [None] * 4
        self._hands = [None] * 4
        self._seat_views = [None] * 4
        self._public_key = -1
        self._visible = visible
        self._visible_tuple = None
        self.deltas = list(deltas)
        self.thrown = list(thrown)
        kongs = sum(1 for seat_melds in melds for m in seat_melds if m.kind is _KONG_MELD)
        self.replacements = kongs + sum(len(f) for f in flowers)
        self._reserve = rules.reserve(self.replacements)
        self.wall = TwoEnded([], _UNUSED_RNG, order=wall)
        self.late = late
        self.cannot_win = set(cannot_win)
        self._skipped_pungs = [set(), set(), set(), set()]
        self._passed_win = set()
        self.history, self.events, self.event_marks = [], [], []
        self.result = None
        self.offer_note = None
        self.final_discard = False

    # ------------------------------------------------------------------ public interface

    def seat_wind(self, seat: int) -> int:
        """0-3 (East-North): the dealer is East, his next player South, and so on."""
        return (seat - self.dealer) % 4

    def to_act(self) -> list[int]:
        """The seats that must decide now."""
        if self.phase is _TURN:
            return [self.current]
        if self.phase in (_CLAIM, _ROB, _OPENING):
            return [s for s in self.options if s not in self.responses]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty if it need not act)."""
        return list(self._legal(seat))

    def _legal(self, seat: int) -> Sequence[Action]:
        """:meth:`legal_actions` without the copy (the table's own list: read it only)."""
        if self.phase is _TURN:
            if seat != self.current:
                return ()
            if self._legal_turn is None:
                self._legal_turn = self._turn_actions()
            return self._legal_turn
        if seat in self.options and seat not in self.responses:
            return self.options[seat]  # a claim or robbing window is open
        return ()

    def apply(self, seat: SupportsIndex, action: Action) -> list[dict[str, Any]]:
        """Apply a legal action and return the events it caused."""
        if seat not in _SEATS:  # any type: a bad seat is an IllegalAction, compiled or not
            raise IllegalAction(f"no seat {seat!r}")
        return self._apply(seat if type(seat) is int else int(seat), action)

    def _apply(self, seat: int, action: Action) -> list[dict[str, Any]]:
        """:meth:`apply` of a seat 0-3 as an ``int`` (the compiled build checks the type)."""
        legal = self._legal(seat)
        if not _offered(action, legal):
            situation = self._situation(seat, action)
            raise IllegalAction(why_illegal(situation, seat, action, list(legal)))
        start = len(self.events)
        self.history.append((seat, action))
        self.event_marks.append(start)
        if self.phase is _TURN:
            self._apply_turn(seat, action)
        else:
            self.responses[seat] = action
            if len(self.responses) == len(self.options):  # to_act() is empty: all answered
                if self.phase is _CLAIM:
                    self._resolve_claims()
                elif self.phase is _ROB:
                    self._resolve_rob()
                else:
                    self._resolve_opening_round()
        return self.events[start:]

    def _situation(self, seat: int, action: Action) -> Situation:
        """What the reason of a refusal of ``seat``'s ``action`` reads."""
        offered = self.last_tile
        opening = self.opening
        refusal = ""
        if self.phase is _OPENING and opening is not None and seat in self.options:
            refusal = opening.why_refused(self, seat, action)
        return Situation(
            self.phase,
            tuple(self.to_act()),
            self.rules,
            self.current,
            self.claimed_turn,
            self._may_kong(seat),
            self.wall.parts != 1,
            self.final_discard,
            offered,
            offered is not None and self.rules.identity(offered) in self._skipped_pungs[seat],
            seat in self.cannot_win,
            seat in self._passed_win,
            refusal,
        )

    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know now."""
        hand = self._hands[seat]
        if hand is None:
            built: list[int] = []
            counts = self.concealed[seat]
            for t in range(34):  # native loops when compiled (``list += tuple`` is generic)
                n = counts[t]
                while n:
                    built.append(t)
                    n -= 1
            hand = self._hands[seat] = tuple(built)
        public_melds, flowers, discards, hand_sizes, extension = self._public_view()
        melds = tuple(tuple(self.melds[s]) if s == seat else public_melds[s] for s in range(4))
        legal = tuple(self._legal(seat))
        on_offer = self.last_tile if self.phase in (_CLAIM, _ROB) else None
        drawn = None
        if self.phase is _TURN and seat == self.current and not self.claimed_turn:
            drawn = self.last_tile
        # the tuple built by position in field order, without the named tuple's generated
        # (interpreted) __new__: about 3 µs less a decision compiled
        return _NEW_TUPLE(Observation, (
            seat,
            self.dealer,
            self.prevalent_wind,
            self.seat_wind(seat),
            self.phase,
            self.current,
            hand,
            drawn,
            melds,
            flowers,
            discards,
            hand_sizes,
            self.wall.remaining,  # wall_remaining
            on_offer,  # last_discard
            legal,  # legal_actions
            tuple(self.deltas),
            seat not in self.cannot_win,  # may_win
            self._offered_win_legal(seat, legal),  # win_reaches_minimum
            self.rules.wild_face,  # wild
            self.indicators[0] if self.indicators else None,  # indicator
            self.drawable,
            self._visible_now(),  # visible
            extension,
        ))

    def public_view(self) -> PublicView:
        """The table's own public view, all a spectator may know: every public fact a seat's
        observation carries (melds with concealed kongs face down, flowers, ponds, hand sizes,
        the wall, the tile on offer, the scores, the wild tile and the rule set's extension)."""
        public_melds, flowers, discards, hand_sizes, extension = self._public_view()
        return _NEW_TUPLE(PublicView, (
            self.dealer,
            self.prevalent_wind,
            self.phase,
            self.current,
            public_melds,
            flowers,
            discards,
            hand_sizes,
            self.wall.remaining,  # wall_remaining
            self.last_tile if self.phase in (_CLAIM, _ROB) else None,  # last_discard
            tuple(self.deltas),
            self.rules.wild_face,  # wild
            self.indicators[0] if self.indicators else None,  # indicator
            self.drawable,
            self._visible_now(),  # visible
            extension,
        ))

    def _visible_now(self) -> tuple[int, ...] | None:
        if self.rules.wild_face is not None:
            return None  # melds hold identities, ponds faces: the counts would mix the two
        found = self._visible_tuple
        if found is None:
            found = self._visible_tuple = tuple(self._visible)
        return found

    def _offered_win_legal(self, seat: int, legal: tuple[Action, ...]) -> bool | None:
        for a in legal:
            if type(a) is _WIN:
                break
        else:
            return None
        check = self.win_check(seat)
        return check.legal if check is not None else None

    def win_check(self, seat: int) -> WinCheck | None:
        """The rule set's verdict on ``seat`` declaring a win now (on its turn, or on the tile
        on offer), or None when it has no winning shape to declare. Only ``seat``'s own tiles
        and public facts go into it."""
        if self.phase is _TURN:
            return self._self_drawn_check() if seat == self.current else None
        if self.phase in (_CLAIM, _ROB):
            return self.checks.get(seat)
        return None

    @property
    def drawable(self) -> int:
        """Tiles that may still be drawn before the wall counts as exhausted."""
        return max(0, self._live(self.current))

    def _public_view(self) -> tuple[Any, ...]:
        """What every seat sees alike (melds with concealed kongs face down, flowers, ponds,
        hand sizes, the rule set's extension), rebuilt only when an event has changed the table
        since the last time."""
        if self._public_key != len(self.events):
            views = self._seat_views
            for s in range(4):
                if views[s] is None:
                    views[s] = (
                        tuple(_HIDDEN_KONG if m.is_concealed_kong else m for m in self.melds[s]),
                        tuple(self.flowers[s]),
                        tuple(self.ponds[s]),
                    )
            v0, v1, v2, v3 = views
            sizes = self._sizes
            extend = self._extension_of
            assert v0 is not None and v1 is not None and v2 is not None and v3 is not None
            self._public = (
                (v0[0], v1[0], v2[0], v3[0]),
                (v0[1], v1[1], v2[1], v3[1]),
                (v0[2], v1[2], v2[2], v3[2]),
                (sizes[0], sizes[1], sizes[2], sizes[3]),
                None if extend is None else extend(self),
            )
            self._public_key = len(self.events)
        return self._public

    def _seen(self, tile: int, n: int) -> None:
        """``n`` more copies of ``tile`` face up (fewer, if negative)."""
        visible = self._visible
        visible[tile] = visible[tile] + n  # not ``+=``: see majiang.bots.view
        self._visible_tuple = None

    def _add(self, seat: int, tile: int, n: int = 1) -> None:
        """``n`` copies of ``tile`` join ``seat``'s concealed tiles (leave them, if negative):
        its hand key follows, its waits and its sorted hand are forgotten."""
        counts = self.concealed[seat]
        counts[tile] = counts[tile] + n  # not ``+=``: see majiang.bots.view.hand_counts
        sizes = self._sizes
        sizes[seat] = sizes[seat] + n
        keys = self._keys
        keys[seat] = keys[seat] + n * TILE_KEYS[tile]
        self._waits[seat] = None
        self._hands[seat] = None

    def _shown(self, seat: int) -> None:
        """``seat``'s melds, flowers or pond changed: rebuild its public view."""
        self._seat_views[seat] = None

    @property
    def claimed_turn(self) -> bool:
        """The player on turn claimed a chow or pung: he may only discard."""
        return self.draw_source == "claim"

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended."""
        return self.phase is _END

    def tile_census(self) -> list[int]:
        """Copies of each kind (flowers included, 42 slots) in hands, melds, ponds, flower
        areas and the wall: every physical tile is somewhere, exactly once."""
        counts = [0] * 42
        for seat in range(4):
            for t in range(34):
                counts[t] += self.concealed[seat][t]
            for m in self.melds[seat]:
                for t in m.tiles:
                    counts[self.rules.physical(t)] += 1
            for t in self.ponds[seat]:
                counts[t] += 1
            for t in self.flowers[seat]:
                counts[t] += 1
        if self.phase is _ROB:
            assert self.last_tile is not None
            counts[self.last_tile] += 1  # the tile being added is in no one's hand meanwhile
        for t in self.wall.undrawn():
            counts[t] += 1
        for t in self.indicators:
            counts[t] += 1
        return counts

    # ------------------------------------------------------------------ dealing and drawing

    def _deal(self) -> None:
        self._event(
            "deal", dealer=self.dealer, dice=list(self.wall.dice.first + self.wall.dice.second)
        )
        self.wall.deal(self)

    # The steps of the deal (``engine.wall.Dealer``), which the wall's layout puts in order.

    def deal_take(self, seat: int, tile: int) -> None:
        """``seat`` is dealt ``tile``; a flower is set aside for ``deal_replace_flowers``."""
        if self.rules.is_flower(tile):
            self._dealt_flowers[seat].append(tile)
        else:
            self._add(seat, tile)
            self.dealt[seat].append(tile)

    def deal_replace_flowers(self, seat: int) -> bool:
        """``seat``'s flowers set aside are shown and replaced from the back (and the flowers
        among the replacements); False when the wall ran out (the hand is drawn)."""
        while self._dealt_flowers[seat]:
            pending = self._dealt_flowers[seat]
            self._dealt_flowers[seat] = []
            for flower in pending:
                self.flowers[seat].append(flower)
                self._shown(seat)
                self._event("flower", seat=seat, tile=tile_name(flower))
                if not self.wall.remaining:
                    self._end_hand()
                    return False
                replacement = self._draw_back(0)
                self.deal_take(seat, replacement)
                if seat == self.dealer and not self.rules.is_flower(replacement):
                    self.last_tile = replacement
        return True

    def deal_first(self, tile: int) -> None:
        """The dealer's 14th tile is ``tile``: the rule set's indicator follows."""
        self.last_tile = tile
        if self.base_rules.indicator_tiles:
            self._turn_up_indicator()

    def deal_done(self) -> None:
        """The deal is over: the dealer's first turn (his last tile dealt no flower)."""
        last = self.last_tile
        assert last is not None  # deal_first came first
        if self.rules.is_flower(last):
            self.last_tile = next(t for t in range(34) if self.concealed[self.dealer][t])
        self._begin_turn(self.dealer, "initial")

    def _turn_up_indicator(self) -> None:
        """The rule set's indicator tiles (Huangyan's 得), and the rules bound to them."""
        self.indicators = [self.wall.draw() for _ in range(self.base_rules.indicator_tiles)]
        self._bind_rules(self.base_rules.begin_hand(self.indicators))
        wild = self.rules.wild_face
        self._event(
            "indicator",
            tiles=[tile_name(t) for t in self.indicators],
            wild=tile_name(wild) if wild is not None else None,
        )

    def _bind_rules(self, rules: RuleSet) -> None:
        """Play by ``rules`` from now on (waits found under other rules are forgotten), with
        the rule set's answers per tile read from :class:`_TileFacts` in the hot paths."""
        self.rules = rules
        self._keyed_waits = getattr(rules, "waiting_tiles_of_key", None)
        self._extension_of = getattr(rules, "observation_extension", None)
        self._waits = [None, None, None, None]
        self._wait_memos = [None, None, None, None]
        facts = _TileFacts.of(rules)
        self._may_chow = facts.may_chow
        self._natural = facts.natural
        self._identity = facts.identity
        self._physical = facts.physical
        self._flower = facts.flower

    def deal_drawing(self, seat: int) -> int | None:
        """``seat`` draws a tile, each flower set aside and replaced at once: the tile, or None
        when the wall ran out (the hand is drawn)."""
        replacing = False
        part = (seat - self.dealer) % 4
        while True:
            if not self.wall.left(part):
                self._end_hand()
                return None
            tile = self._draw_back(part) if replacing else self.wall.draw(part)
            if not self.rules.is_flower(tile):
                self._add(seat, tile)
                self.dealt[seat].append(tile)
                return tile
            self.flowers[seat].append(tile)
            self._shown(seat)
            self._event("flower", seat=seat, tile=tile_name(tile))
            replacing = True

    def _draw_back(self, part: int) -> int:
        """A replacement tile for player ``part`` (counted from the dealer): from the tail, or
        the front of a wall without one (counted: the wall's end may depend on it)."""
        self.replacements += 1
        self._reserve = self.rules.reserve(self.replacements)
        return self.wall.draw_back(part)

    # In the hot paths below, ``wall.back - wall.front`` is ``wall.remaining`` without the call
    # of the property (about 0.1 µs; read several times a step).

    def _live(self, seat: int) -> int:
        """Tiles that may still be drawn after ``seat``'s turn before the wall counts as
        exhausted (``Wall.left_after``, less the reserve); 0 or less: the last turn."""
        return self.wall.left_after((seat - self.dealer) % 4) - self._reserve

    def _may_kong(self, seat: int, exposed: bool = False) -> bool:
        """Whether ``seat``'s kong (``exposed``: of a discard) has its replacement draw
        (``Wall.may_kong``)."""
        return self.wall.may_kong(
            (seat - self.dealer) % 4, exposed, self.rules.reserve(self.replacements + 1)
        )

    def _draw(self, seat: int, from_back: bool, source: str) -> bool:
        """Draw for ``seat`` (replacing flowers); False if the hand ended as a draw."""
        wall = self.wall
        part = (seat - self.dealer) % 4
        while True:
            if not wall.left(part):  # the wall (the seat's part of it) is empty
                self._end_hand()
                return False
            tile = self._draw_back(part) if from_back else wall.draw(part)
            if self._flower[tile]:
                self.flowers[seat].append(tile)
                self._shown(seat)
                self._event("flower", seat=seat, tile=tile_name(tile))
                from_back, source = True, "flower"
                continue
            may_win = seat not in self.cannot_win and tile in self._wait_set(seat)
            self._add(seat, tile)
            self._skipped_pungs[seat].clear()
            self._passed_win.discard(seat)
            # the hot events are written as literals (as _event would: same keys, same order)
            self.events.append(
                {"type": "draw", "seat": seat, "tile": _NAMES[tile], "private": True,
                 "source": source}
            )  # fmt: skip
            if not self.late and self.rules.late_phase(wall.back - wall.front, self.replacements):
                self.late = True
                self._event("raw_tile_phase", remaining=self.wall.remaining)
            self._begin_turn(seat, source, tile)
            self._draw_may_win = may_win
            return True

    def _enter(self, phase: Phase, seat: int) -> None:
        """Begin ``phase`` with ``seat`` current and no decision asked or answered yet."""
        self.phase = phase
        self.current = seat
        self.responses = {}
        self.options = {}
        self.checks = {}
        self._legal_turn = None

    def _begin_turn(self, seat: int, source: str, tile: int | None = None) -> None:
        self._enter(_TURN, seat)
        if tile is not None:
            self.last_tile = tile
        self.draw_source = source
        self._turn_check = None

    # ------------------------------------------------------------------ the opening

    def _open_round(self, options: dict[int, list[Action]]) -> None:
        """Ask the opening's next round of these seats, or deal when it names none."""
        self.responses = {}
        self.options = options
        if not options:
            self._deal()
            return
        self.phase = _OPENING
        self.current = self.dealer

    def _resolve_opening_round(self) -> None:
        opening = self.opening
        assert opening is not None
        self._open_round(opening.next_round(self, self.responses))

    # ------------------------------------------------------------------ the turn

    def _turn_actions(self) -> list[Action]:
        seat = self.current
        rules = self.rules
        claimed = self.draw_source == "claim"  # claimed_turn, without the property
        win = offers_win(self._self_drawn_check(), rules)
        return turn_actions(
            self.concealed[seat],
            self.melds[seat],
            win,
            kong_allowed_this_turn(claimed, rules),
            self._may_kong_on_turn,
            self._natural,
            self._physical,
        )

    def _may_kong_on_turn(self) -> bool:
        return self._may_kong(self.current)

    def _may_kong_exposed(self) -> bool:
        """A kong of the discard on offer has its replacement (the same for every claimer)."""
        return self._may_kong(self.current, True)

    def _self_drawn_check(self) -> WinCheck | None:
        seat = self.current
        if not may_win_on_turn(self.draw_source == "claim", seat in self.cannot_win):
            return None
        if self.last_tile is None:
            return None
        if self.draw_source != "initial" and not self._draw_may_win:
            return None  # the drawn tile is not among the waits of the hand before it
        if self._turn_check is None:
            win = self.last_tile

            def context() -> WinContext:
                return self_drawn_context(
                    self.seat_wind(seat),
                    self.prevalent_wind,
                    self.draw_source,
                    self._live(seat) <= 0,
                    fourth_tile(self._visible[win], self.concealed[seat][win] - 1),
                    bool(self.melds[seat]),
                )

            self._turn_check = self._check(seat, win, context, in_hand=True)
        return self._turn_check

    def _apply_turn(self, seat: int, action: Action) -> None:
        if isinstance(action, Discard):  # the common case first
            self._discard(seat, action.tile)
        elif isinstance(action, Win):
            check = self._self_drawn_check()
            assert check is not None
            if not check.legal:
                self._false_win(seat)
                self._legal_turn = None
                return
            self._end_win([(seat, check)], None, self.last_tile)
        elif isinstance(action, ConcealedKong):
            self._add(seat, action.tile, -4)
            meld = Meld(_KONG_MELD, self.rules.identity(action.tile), CONCEALED_KONG)
            self.melds[seat].append(meld)
            self._shown(seat)
            self._event("concealed_kong", seat=seat)
            self._draw(seat, True, "kong")
        elif isinstance(action, AddedKong):
            self.offer_note = self.rules.note_offer(self, seat, action.tile)
            self._add(seat, action.tile, -1)
            self.last_tile = action.tile
            self._event("added_kong", seat=seat, tile=tile_name(action.tile))
            if self.rules.robbing:
                self._open_window(_ROB, seat, action.tile)
            else:
                self.options = {}
            if not self.options:
                self._complete_added_kong()

    def _discard(self, seat: int, tile: int) -> None:
        self.offer_note = self.rules.note_offer(self, seat, tile)
        self._add(seat, tile, -1)
        self.ponds[seat].append(tile)
        self._seen(tile, 1)
        self._shown(seat)
        self.final_discard = self._live(seat) <= 0
        self.events.append({"type": "discard", "seat": seat, "tile": _NAMES[tile]})  # as _event
        self._open_window(_CLAIM, seat, tile)
        if not self.options:
            self._next_draw(seat)

    def _next_draw(self, discarder: int) -> None:
        if self.final_discard:  # the wall has not changed since the discard said so
            self._end_hand()
            return
        self._draw(self._next_seat[discarder], False, "wall")

    # ------------------------------------------------------------------ claims

    def _open_window(self, phase: Phase, offerer: int, tile: int) -> None:
        self._enter(phase, offerer)
        self.last_tile = tile
        robbing = phase is _ROB
        natural = self._natural[tile]
        claimable = claimable_for_sets(robbing, self.final_discard, natural)
        ident = self._identity[tile]
        chows_for = self._may_chow[offerer] if ident < 27 else _NO_CHOWS
        every_seat_answers = self.every_seat_answers
        concealed = self.concealed
        known_waits = self._waits
        skipped = self._skipped_pungs
        for seat in self._others[offerer]:  # counter-clockwise from the offerer
            waits = known_waits[seat]
            if waits is None:
                waits = self._wait_set(seat)
            win = (
                tile in waits
                and may_win_on_offer(seat in self.cannot_win, seat in self._passed_win)
                and self._offer_win(seat, tile, robbing)
            )
            options = claim_actions(
                concealed[seat],
                tile,
                ident,
                win,
                claimable,
                ident not in skipped[seat],
                self._may_kong_exposed,
                chows_for[seat],
                self._physical,
                every_seat_answers,
            )
            if options:
                self.options[seat] = options

    def _offer_win(self, seat: int, tile: int, robbing: bool) -> bool:
        """Whether ``seat`` is offered a win on the tile on offer (the rule set lets it declare
        one); its verdict is kept in ``checks``."""

        def context() -> WinContext:
            return offered_context(
                self.seat_wind(seat),
                self.prevalent_wind,
                self.final_discard,
                robbing,
                fourth_tile(self._visible[tile], 0, offered=True),
            )

        check = self._check(seat, tile, context, in_hand=False)
        if offers_win(check, self.rules):
            assert check is not None
            self.checks[seat] = check
            return True
        return False

    def _resolve_claims(self) -> None:
        discarder = self.current
        tile = self.last_tile
        assert tile is not None
        responses = self.responses
        order = [s for s in _OTHERS[discarder] if s in responses]  # counter-clockwise
        self._note_passes(order)
        order = [s for s in order if type(responses[s]) is not Pass]  # the claims
        if not order:  # everyone passed, the common case
            self._next_draw(discarder)
            return
        winners = self._settle_win_claims(discarder, order)
        if winners:
            self._seen(self.ponds[discarder].pop(), -1)
            self._shown(discarder)
            self._end_win([(w, self.checks[w]) for w in winners], discarder, tile)
            return
        for seat in order:
            action = self.responses[seat]
            if isinstance(action, Pung | ExposedKong):
                self._claim_set(seat, discarder, tile, action)
                return
        for seat in order:
            action = self.responses[seat]
            if isinstance(action, Chow):
                self._claim_set(seat, discarder, tile, action)
                return
        self._next_draw(discarder)

    def _note_passes(self, order: list[int]) -> None:
        """Remember who let a pung or a win go, for rule sets that restrict them after."""
        rules = self.rules
        if not (rules.skipped_pung_restriction or rules.skipped_win_restriction):
            return
        assert self.last_tile is not None
        for seat in order:
            answer = self.responses[seat]
            offered = self.options[seat]
            if rules.skipped_pung_restriction and type(answer) is Pass and PUNG_ACTION in offered:
                self._skipped_pungs[seat].add(rules.identity(self.last_tile))
            if rules.skipped_win_restriction and type(answer) is not Win and WIN_ACTION in offered:
                self._passed_win.add(seat)

    def _settle_win_claims(self, offerer: int, order: list[int]) -> list[int]:
        """The seats that win the tile on offer: of the legal claimants (counter-clockwise),
        those the rule set's ``winners_of`` chooses, by default the first. Every false
        declaration is penalised."""
        claimants = []
        for seat in order:
            if isinstance(self.responses[seat], Win):
                if self.checks[seat].legal:
                    claimants.append(seat)
                else:
                    self._false_win(seat)
        if len(claimants) < 2:
            return claimants
        choose = getattr(self.rules, "winners_of", first_claimant)
        winners = list(choose(offerer, claimants))
        if not winners or any(w not in claimants for w in winners):
            raise MajiangError(f"winners_of chose {winners} of the claimants {claimants}")
        return winners

    def _claim_set(self, seat: int, discarder: int, tile: int, action: Action) -> None:
        self._seen(self.ponds[discarder].pop(), -1)
        self._shown(discarder)
        source = (seat - discarder) % 4
        rules = self.rules
        ident = rules.identity(tile)
        self._skipped_pungs[seat].clear()
        if isinstance(action, Chow):
            for t in (action.low, action.low + 1, action.low + 2):
                if t != ident:
                    self._add(seat, rules.physical(t), -1)
            meld = Meld(_CHOW_MELD, action.low, ident - action.low + 1)
        elif isinstance(action, Pung):
            self._add(seat, tile, -2)
            meld = Meld(_PUNG_MELD, ident, source)
        else:
            self._add(seat, tile, -3)
            meld = Meld(_KONG_MELD, ident, source)
        self.melds[seat].append(meld)
        for t in meld.tiles:
            self._seen(t, 1)
        self._shown(seat)
        self._event(
            action_to_json(action)["type"], seat=seat, tile=tile_name(tile), source=discarder
        )
        if isinstance(action, ExposedKong):
            self._draw(seat, True, "kong")
        else:
            self._begin_turn(seat, "claim")

    def _resolve_rob(self) -> None:
        declarer = self.current
        tile = self.last_tile
        assert tile is not None
        order = [s for s in _OTHERS[declarer] if s in self.responses]  # counter-clockwise
        self._note_passes(order)
        winners = self._settle_win_claims(declarer, order)
        if winners:
            self._end_win([(w, self.checks[w]) for w in winners], declarer, tile)
            return
        self._complete_added_kong()

    def _complete_added_kong(self) -> None:
        seat = self.current
        assert self.last_tile is not None
        ident = self.rules.identity(self.last_tile)
        melds = self.melds[seat]
        for i, m in enumerate(melds):
            if m.kind is _PUNG_MELD and m.tile == ident:
                melds[i] = Meld(_KONG_MELD, ident, m.source + ADDED_KONG_OFFSET)
                self._seen(ident, 1)
                self._shown(seat)
                break
        self._draw(seat, True, "kong")

    # ------------------------------------------------------------------ winning

    def _check(
        self, seat: int, win: int, context: Callable[[], WinContext], in_hand: bool
    ) -> WinCheck | None:
        """The rule set's verdict on ``seat`` winning with ``win`` (None: no winning shape)."""
        return check_win(
            self.rules,
            self.concealed[seat],
            self.melds[seat],
            self.flowers[seat],
            win,
            in_hand,
            context,
        )

    def _wait_set(self, seat: int) -> frozenset[int]:
        """``seat``'s waiting tiles (its hand is one tile short), asked of the rule set only
        when its hand differs from the last one it was asked about."""
        waits = self._waits[seat]
        if waits is None:
            n_melds = len(self.melds[seat])
            hand = self._keys[seat] << 3 | n_melds
            memo = self._wait_memos[seat]
            if memo is not None and memo[0] == hand:
                waits = memo[1]
            else:
                counts = self.concealed[seat]
                keyed = self._keyed_waits
                if keyed is not None:
                    waits = keyed(self._keys[seat], counts, n_melds)
                else:
                    waits = self.rules.waiting_tiles(counts, n_melds)
                self._wait_memos[seat] = (hand, waits)
            self._waits[seat] = waits
        return waits

    def _false_win(self, seat: int) -> None:
        self.cannot_win.add(seat)
        penalty = self.rules.false_win_deltas(seat, self.stake)
        for s in range(4):
            self.deltas[s] += penalty[s]
        self._event("false_win", seat=seat, deltas=penalty)

    def _end_win(
        self, wins: list[tuple[int, WinCheck]], discarder: int | None, tile: int | None
    ) -> None:
        """Settle the wins on one tile (``discarder`` None: self-drawn), in order, then end the
        hand, or play on as the rule set's ``after_win`` says."""
        note = self.offer_note if discarder is not None else None
        for i, (winner, check) in enumerate(wins):
            if discarder is not None and tile is not None:
                self._add(winner, tile)  # the claimed (or robbed) tile joins the hand
            t = self.thrown
            situation = WinSituation(
                winner, discarder, self.dealer, self.dealer_count, self.stake,
                (t[0], t[1], t[2], t[3]),
            )  # fmt: skip
            settlement = self.rules.settle_win(self, situation, check, note)
            if i and discarder is not None and tile is not None:
                self._add(winner, tile, -1)  # one tile: it stays with the first winner
            pay = settlement.deltas
            for s in range(4):
                self.deltas[s] += pay[s]
            ledgers = {name: paid for name, paid in settlement.ledgers.items() if any(paid)}
            detail = {**check.detail, **settlement.detail}
            self.wins.append(SeatWin(winner, discarder, check.points, pay, detail, tile, ledgers))
            self.out.append(winner)
            self._event(
                "win", seat=winner, discarder=discarder, points=check.points, deltas=list(pay),
                **{name: list(paid) for name, paid in ledgers.items()},
            )  # fmt: skip
        after = getattr(self.rules, "after_win", first_win_ends)
        following = after(self, tuple(self.out), wins[-1][0])
        if following is None:
            self._end_hand()
            return
        if following in self.out or following not in _SEATS:
            raise MajiangError(f"after_win named seat {following}, which is out or no seat")
        out = self.out
        self._others = tuple(tuple(s for s in _OTHERS[o] if s not in out) for o in _SEATS)
        self._next_seat = tuple(next((s for s in _OTHERS[o] if s not in out), o) for o in _SEATS)
        if self._live((following + 3) % 4) <= 0:  # nothing left to draw for that seat
            self._end_hand()
            return
        self._draw(following, False, "wall")

    def _end_hand(self) -> None:
        """End the hand (the rule set ends it after a win, or the wall is exhausted): its result
        is the wins so far, or an exhaustive draw."""
        self.phase = _END
        self.responses = {}
        self.options = {}
        deltas = (self.deltas[0], self.deltas[1], self.deltas[2], self.deltas[3])
        thrown = (self.thrown[0], self.thrown[1], self.thrown[2], self.thrown[3])
        stakes = {"thrown": thrown} if any(thrown) else {}
        if not self.wins:
            self.result = HandResult(None, None, False, 0, deltas, stakes=stakes)
            self._event("exhaustive_draw")
            return
        first = self.wins[0]
        ledgers: dict[str, tuple[int, int, int, int]] = {}
        for win in self.wins:
            for name, paid in win.ledgers.items():
                was = ledgers.get(name, (0, 0, 0, 0))
                ledgers[name] = (
                    was[0] + paid[0], was[1] + paid[1], was[2] + paid[2], was[3] + paid[3]
                )
        self.result = HandResult(
            first.winner,
            first.discarder,
            first.discarder is None,
            first.points,
            deltas,
            first.detail,
            first.winning_tile,
            {name: paid for name, paid in ledgers.items() if any(paid)},
            stakes,
            tuple(self.wins),
        )

    # ------------------------------------------------------------------ helpers

    def _event(self, kind: str, **fields: Any) -> None:
        self.events.append({"type": kind, **fields})


def events_for(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The events as ``seat`` may see them: another seat's private draw shows no tile."""
    return [
        event
        if not event.get("private") or event.get("seat") == seat
        else {k: v for k, v in event.items() if k != "tile"}
        for event in events
    ]


def _offered(action: Action, legal: Sequence[Action]) -> bool:
    """``action in legal``, by identity first: the legal actions and the RL codec's are the
    same shared objects (``actions.DISCARDS`` …), and ``in`` calls the dataclass ``__eq__``, a
    Python function, on every other action before the match (about 1 µs a step)."""
    for offered in legal:
        if offered is action:
            return True
    return action in legal


_SEATS: Final = range(4)
_OTHERS: Final = tuple(((s + 1) % 4, (s + 2) % 4, (s + 3) % 4) for s in range(4))
"""The other three seats of each seat, counter-clockwise from it."""
_NEXT_SEAT: Final = (1, 2, 3, 0)
_NO_CHOWS: Final = (False, False, False, False)
_NAMES: Final = [tile_name(t) for t in range(42)]
"""Tile names by tile, for the hot events (``tile_name`` without the call)."""
_NEW_TUPLE: Final = tuple.__new__
"""Bound once: compiled, ``tuple.__new__(...)`` looks the method up on each call."""
_HIDDEN_KONG: Final = HIDDEN_KONG
def _layout(rules: RuleSet, layout: str | WallLayout | None, single_end: bool) -> WallLayout:
    """A table's wall layout: ``layout`` (a layout, or a name of ``engine.wall.LAYOUTS`` or of
    the rule set's own layout), ``single_end``'s, or the rule set's ``wall_layout`` (a layout or
    a name; two ends when it has none)."""
    own = getattr(rules, "wall_layout", "two_ended")
    chosen = layout
    if chosen is None:
        chosen = "single_end" if single_end else own
    if isinstance(chosen, str):
        if chosen not in LAYOUTS and not isinstance(own, str) and own.name == chosen:
            chosen = own
        else:
            try:
                chosen = layout_named(chosen)
            except ValueError as error:
                raise MajiangError(str(error)) from None
    if not (isinstance(chosen, type) and issubclass(chosen, Wall)):
        raise MajiangError(f"a wall layout is a subclass of engine.wall.Wall, not {chosen!r}")
    if single_end and chosen is not SingleEnd:
        raise MajiangError(f"single_end contradicts the wall layout {layout!r}")
    return chosen


_UNUSED_RNG: Final = random.Random(0)
"""The generator of a wall given in draw order (which shuffles nothing and rolls no dice)."""
