"""The HTTP request/response models and the websocket message schema (version 1).

Client to server, one JSON object per text frame:

* ``{"type": "act", "action": {...}, "step": n}`` — an action in ``action_to_json`` form, for the
  table at ``step`` (optional; the count of actions so far, sent in every frame);
* ``{"type": "ready"}`` — the ready check before the match;
* ``{"type": "resync"}`` — send the whole state again;
* ``{"type": "hint"}`` — hints for the seat's hand (:func:`majiang.hints.hints`);
* ``{"type": "next"}`` — between hands: this person has read the score sheet;
* ``{"type": "ping"}``.

Server to client, each with ``"v": 1``: ``welcome`` (the seat or spectator role; ``resumed``:
this connection resumed a match paused while nobody was connected), ``state`` (the
full view: the observation and every event of the hand so far as this client may see them),
``room`` (seats, ready checks and connections changed),
``update`` (after each accepted action: the new events and the new observation), ``hand_end``
(the result and the running totals), ``pause`` (between hands: who is still to say ``next``,
and when the next hand is dealt anyway), ``match_end``, ``hint`` (the answer to a hint request),
``pong`` and ``error`` (a rejected message; nothing changed). ``state``, ``update`` and
``pause`` carry the clock: ``deadlines`` (per seat), ``next_deadline`` and ``now``. Observations are
``majiang.engine.serialize`` JSON.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from ..engine.table import Table
from ..rules.registry import DEFAULT_RULES, RULE_SETS, settlement_lines

VERSION = 1
MAX_MESSAGE_BYTES = 4096
"""Longer websocket frames are rejected."""


def build_frame(kind: str, **fields: Any) -> dict[str, Any]:
    """A server-to-client frame of type ``kind``, stamped with the protocol's version."""
    return {"v": VERSION, "type": kind, **fields}


def error_frame(message: str) -> dict[str, Any]:
    """The ``error`` frame: a rejected message, nothing changed."""
    return build_frame("error", message=message)


def settlement_of(table: Table) -> dict[str, Any] | None:
    """A finished hand's settlement lines for the score sheet, from its rule set
    (:mod:`majiang.rules.sheet_lines`: each line's text in both languages, every transfer with
    its reason); None while the hand goes on."""
    if table.result is None:
        return None
    return settlement_lines(table.result.to_json(), table.rules, table.stake)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ActMessage(_Strict):
    """Play an action (one of the seat's legal actions)."""

    type: Literal["act"]
    action: dict[str, Any]
    step: int | None = None
    """The ``step`` of the frame the action answers; an action for an older step is refused
    (the table has moved on), so a late or repeated message cannot play twice."""


class ReadyMessage(_Strict):
    """Ready to start the match."""

    type: Literal["ready"]


class ResyncMessage(_Strict):
    """Ask for the whole state again."""

    type: Literal["resync"]


class PingMessage(_Strict):
    """Keep-alive."""

    type: Literal["ping"]


class HintMessage(_Strict):
    """Ask for hints on the seat's hand: answered by a ``hint`` frame
    (``{"v": 1, "room": CODE, "type": "hint", "hints": {...}}``), or an ``error`` for a
    spectator or a seat with no tiles."""

    type: Literal["hint"]


class NextMessage(_Strict):
    """Between hands: this person has read the score sheet; the next hand is dealt when every
    connected person has said so (or after the room's ``next_seconds``)."""

    type: Literal["next"]


ClientMessage = Annotated[
    ActMessage | ReadyMessage | ResyncMessage | PingMessage | HintMessage | NextMessage,
    Field(discriminator="type"),
]


class ServerMessage(BaseModel):
    """What every server frame carries: the version and its type; the rest depends on the type
    (see the module docstring and ``docs/server.md``)."""

    model_config = ConfigDict(extra="allow")
    v: int = VERSION
    type: Literal[
        "welcome", "state", "room", "update", "hand_end", "pause", "match_end", "pong", "error",
        "hint",
    ]


def _no_bots() -> list[str | None]:
    return [None, None, None, None]


class RoomCreate(_Strict):
    """A new room: the rule set and its options, the stake, the match length, timers, bots."""

    rules: str = DEFAULT_RULES
    """A rule set of the registry (:data:`majiang.rules.registry.RULE_SETS`)."""
    options: dict[str, Any] = Field(default_factory=dict)
    stake: int = Field(1, ge=1, le=1000)
    hands: int = Field(16, ge=1, le=64)
    rounds: int | None = Field(None, ge=1, le=8)
    """A match of this many rounds (the deal going round all four players; with Huangyan's
    continuation a round may take more than four hands) instead of ``hands`` hands."""
    turn_seconds: float = Field(30.0, gt=0, le=600)
    grace_seconds: float = Field(20.0, ge=0, le=600)
    spectator_delay: int = Field(0, ge=0, le=200)
    bot_seconds: float = Field(0.6, ge=0, le=10)
    """The beat between two bot moves, so that people can follow them (0: at once)."""
    next_seconds: float = Field(15.0, ge=0, le=600)
    """Between hands: the next hand is dealt when every connected person has said ``next``,
    or after this long (0: at once)."""
    ready_seconds: float = Field(300.0, gt=0, le=3600)
    """Before the match: a person seated this long without saying ``ready`` loses the seat."""
    bots: list[str | None] = Field(default_factory=_no_bots, min_length=4, max_length=4)
    """A bot per seat (None: a seat for a person; empty seats get ``fill_bot`` at the start)."""
    fill_bot: str | None = None
    """The bot that fills seats nobody took when the match starts (None: the rule set's
    default bot)."""

    @field_validator("rules", mode="before")
    @classmethod
    def _known_rules(cls, value: Any) -> Any:
        """A rule set of the registry, refused as a literal would be (the same 422 answer)."""
        if isinstance(value, str) and value in RULE_SETS:
            return value
        names = [f"'{name}'" for name in RULE_SETS]
        expected = " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        raise PydanticCustomError(
            "literal_error", "Input should be {expected}", {"expected": expected}
        )
    seed: int | None = Field(None, ge=0, lt=2**63)
    """A chosen seed (refused by a server run without chosen seeds): the room is marked as such.
    Without one, the seed is drawn from :mod:`secrets`."""


