"""The view model shared by both drivers: snapshots of the table, the events a driver reports,
and the grouping of a seat's legal actions into what keys can do.

Everything here is plain data built from the engine's JSON (observations as
``majiang.engine.serialize.observation_to_json`` writes them, actions as ``action_to_json``,
results as ``HandResult.to_json``), so that a local match and a server room look the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .glyphs import suit_index

Json = dict[str, Any]

TILE_KEYS = "1234567890asdf"
"""The keys of the tiles in the hand, left to right (a hand shows at most 14 tiles)."""


@dataclass(frozen=True)
class Snapshot:
    """What the table shows now: one seat's observation and the match around it."""

    rules: str
    seat: int
    observation: Json | None
    """``None`` before the match has started (a server room waiting for its players)."""
    hand: int | None = None
    """The number of the hand in the match (1, 2, ...)."""
    hands: int | None = None
    """How many hands the match lasts, when known."""
    step: int = 0
    """Actions played so far in the hand (the server's ``step``)."""
    names: tuple[str, ...] = ("", "", "", "")
    totals: tuple[int, ...] = (0, 0, 0, 0)
    bullets: tuple[int, ...] = (0, 0, 0, 0)
    note: str = ""
    """A line about the room while there is no hand (who is ready)."""
    deadline: float | None = None
    """When the seat's decision now times out (``time.monotonic()``), if it is timed."""
    away: tuple[bool, ...] = (False, False, False, False)
    """Seats whose player is away (a bot plays for them meanwhile)."""

    @property
    def legal(self) -> list[Json]:
        """The seat's legal actions now."""
        return [] if self.observation is None else list(self.observation["legal_actions"])


@dataclass(frozen=True)
class TableChanged:
    """The table moved on (or was sent whole): the new snapshot and the new events."""

    snapshot: Snapshot
    events: list[Json] = field(default_factory=list)
    fresh: bool = False
    """A new hand (or a whole resent state): the event log starts again."""


@dataclass(frozen=True)
class HandEnded:
    """A hand is over: its result (``HandResult.to_json``) and the running totals."""

    result: Json
    totals: tuple[int, ...]
    bullets: tuple[int, ...]
    names: tuple[str, ...]
    dealer: int
    hand: int | None = None
    final: Json | None = None
    """Every seat's tiles as the hand ended, when known: ``hands`` (concealed, per seat),
    ``melds`` (engine JSON, per seat) and ``drawn`` (per seat), as the replay's last view."""
    next_deadline: float | None = None
    """When the next hand is dealt anyway (``time.monotonic()``), if the pause is timed."""


@dataclass(frozen=True)
class MatchEnded:
    """The match is over: the final totals."""

    totals: tuple[int, ...]
    bullets: tuple[int, ...]
    names: tuple[str, ...]


@dataclass(frozen=True)
class HintsReady:
    """Hints for the seat (the JSON of ``majiang.hints.hints``)."""

    hints: Json


@dataclass(frozen=True)
class Problem:
    """Something went wrong: a refused action (the game goes on), or a lost connection
    (``fatal``: the table cannot go on)."""

    message: str
    fatal: bool = False


DriverEvent = TableChanged | HandEnded | MatchEnded | HintsReady | Problem


@dataclass(frozen=True)
class Choices:
    """A seat's legal actions grouped by the key that plays them."""

    discards: tuple[str, ...] = ()
    win: Json | None = None
    pung: Json | None = None
    chows: tuple[Json, ...] = ()
    kongs: tuple[Json, ...] = ()
    pass_: Json | None = None
    throws: tuple[Json, ...] = ()
    accept: Json | None = None

    @classmethod
    def of(cls, legal: list[Json]) -> Choices:
        """Group the legal actions (engine JSON)."""
        by: dict[str, list[Json]] = {}
        for action in legal:
            by.setdefault(action["type"], []).append(action)

        def one(kind: str) -> Json | None:
            return by[kind][0] if kind in by else None

        return cls(
            discards=tuple(a["tile"] for a in by.get("discard", ())),
            win=one("win"),
            pung=one("pung"),
            chows=tuple(by.get("chow", ())),
            kongs=tuple(
                by.get("exposed_kong", []) + by.get("concealed_kong", [])
                + by.get("added_kong", [])
            ),
            pass_=one("pass"),
            throws=tuple(by.get("throw_bullets", ())),
            accept=one("accept_bullets"),
        )

    @property
    def any(self) -> bool:
        """Whether the seat must act now."""
        return bool(
            self.discards or self.win or self.pung or self.chows or self.kongs or self.pass_
            or self.throws or self.accept
        )

    @property
    def only_pass(self) -> bool:
        """Passing is the only choice (a claim window the seat cannot use)."""
        return self.pass_ is not None and not (
            self.discards or self.win or self.pung or self.chows or self.kongs or self.throws
            or self.accept
        )


@dataclass(frozen=True)
class HandLayout:
    """The seat's concealed tiles as shown: the 得 first, then by suit, the drawn tile apart."""

    tiles: tuple[str, ...] = ()
    gaps: tuple[int, ...] = ()
    """Positions where a new group begins."""
    drawn: int | None = None
    """Position of the drawn tile (the last), if any."""


def hand_layout(observation: Json | None) -> HandLayout:
    """How the hand of ``observation`` is laid out."""
    if observation is None or not observation["hand"]:
        return HandLayout()
    tiles = list(observation["hand"])
    drawn = observation.get("drawn")
    if drawn is not None and drawn in tiles:
        tiles.remove(drawn)
    wild = observation.get("wild")
    groups: list[list[str]] = []
    wilds = [t for t in tiles if t == wild]
    if wilds:
        groups.append(wilds)
    last = None
    for tile in tiles:
        if tile == wild:
            continue
        suit = suit_index(tile)
        if suit != last:
            groups.append([])
            last = suit
        groups[-1].append(tile)
    if drawn is not None:
        groups.append([drawn])
    shown: list[str] = []
    gaps: list[int] = []
    for group in groups:
        if shown:
            gaps.append(len(shown))
        shown.extend(group)
    return HandLayout(
        tuple(shown), tuple(gaps), len(shown) - 1 if drawn is not None else None
    )


def unique_names(names: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Names with the seat number added to any name held by more than one seat."""
    return tuple(
        f"{name} {seat}" if names.count(name) > 1 else name for seat, name in enumerate(names)
    )


def relative(seat: int, me: int) -> str:
    """Where a seat sits from ``me``: you, right (下家), opposite (对家), left (上家)."""
    return ("you", "right", "opposite", "left")[(seat - me) % 4]


__all__ = [
    "TILE_KEYS",
    "Choices",
    "DriverEvent",
    "HandEnded",
    "HandLayout",
    "HintsReady",
    "Json",
    "MatchEnded",
    "Problem",
    "Snapshot",
    "TableChanged",
    "hand_layout",
    "relative",
    "unique_names",
]
