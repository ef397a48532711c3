"""What the table hands out: the phase, a seat's observation, a hand's result, and the error of
an illegal action. Front ends, bots and encoders read these; only the table builds them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final, NamedTuple

from ..errors import MajiangError
from ..frozen import rebuild
from ..hand import CONCEALED_KONG, Meld, MeldKind
from ..rules.base import ObservationExtension
from ..tiles import WHITE, tile_name
from .actions import Action

HIDDEN = -1
"""The tile of another seat's concealed kong in an observation: it is face down."""

HIDDEN_KONG: Final = Meld(MeldKind.KONG, HIDDEN, 0)
"""Another seat's concealed kong as an observation shows it."""


class IllegalAction(MajiangError):
    """An action that is not legal for that seat now; the table is unchanged."""


class Phase(Enum):
    """Where the hand stands."""

    TURN = "turn"
    """``current`` has drawn (or claimed) and must discard, or may win or declare a kong."""
    CLAIM = "claim"
    """``current`` has discarded; the seats in ``to_act()`` may claim it."""
    ROB = "rob"
    """``current`` has added a tile to a pung; the seats in ``to_act()`` may rob the kong."""
    END = "end"
    """The hand is over: see ``result``."""
    BULLETS = "bullets"
    """Before the deal: the seats that the rule set's ``opening_phase`` asks decide, round by
    round (rule sets without one never enter this phase)."""


NO_PAYMENTS: Final = (0, 0, 0, 0)
"""A ledger in which nobody pays."""


@dataclass(frozen=True, slots=True)
class SeatWin:
    """One win of a hand: who won, on whose tile, for how much."""

    winner: int
    discarder: int | None
    """The seat that offered the winning tile (None: self-drawn)."""
    points: int
    deltas: tuple[int, int, int, int]
    """The payments of this win alone (zero-sum)."""
    detail: dict[str, Any] = field(default_factory=dict)
    winning_tile: int | None = None
    ledgers: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)
    """The payments of this win in the rule set's extra ledgers, by name."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Copy and pickle through the constructor (see :mod:`majiang.frozen`)."""
        return rebuild(self)


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended: one win or more (``wins``, in the order they were made) or an
    exhaustive draw. ``winner``, ``discarder``, ``points``, ``detail`` and ``winning_tile`` are
    those of the first win (the only one where the rules let one seat win a hand)."""

    winner: int | None
    discarder: int | None
    self_drawn: bool
    points: int
    deltas: tuple[int, int, int, int]
    """Score changes of seats 0-3 in this hand, every win and false-win penalty included
    (zero-sum)."""
    detail: dict[str, Any] = field(default_factory=dict)
    winning_tile: int | None = None
    ledgers: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)
    """The rule set's extra ledgers by name (Huangyan's ``bullets``), each zero-sum; only the
    ledgers someone paid in, so empty where the rules have none."""
    stakes: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)
    """What each seat had at stake in this hand beyond the table's stake, by name (Huangyan's
    ``thrown`` bullets accepted from the dealer); only the non-zero ones."""
    wins: tuple[SeatWin, ...] = ()
    """Every win of the hand (empty: a draw)."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Copy and pickle through the constructor (see :mod:`majiang.frozen`)."""
        return rebuild(self)

    @property
    def is_draw(self) -> bool:
        """An exhaustive draw (荒牌): nobody won."""
        return self.winner is None

    def ledger(self, name: str) -> tuple[int, int, int, int]:
        """The extra ledger ``name`` (zeros where nobody paid in it)."""
        return self.ledgers.get(name, NO_PAYMENTS)

    def stake(self, name: str) -> tuple[int, int, int, int]:
        """The stakes ``name`` of the four seats (zeros where the hand had none)."""
        return self.stakes.get(name, NO_PAYMENTS)

    def to_json(self) -> dict[str, Any]:
        """Stable JSON fields (records, servers): the first win, then the extra ledgers and
        the stakes by name."""
        return {
            "winner": self.winner,
            "discarder": self.discarder,
            "self_drawn": self.self_drawn,
            "points": self.points,
            "deltas": list(self.deltas),
            "winning_tile": tile_name(self.winning_tile) if self.winning_tile is not None else None,
            "detail": self.detail,
            **{name: list(paid) for name, paid in self.ledgers.items()},
            **{name: list(staked) for name, staked in self.stakes.items()},
        }