class SeatView(BaseModel):
    """A seat as everyone may see it (never a token)."""

    seat: int
    player: str | None
    player_id: int | None
    bot: str | None
    ready: bool
    connected: bool
    away: bool
    """A bot plays the seat while its player is disconnected."""
    ready_by: float | None = None
    """Before the match: when the seat is freed unless its player is ready by then (seconds
    since the epoch; None for a bot, an empty seat or a ready player)."""


class RoomView(BaseModel):
    """A room as everyone may see it."""

    code: str
    rules: str
    options: dict[str, Any]
    stake: int
    hands: int
    rounds: int | None
    turn_seconds: float
    grace_seconds: float
    spectator_delay: int
    bot_seconds: float
    next_seconds: float
    ready_seconds: float
    status: str
    chosen_seed: bool
    """The creator chose the seed: whoever knows it can replay every wall (for replays, teaching
    and duplicate play between consenting seats, not for play among strangers)."""
    seed_hash: str
    """The SHA-256 of the match seed's decimal digits, published before the first hand."""
    seed: int | None
    """The match seed, revealed once the match is over (None before)."""
    paused: bool = False
    """The match is paused because nobody (no player, no spectator) has been connected for the
    server's ``unwatched_seconds``: no bot moves, no timer runs; the first connection resumes
    it."""
    seats: list[SeatView]
    hand: int | None
    totals: list[int] | None


class RoomCreated(RoomView):
    """A room just created, with its creator's secret token (shown once, here only): sent in
    the ``X-Creator-Token`` header, it frees any seat before the match starts."""

    creator_token: str


class SeatRequest(_Strict):
    """Taking a seat: the player's name."""

    name: str = Field(min_length=1, max_length=40)


class SeatGrant(BaseModel):
    """The seat taken and its secret token (shown once, to its owner only)."""

    code: str
    seat: int
    player_id: int
    token: str


class HandSummary(BaseModel):
    """One hand of a room's match."""

    id: int
    number: int
    dealer: int
    finished: bool
    result: dict[str, Any] | None


class SeatSummary(BaseModel):
    """A seat in the list of rooms."""

    seat: int
    player: str | None
    bot: str | None


class RoomSummary(BaseModel):
    """A room in ``GET /rooms``: enough to choose one to join, watch or replay."""

    code: str
    rules: str
    status: str
    stake: int
    hands: int
    rounds: int | None
    chosen_seed: bool
    """The creator chose the seed (see ``RoomView.chosen_seed``)."""
    paused: bool = False
    """The match is paused, nobody being connected (see ``RoomView.paused``)."""
    seats: list[SeatSummary]
    open_seats: list[int]
    """Seats a person may still take (none once the match has started)."""


class RuleOption(BaseModel):
    """One option of a rule set, for forms."""

    name: str
    type: Literal["bool", "int", "choice"]
    default: Any
    choices: list[str] | None = None
    doc: str = ""


class RuleSetListing(BaseModel):
    """A rule set as ``GET /rules`` lists it: the wire form of
    :meth:`~majiang.rules.info.RuleSetDescription.to_json` (its options with their defaults,
    the bots that play it)."""

    name: str
    zh: str
    en: str
    label: str
    """The short title in both languages (``国标 GB``), for room lists and table headers."""
    options: list[RuleOption]
    bots: list[str]
    default_bot: str
    points_unit: str
    """What a winning total counts (``fans``, ``hu``)."""
    match_length: str
    """``hands`` or ``rounds``: how a match of these rules is usually agreed."""
    shows: dict[str, Any]
    """What a table shows: ``prevalent_wind``, ``dealer_count``, ``wild`` (bool each),
    ``second_ledger`` (a name or null), ``gunner``."""


class ReplayStep(BaseModel):
    """One step of a replay: the action taken (None for the deal), its events, and the table
    after it with every hand shown."""

    index: int
    seat: int | None
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    view: dict[str, Any]


class Replay(BaseModel):
    """A finished hand, step by step, for the replay viewer."""

    id: int
    room: str
    number: int
    rules: str
    options: dict[str, Any]
    seats: list[SeatSummary]
    """Who played each seat in this hand: the player's name, or the bot."""
    dealer: int
    prevalent_wind: int
    steps: list[ReplayStep]
    result: dict[str, Any]


class PlayerStats(BaseModel):
    """A player's figures over every finished hand he sat in."""

    player_id: int
    name: str
    hands: int
    wins: int
    self_drawn: int
    deal_ins: int
    points: int


__all__ = [
    "MAX_MESSAGE_BYTES",
    "VERSION",
    "ActMessage",
    "ClientMessage",
    "HandSummary",
    "HintMessage",
    "NextMessage",
    "PingMessage",
    "PlayerStats",
    "ReadyMessage",
    "Replay",
    "ReplayStep",
    "ResyncMessage",
    "RoomCreate",
    "RoomCreated",
    "RoomSummary",
    "RoomView",
    "RuleOption",
    "RuleSetListing",
    "SeatGrant",
    "SeatRequest",
    "SeatSummary",
    "SeatView",
    "ServerMessage",
]
