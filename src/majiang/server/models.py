"""The server's tables (SQLAlchemy 2.0 typed ORM): players, rooms, seats, matches, hands and the
log of accepted actions. The action log is the truth: a room's state is rebuilt from it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, BigInteger, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utc_now() -> datetime:
    """The time now, in UTC (every table's times)."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """The declarative base of every table: each has an integer ``id`` as its primary key."""

    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}
    id: Mapped[int] = mapped_column(primary_key=True, sort_order=-1)


class Created:
    """The column of a table whose rows say when they were made."""

    created_at: Mapped[datetime] = mapped_column(default=utc_now)


class Edited:
    """The columns of a table whose rows change in place: when made, when last changed."""

    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(default=utc_now)


class Versioned(Edited):
    """An edited table with a version raised at every change: a writer that read an older
    version is refused, and a page that polls it sees the change."""

    version: Mapped[int] = mapped_column(default=0)


class Player(Created, Base):
    """Someone who took a seat (a name, no account)."""

    __tablename__ = "players"
    name: Mapped[str] = mapped_column(String(40))


class Room(Created, Base):
    """A table people are invited to by its code; it plays one match."""

    __tablename__ = "rooms"
    code: Mapped[str] = mapped_column(String(12), unique=True, index=True)
    rules: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]]
    stake: Mapped[int] = mapped_column(default=1)
    hands: Mapped[int] = mapped_column(default=16)
    rounds: Mapped[int | None] = mapped_column(default=None)
    """When set, the match lasts this many rounds (the deal going round) instead of ``hands``."""
    turn_seconds: Mapped[float] = mapped_column(default=30.0)
    grace_seconds: Mapped[float] = mapped_column(default=20.0)
    spectator_delay: Mapped[int] = mapped_column(default=0)
    """Spectators see the table as it was this many actions ago."""
    bot_seconds: Mapped[float] = mapped_column(default=0.6)
    """The beat between two bot moves (0: at once)."""
    next_seconds: Mapped[float] = mapped_column(default=15.0)
    """Between hands: the next is dealt after this long unless everyone says ``next`` before."""
    ready_seconds: Mapped[float] = mapped_column(default=300.0)
    """A person seated this long without being ready loses the seat (before the match)."""
    seed: Mapped[int] = mapped_column(BigInteger)
    seed_chosen: Mapped[bool] = mapped_column(default=False)
    """The seed was given by the room's creator: whoever knows it knows every wall."""
    creator_token_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    """The SHA-256 of the creator's token (frees seats before the match)."""
    fill_bot: Mapped[str | None] = mapped_column(String(20), default=None)
    """The bot that fills empty seats when the match starts (None: the rule set's best)."""
    status: Mapped[str] = mapped_column(String(12), default="waiting")
    """waiting (seats and ready checks), playing, finished."""
    seats: Mapped[list[Seat]] = relationship(back_populates="room", order_by="Seat.seat")


class Seat(Base):
    """One of a room's four seats: a player with a secret token, a bot, or empty."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_id", "seat"),)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), index=True)
    seat: Mapped[int]
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    token_hash: Mapped[str | None] = mapped_column(String(64))
    bot: Mapped[str | None] = mapped_column(String(20))
    seated_at: Mapped[datetime | None] = mapped_column(default=None)
    """When the player took the seat (the ready timeout counts from there)."""
    ready: Mapped[bool] = mapped_column(default=False)
    room: Mapped[Room] = relationship(back_populates="seats")
    player: Mapped[Player | None] = relationship()


class MatchRow(Created, Base):
    """The match a room plays, with its running totals."""

    __tablename__ = "matches"
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), index=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    totals: Mapped[list[Any]]
    bullets: Mapped[list[Any]]
    status: Mapped[str] = mapped_column(String(12), default="playing")


class HandRow(Base):
    """One hand of a match: how it was set up, and its result once over."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("match_id", "number"),)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    number: Mapped[int]
    seed: Mapped[int] = mapped_column(BigInteger)
    dealer: Mapped[int]
    prevalent_wind: Mapped[int]
    dealer_count: Mapped[int] = mapped_column(default=1)
    thrown: Mapped[list[Any]]
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    players: Mapped[list[Any]]
    """The player id at each seat (None for a bot)."""


class ActionRow(Created, Base):
    """One accepted action, committed before anyone hears of it."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("hand_id", "index"),)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), index=True)
    index: Mapped[int]
    seat: Mapped[int]
    action: Mapped[dict[str, Any]]


class HandReview(Created, Base):
    """A finished review of one seat's decisions in a hand (``majiang review --json``), kept so
    that asking again costs nothing."""

    __tablename__ = "hand_reviews"
    __table_args__ = (UniqueConstraint("hand_id", "seat"),)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), index=True)
    seat: Mapped[int]
    result: Mapped[dict[str, Any]]
    seconds: Mapped[float]
    """How long the review took."""


__all__ = ["ActionRow", "Base", "HandReview", "HandRow", "MatchRow", "Player", "Room", "Seat"]