class Observation(NamedTuple):
    """What one seat may know. Other seats' concealed tiles and the wall never appear.

    ``melds`` of other seats show a concealed kong as ``Meld(KONG, HIDDEN, 0)``.

    Immutable (a named tuple: ``obs._replace(hand=...)`` gives a changed copy). Not a frozen
    dataclass because the table builds one for every decision, and a frozen dataclass's
    constructor sets its fields one ``object.__setattr__`` at a time: 8 µs, a tenth of a
    simulated decision, against about 1 µs for the tuple.
    """

    seat: int
    dealer: int
    prevalent_wind: int
    seat_wind: int
    phase: Phase
    current: int
    hand: tuple[int, ...]
    """This seat's concealed tiles, sorted (the drawn tile included)."""
    drawn: int | None
    """The tile this seat just drew, when it is on turn after a draw."""
    melds: tuple[tuple[Meld, ...], ...]
    flowers: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    """Each seat's pond in order (claimed tiles leave the pond for the claimer's meld)."""
    hand_sizes: tuple[int, ...]
    wall_remaining: int
    last_discard: int | None
    """The tile on offer (the discard, or the tile being added to a kong)."""
    legal_actions: tuple[Action, ...]
    deltas: tuple[int, ...]
    may_win: bool
    """False after a false win (错和) in this hand."""
    win_reaches_minimum: bool | None = None
    """When a Win is offered: whether declaring it is a legal win (False: a false win, offered
    only in rooms that play 错和). None when no Win is offered."""
    wild: int | None = None
    """The wild face of this hand (in melds, which hold identities, the rule set's stand-in tile
    carries it). None when the rules have no wild tiles or before the indicator is turned up."""
    indicator: int | None = None
    """The tile turned up after the deal (out of play), if the rules turn one up."""
    drawable: int = 0
    """Tiles that may still be drawn before the wall counts as exhausted."""
    visible: tuple[int, ...] | None = None
    """Copies of each of the 34 kinds face up for every seat: in the ponds and in the exposed
    melds (a concealed kong is face down; the indicator and a tile on offer to rob are not
    counted). Derivable from ``discards`` and ``melds``; the table keeps it as tiles move so that
    bots need not recount. None in hands with a wild tile, and from sources that do not keep it."""
    extension: ObservationExtension | None = None
    """The rule set's own public facts (see :class:`ObservationExtension`); None for rule sets
    that have none."""


class PublicView(NamedTuple):
    """What every seat may know alike, and all a spectator may: an :class:`Observation`'s
    public fields (same names, same meanings), every concealed kong face down
    (:data:`HIDDEN_KONG`). No seat, hand, drawn tile or legal action."""

    dealer: int
    prevalent_wind: int
    phase: Phase
    current: int
    melds: tuple[tuple[Meld, ...], ...]
    flowers: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]
    wall_remaining: int
    last_discard: int | None
    deltas: tuple[int, ...]
    wild: int | None = None
    indicator: int | None = None
    drawable: int = 0
    visible: tuple[int, ...] | None = None
    extension: ObservationExtension | None = None


def public_part(obs: Observation) -> PublicView:
    """A seat's observation without what only that seat may know: the :class:`PublicView`
    the table gives a spectator at the same moment."""
    return PublicView(
        obs.dealer, obs.prevalent_wind, obs.phase, obs.current,
        tuple(tuple(HIDDEN_KONG if m.is_concealed_kong else m for m in melds)
              for melds in obs.melds),
        obs.flowers, obs.discards, obs.hand_sizes, obs.wall_remaining, obs.last_discard,
        obs.deltas, obs.wild, obs.indicator, obs.drawable, obs.visible, obs.extension,
    )


NO_EXTENSION_STATE: Final = (False, 1, (0, 0, 0, 0))
"""``(late, dealer_count, thrown)`` of an observation without an extension."""


def extension_state(obs: Observation) -> tuple[bool, int, tuple[int, ...]]:
    """``(late, dealer_count, thrown)`` as the observation's extension gives them, or
    :data:`NO_EXTENSION_STATE`: no late phase, a dealer's first hand, nothing thrown."""
    ext = obs.extension
    return NO_EXTENSION_STATE if ext is None else (ext.late, ext.dealer_count, ext.thrown)


_CHOW: Final = MeldKind.CHOW
_KONG: Final = MeldKind.KONG


def count_visible(
    melds: tuple[tuple[Meld, ...], ...], discards: tuple[tuple[int, ...], ...]
) -> tuple[int, ...]:
    """:attr:`Observation.visible` counted from an observation's melds and ponds (for an
    observation rebuilt from elsewhere, e.g. the RL encoding)."""
    return tuple(count_seen([0] * 34, melds, discards))


def count_seen(
    counts: list[int],
    melds: tuple[tuple[Meld, ...], ...],
    discards: tuple[tuple[int, ...], ...],
    wild: int | None = None,
    own_kongs: bool = False,
) -> list[int]:
    """``counts`` (34, raised in place and returned) plus the tiles face up in the ponds and the
    melds. With a ``wild`` face, melds hold identities: identity ``wild`` in a meld is shown by
    a white dragon (its stand-in), unless the wild face is white itself. ``own_kongs``: count
    the concealed kongs whose face the melds show (the seat's own) too."""
    for pond in discards:
        for t in pond:
            counts[t] = counts[t] + 1
    stand_in = -1 if wild is None or wild == WHITE else wild
    for seat_melds in melds:
        for m in seat_melds:
            tile = m.tile
            kind = m.kind
            if tile == HIDDEN or (kind is _KONG and m.source == CONCEALED_KONG and not own_kongs):
                continue  # face down
            if kind is _CHOW:
                for t in (tile, tile + 1, tile + 2):
                    face = WHITE if t == stand_in else t
                    counts[face] = counts[face] + 1
            else:
                face = WHITE if tile == stand_in else tile
                counts[face] = counts[face] + (4 if kind is _KONG else 3)
    return counts


__all__ = [
    "HIDDEN",
    "HIDDEN_KONG",
    "NO_EXTENSION_STATE",
    "NO_PAYMENTS",
    "HandResult",
    "IllegalAction",
    "Observation",
    "ObservationExtension",
    "Phase",
    "PublicView",
    "SeatWin",
    "count_seen",
    "count_visible",
    "extension_state",
    "public_part",
]
